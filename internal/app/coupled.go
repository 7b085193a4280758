//go:build cgo

package app

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"github.com/tandem-engine/tandem/internal/pacing"
	"github.com/tandem-engine/tandem/snapshot"
)

// coupled is the classic single-thread loop: each frame polls input, runs
// the ticks due on the main thread (simthread's Runner.RunDue), then draws
// what they reached. It is the baseline the bench compares the other
// loops against.
type coupled struct{ onMain }

func (d *coupled) pace(c *pacing.Config) { paceLockstep(c) }

// start starts nothing: the frames run the ticks.
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

// waitSim has no thread to wait for: the sim runs on the main thread,
// which is stuck inside a tick only when a watchdog on another thread
// asks (lastWords).
func (d *coupled) waitSim(time.Duration) (bool, error) {
	if !d.s.hooked.busy.Load() {
		return false, nil
	}
	fmt.Fprintf(os.Stderr, "tandem: the sim is stuck inside tick %d, on the main thread: the summary and the recording end without it\n", d.s.runner.Stats().Ticks)
	return true, nil
}
