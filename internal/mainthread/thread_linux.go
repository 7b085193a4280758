package mainthread

import "golang.org/x/sys/unix"

// isMainThread compares the thread id with the process id, which on Linux
// is the main thread's id.
func isMainThread() bool { return unix.Gettid() == unix.Getpid() }
