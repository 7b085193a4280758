//go:build unix

package simthread

import "golang.org/x/sys/unix"

// processCPU returns the CPU time the process has used, user and system,
// all threads (the runtime's that fire timers and hand the sim's thread
// its P included), in ns; false where it cannot be read.
func processCPU() (int64, bool) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), true
}
