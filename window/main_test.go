package window

import (
	"os"
	"runtime"
	"testing"
)

// GLFW must be called on the main thread. TestMain keeps the main goroutine
// there and serves do() to the tests, which run on other goroutines. (The
// gl package's tests use gl/internal/gltest for the same; Go's internal
// rule keeps it out of reach from here, and these 30 lines are simpler
// than a shared package.)

func init() { runtime.LockOSThread() }

var calls = make(chan func())

var initErr error // Init's result; set by the first open, on the main thread
var initDone bool

func TestMain(m *testing.M) {
	done := make(chan int)
	go func() { done <- m.Run() }()
	for {
		select {
		case f := <-calls:
			f()
		case code := <-done:
			if initDone && initErr == nil {
				Terminate()
			}
			os.Exit(code)
		}
	}
}

// do runs f on the main thread. Inside f, report with t.Error, never
// t.Fatal (it would end the main goroutine). A panic in f is re-raised in
// the caller.
func do(f func()) {
	var p any
	ran := make(chan struct{})
	calls <- func() {
		defer close(ran)
		defer func() { p = recover() }()
		f()
	}
	<-ran
	if p != nil {
		panic(p)
	}
}

// open opens a window for the test and destroys it at the end. Without a
// display it skips, or fails when CI=true.
func open(t *testing.T, cfg Config) *Window {
	t.Helper()
	var w *Window
	var err error
	do(func() {
		if !initDone {
			initErr, initDone = Init(), true
		}
		if err = initErr; err == nil {
			w, err = Open(cfg)
		}
	})
	if err != nil {
		if initErr != nil && os.Getenv("CI") != "true" {
			t.Skipf("%v; skipping", err)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() { do(w.Destroy) })
	return w
}
