//go:build cgo

package app

import (
	"fmt"
	"os"
	"time"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/internal/xtest"
	"github.com/tandem-engine/tandem/snapshot"
	"github.com/tandem-engine/tandem/window"
)

// realInput is the bench's real key: F9 pressed and released through the
// platform's injector (the X server's XTest extension; SendInput on
// Windows), from a thread of its own, at random moments
// (not on any frame's grid), each recorded when it was made. The window
// gets it as it gets any key, and the loop stamps it as it stamps any
// key; the figures then start at the press, as a camera's would.
type realInput struct {
	inj *xtest.Injector
	run *xtest.Runner
}

// The gaps between the real key's edges: uniform, shorter than the
// server's autorepeat delay (660 ms), long enough for a frame of 100 ms
// to show each state.
const (
	realMinGap = 150 * time.Millisecond
	realMaxGap = 450 * time.Millisecond
)

// startRealInput starts pressing the bench's real key, bound in keys to
// the bench's button, at moments drawn from a fresh seed mixed with
// the run's. Where XTest is missing (Wayland, another OS, a server
// without the extension) it says so and leaves the synthetic button on:
// the summary's input_source tells which ran.
func (b *benchLoad) startRealInput(runSeed uint64, keys *bindings) {
	inj, err := xtest.Open("")
	if err == nil {
		var run *xtest.Runner
		// A fresh seed every run: the presses' moments against the tick
		// and frame grids must differ from run to run. With one seed,
		// every run pressed at the same offsets from its start, and the
		// start's phase against the ticks, the same each run within a
		// build, moved the figures by several ms from build to build.
		seed := uint64(snapshot.Now()) ^ runSeed
		if run, err = inj.Start(xtest.Schedule{Key: xtest.F9, Seed: seed, MinGap: realMinGap, MaxGap: realMaxGap}); err == nil {
			keys.keys[window.KeyF9] |= benchButton
			b.real = &realInput{inj: inj, run: run}
			return
		}
		inj.Close()
	}
	fmt.Fprintf(os.Stderr, "tandem: bench: no real key presses (%v): measuring input latency from a synthetic button, stamped when a frame polls\n", err)
}

// stopRealInput stops the real key (released) and returns its presses
// and releases.
func (b *benchLoad) stopRealInput() []bench.Press {
	if b.real == nil {
		return nil
	}
	evs, err := b.real.run.Stop()
	if cerr := b.real.inj.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "tandem: bench: the real key: %v\n", err)
	}
	out := make([]bench.Press, len(evs))
	for i, e := range evs {
		out[i] = bench.Press{At: e.At, Acked: e.Acked, Down: e.Down}
	}
	return out
}

// pressFigures fills the bench's input sections of sum: from the real
// presses when there were some (over the records the rings hold, which a
// bench run's fit in), the input latency and count included, which are
// then the presses', from each press, and not the stream's, from the
// engine's stamps; else it marks them synthetic.
func (b *benchLoad) pressFigures(sum *Summary, run *bench.Records) {
	if !b.bench {
		return
	}
	if b.real == nil {
		sum.InputSource = "synthetic"
		return
	}
	fr, _ := run.Window()
	f := run.Presses(fr, b.presses)
	p := func(part func(bench.PressRow) float64, q float64) bench.Num {
		if len(f.Rows) == 0 {
			return bench.NaN
		}
		return bench.Num(bench.Percentile(f.Column(part), q))
	}
	sum.presses = f.Rows
	sum.InputLatency = bench.InputLatency{Inputs: len(f.Rows),
		InputLatencyMsP50: p(bench.PressRow.Latency, 0.5), InputLatencyMsP99: p(bench.PressRow.Latency, 0.99)}
	sum.Input = bench.Input{InputSource: b.real.inj.Source(), InputUnpaired: f.Unpaired,
		InputStampErrMsP50: p(bench.PressRow.StampErr, 0.5), InputStampErrMsP99: p(bench.PressRow.StampErr, 0.99),
		InputServerMsP99: p(bench.PressRow.Server, 0.99), InputTickMsP50: p(bench.PressRow.WaitTick, 0.5),
		InputShownMsP50: p(bench.PressRow.Shown, 0.5), InputFrameMsP50: p(bench.PressRow.Frame, 0.5)}
}
