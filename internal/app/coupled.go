//go:build cgo

package app

import (
	"context"
	"github.com/tandem-engine/tandem/snapshot"
	"runtime/pprof"
)

// coupled is the classic single-thread loop: each frame polls input, runs
// the ticks due on the main thread, then draws what they reached. It is
// the baseline the bench compares the other loops against.
type coupled struct{ onMain }

func (d *coupled) start(context.Context) {}

// prepare polls input and runs the ticks due at the frame's start. The
// ticks carry the sim's profiler label, as they would on a thread of
// their own, so that a profile splits the sim's time from the render's
// in this loop too (setting a goroutine's labels allocates nothing).
func (d *coupled) prepare() (int64, bool) {
	s := d.s
	s.input()
	pprof.SetGoroutineLabels(s.labels.sim)
	s.runner.RunDue(snapshot.Now())
	pprof.SetGoroutineLabels(s.labels.render)
	return 0, false
}

func (d *coupled) aims() bool      { return false }
func (d *coupled) simThread() bool { return false }
