// Package cli is the command line over the loop: the flags (a game's own
// too), run, bench and replay, the JSON summary, profiles, -pprof and a
// private Xvfb. tandem.Main and cmd/tandem use it; tandem.Run does not.
package cli

import (
	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/simthread"
)

// Charts draw a bench's charts: tandem.MainWith's tools (cmd/tandem links
// the plotting for them).
type Charts struct {
	// Run draws one run's charts from its records into dir.
	Run func(dir string, frames []bench.FrameRecord, ticks []simthread.TickRecord, title string) ([]string, error)
	// Sweep draws a -matrix sweep's charts from its results into dir.
	Sweep func(dir string, results []bench.Result) ([]string, error)
}
