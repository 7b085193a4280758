//go:build unix

package app

import (
	"runtime"
	"syscall"

	"github.com/tandem-engine/tandem/bench"
)

// maxRSSMB returns the process's peak resident set, in MB, as getrusage
// (and /usr/bin/time's %M) reports it; not measured (NaN)
// when getrusage fails.
func maxRSSMB() bench.Num {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return bench.NaN
	}
	kib := float64(ru.Maxrss) // KiB on Linux and the BSDs
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		kib /= 1024 // bytes there
	}
	return bench.Num(Round(kib/1024, 1))
}
