package proto

import (
	"runtime"
	"syscall"
)

// AudioNice is the nice level of the threads that serve the server's
// requests: PulseAudio's own daemon runs at -11 (its nice_level), for the
// same reason. Where the process may not lower its nice level (no
// CAP_SYS_NICE, an RLIMIT_NICE of 0) the threads stay at the process's.
const AudioNice = -11

// AudioThread locks the calling goroutine to its OS thread and raises
// that thread's priority to AudioNice (tandem's: a request served late on
// a loaded machine is silence played). It reports whether it did.
func AudioThread() bool {
	runtime.LockOSThread()
	return syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), AudioNice) == nil
}
