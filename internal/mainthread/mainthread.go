package mainthread

import "runtime"

// Package initialization runs on the main goroutine, which Go starts on the
// main thread: locking here keeps it there.
func init() { runtime.LockOSThread() }

var calls = make(chan func())

// Run calls run on a new goroutine and serves Do on the calling (main)
// goroutine until run returns, then returns run's result on the main
// thread, so the caller may clean up there (glfw.Terminate) before exiting.
func Run(run func() int) int {
	done := make(chan int)
	go func() { done <- run() }()
	for {
		select {
		case f := <-calls:
			f()
		case code := <-done:
			return code
		}
	}
}

// Do runs f on the main thread and waits for it. A panic in f is re-raised
// in the caller. Inside a test, report from f with t.Error or return
// values, never t.Fatal or t.Skip, which would end the main goroutine. Do
// must not be called from inside f: that deadlocks.
func Do(f func()) {
	var p any
	done := make(chan struct{})
	calls <- func() {
		defer close(done)
		defer func() { p = recover() }()
		f()
	}
	<-done
	if p != nil {
		panic(p)
	}
}

// OnMainThread reports whether the caller runs on the main thread. On
// Linux the main thread's id is the process id; elsewhere it cannot tell
// and answers true, so that tests relying on it do not fail there.
func OnMainThread() bool { return isMainThread() }
