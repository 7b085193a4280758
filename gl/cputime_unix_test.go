//go:build unix

package gl

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used, user and system, all
// threads (llvmpipe's rasterizer threads included).
func cpuTime() cpuStat {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return cpuStat{}
	}
	return cpuStat{time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano()), ru.Minflt, true}
}

type cpuStat struct {
	user, sys time.Duration
	faults    int64 // minor page faults
	ok        bool  // read from getrusage
}
