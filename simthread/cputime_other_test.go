//go:build !unix

package simthread

// processCPU is unix's getrusage; elsewhere there is none to read.
func processCPU() (int64, bool) { return 0, false }
