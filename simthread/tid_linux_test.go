package simthread

import "golang.org/x/sys/unix"

// threadID returns the calling OS thread's id, for the tests that check
// which thread ran a tick.
func threadID() int64 { return int64(unix.Gettid()) }
