// Package mallocs counts heap allocations for the tests that claim zero:
// the whole process's count (runtime.MemStats.Mallocs), not
// testing.AllocsPerRun's average, which rounds a stray allocation down to
// nothing.
//
// Threads: any goroutine. The count is the whole process's, so another
// goroutine's allocations show too; Fewest takes the quietest of several
// tries.
package mallocs

import (
	"runtime"
	"runtime/metrics"
)

// Count returns how many heap allocations the process made while f ran,
// tiny ones included (runtime/metrics counts only their blocks).
func Count(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs
}

// Bytes returns how many bytes the process allocated on the heap while f
// ran, from runtime/metrics, which unlike runtime.ReadMemStats does not
// stop the world (the fuzzers call it for every input).
func Bytes(f func()) uint64 {
	s := [1]metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s[:])
	before := s[0].Value.Uint64()
	f()
	metrics.Read(s[:])
	return s[0].Value.Uint64() - before
}

// Fewest returns the fewest allocations of tries runs of f.
func Fewest(tries int, f func()) uint64 {
	best := ^uint64(0)
	for range max(tries, 1) {
		best = min(best, Count(f))
	}
	return best
}
