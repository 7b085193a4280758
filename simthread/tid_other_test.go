//go:build !linux && !windows

package simthread

// threadID has no portable source elsewhere (macOS's pthread_threadid_np
// needs cgo, which these tests do without): it returns 0, and the tests
// that compare threads skip.
func threadID() int64 { return 0 }
