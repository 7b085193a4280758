//go:build cgo

package app

import (
	"context"
	"time"

	"github.com/tandem-engine/tandem/internal/pacing"
)

// decoupled runs the sim free on a thread of its own, on its fixed
// schedule (simthread's Runner.Start); the main thread polls input and
// draws each frame from the two newest snapshots, at a moment the pacing
// chooses. The threaded loop (threaded.go) runs the sim the same way and
// draws on a thread of its own.
type decoupled struct{ onMain }

func (d *decoupled) pace(c *pacing.Config)     { paceFree(c) }
func (d *decoupled) start(ctx context.Context) { d.s.runner.Start(ctx) }

func (d *decoupled) prepare() (int64, bool) {
	d.s.input()
	return 0, false
}

func (d *decoupled) waitSim(grace time.Duration) (bool, error) {
	return waitSimThread(d.s.runner, grace)
}
