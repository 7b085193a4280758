package window

import "golang.org/x/sys/unix"

// onMainThread reports whether the caller runs on the main thread: on
// Linux the main thread's id is the process id.
func onMainThread() bool { return unix.Gettid() == unix.Getpid() }
