package simthread_test

import (
	"testing"

	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/simthread/simtest"
)

// detConfig leaves the lag clamp out of the way: a 300 ms hitch exceeds the
// default 250 ms clamp, and the clamp exists precisely to drop time, which
// changes which tick an event lands on (TestHitchClampDropsTime covers it).
// Everything else is default.
var detConfig = simthread.Config{Hz: 60, MaxLag: 10_000_000_000}

func TestDeterminismAcrossLoopsAndFrameRates(t *testing.T) {
	const end = 4_000_000_000 // 4 s
	events := simtest.Script(7, end, 5)
	want := &simtest.HashSim{}
	wantTicks, err := simtest.Coupled(want, detConfig, events, simtest.FrameTimes(1, 60, end, 0))
	if err != nil {
		t.Fatal(err)
	}
	if wantTicks < 100 {
		t.Fatalf("only %d ticks", wantTicks)
	}
	for _, hz := range []int{30, 60, 144, 240} {
		for seed := uint64(1); seed <= 3; seed++ {
			frames := simtest.FrameTimes(seed, hz, end, 300_000_000)
			for _, loop := range []struct {
				name string
				run  func(simthread.Sim, simthread.Config, []simthread.Event, []int64) (uint64, error)
			}{{"coupled", simtest.Coupled}, {"decoupled", simtest.Decoupled}, {"pipelined", simtest.Pipelined}} {
				got := &simtest.HashSim{}
				k, err := loop.run(got, detConfig, events, frames)
				if err != nil {
					t.Fatal(err)
				}
				if k != wantTicks || got.Hash() != want.Hash() {
					t.Errorf("%s %d Hz seed %d: %d ticks hash %x, want %d %x", loop.name, hz, seed, k, got.Hash(), wantTicks, want.Hash())
				}
			}
		}
	}
}
