//go:build unix

package app

import (
	"runtime"
	"syscall"
)

// maxRSSMB returns the process's peak resident set, in MB, as getrusage
// (and /usr/bin/time's %M) reports it; -1 when getrusage fails.
func maxRSSMB() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	kib := float64(ru.Maxrss) // KiB on Linux and the BSDs
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		kib /= 1024 // bytes there
	}
	return Round(kib/1024, 1)
}
