//go:build !unix

package gl

import "time"

// cpuTime has no getrusage to read here: the benchmarks report no CPU
// time.
func cpuTime() cpuStat { return cpuStat{} }

type cpuStat struct {
	user, sys time.Duration
	faults    int64
	ok        bool
}
