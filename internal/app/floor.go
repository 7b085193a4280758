package app

import (
	"math"
	"time"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/internal/hoststat"
)

// -host-floor: the machine's own unevenness, timed after the run.

// floorReps is how many times -host-floor runs each kind of its work, at
// most; floorTime bounds the time each kind takes (a heavy scene's frames
// are long), at least floorMinReps runs whatever it costs.
const (
	floorReps    = 120
	floorMinReps = 10
	floorTime    = 3 * time.Second
)

// measureFloor times two kinds of fixed work (hoststat.FloorCPU and
// FloorCache), each as long as the run's median frame work (decision to
// present) and up to floorReps times, on this thread with the sim
// stopped, and records how much consecutive runs of each differ: the
// 99th percentile in ms and the share over 2 ms, to read beside
// anim_err_ms_p99 and frames_anim_err_over_2ms. Nothing without frames;
// stop (a Ctrl-C) ends it at once, and it reports nothing then.
func (s *Summary) measureFloor(stop func() bool) {
	if s.run == nil {
		return
	}
	med := math.NaN()
	if s.work != nil {
		med = *s.work
	} else if fr, _ := s.run.Window(); len(fr) > 0 {
		med = bench.Percentile(bench.FrameWorkMs(fr), 0.5)
	}
	if math.IsNaN(med) {
		return
	}
	d := time.Duration(med * 1e6)
	reps := floorRepsFor(d)
	cpu := hoststat.Floor(hoststat.FloorCPU, d, reps, stop)
	if cpu == nil {
		return
	}
	cache := hoststat.Floor(hoststat.FloorCache, d, reps, stop)
	if cache == nil {
		return
	}
	s.HostFloorWorkMs, s.HostFloorReps = ptr(Round(float64(d)/1e6, 2)), ptr(reps)
	s.HostFloorMsP99, s.HostFloorOver2msPct = floorFigures(cpu)
	s.HostFloorCacheMsP99, s.HostFloorCacheOver2msPct = floorFigures(cache)
}

// floorRepsFor returns how many runs of each kind -host-floor times for a
// frame work of d: as many as fit in floorTime, from floorMinReps to
// floorReps.
func floorRepsFor(d time.Duration) int {
	return min(floorReps, max(floorMinReps, int(floorTime/max(d, 1))))
}

// floorFigures returns bench.UnevennessFigures of runs (ns), rounded for
// the JSON; nil for fewer than two runs.
func floorFigures(runs []int64) (p99, over2msPct *float64) {
	p, over, ok := bench.UnevennessFigures(runs)
	if !ok {
		return nil, nil
	}
	return ptr(Round(p, 3)), ptr(Round(over, 1))
}

// ptr returns a pointer to a copy of v: a figure an omitempty field holds
// only when it was measured.
func ptr[T any](v T) *T { return &v }
