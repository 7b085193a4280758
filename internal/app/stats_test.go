package app

import (
	"math"
	"runtime"
	"testing"
)

// TestGCCyclesMeasured checks that gc_cycles_measured counts the cycles
// after the warm-up only, where gc_cycles counts the process's, and is
// not measured (NaN, null in the JSON) for a run that ended within it.
func TestGCCyclesMeasured(t *testing.T) {
	s := newFrameStats(0, 2e9)
	runtime.GC() // within the warm-up: the process's count only
	s.readGC()
	if v := s.gcCyclesMeasured(); !math.IsNaN(v) {
		t.Errorf("within the warm-up: %v cycles, want NaN (not measured)", v)
	}
	s.frame(3e9, 0) // the first frame past the warm-up
	runtime.GC()
	runtime.GC()
	s.readGC()
	v := s.gcCyclesMeasured()
	if v < 2 { // at least: the runtime may run one of its own meanwhile
		t.Errorf("two cycles after the warm-up: measured %v, want at least 2", v)
	}
	if float64(s.gcCycles) < v+1 {
		t.Errorf("the process's count %d: want at least the measured %v and the one in the warm-up", s.gcCycles, v)
	}
}
