//go:build !unix

package threadcpu

// Process is getrusage's, which only unix has: it reads nothing here.
func Process() (int64, bool) { return 0, false }
