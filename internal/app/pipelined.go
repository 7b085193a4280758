//go:build cgo

package app

import (
	"context"
	"time"

	"github.com/tandem-engine/tandem/internal/pacing"
	"github.com/tandem-engine/tandem/snapshot"
)

// pipelined is Bevy's pipelined rendering: while a frame draws, the sim
// thread runs the ticks due by that frame's start, which the next frame
// shows. A frame meets the sim (waits for the ticks it was handed), shows
// the moment they reached, and hands the sim its own start once it has
// taken its snapshots. The sim's side is simthread's
// Runner.StartPipelined, Meet and Hand (simthread/pipelined.go).
type pipelined struct {
	onMain
	showAt int64 // the moment the ticks the frame met reached
}

func (d *pipelined) pace(c *pacing.Config)     { paceLockstep(c) }
func (d *pipelined) start(ctx context.Context) { d.s.runner.StartPipelined(ctx) }

// prepare polls input and meets the sim: it finishes the ticks due by the
// last frame's time, and this frame shows that moment.
func (d *pipelined) prepare() (int64, bool) {
	d.s.input()
	d.showAt, _ = d.s.runner.Meet()
	return d.showAt, true
}

func (d *pipelined) handOver() { d.s.runner.Hand(snapshot.Now()) }

func (d *pipelined) waitSim(grace time.Duration) (bool, error) {
	return waitSimThread(d.s.runner, grace)
}
