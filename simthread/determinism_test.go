package simthread_test

import (
	"testing"

	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/simthread/simtest"
	"github.com/tandem-engine/tandem/snapshot"
)

// hashSim is a test world whose hash folds in every tick's input, so two
// runs agree only if every event landed on the same tick.
type hashSim struct{ h, ticks uint64 }

func (s *hashSim) Step(in simthread.TickInput) {
	s.ticks++
	s.h ^= uint64(in.Down) | uint64(in.Pressed)<<20 | uint64(in.Released)<<40
	s.h = (s.h ^ s.ticks) * 0x100000001b3
}
func (s *hashSim) Publish(dst *snapshot.Snapshot) { dst.Sprites.Resize(0) }
func (s *hashSim) Hash() uint64                   { return s.h }

// detConfig leaves the lag clamp out of the way: a 300 ms hitch exceeds the
// default 250 ms clamp, and the clamp exists precisely to drop time, which
// changes which tick an event lands on (TestHitchClampDropsTime covers it).
// Everything else is default.
var detConfig = simthread.Config{Hz: 60, MaxLag: 10_000_000_000}

func TestDeterminismAcrossLoopsAndFrameRates(t *testing.T) {
	const end = 4_000_000_000 // 4 s
	events := simtest.Script(7, end, 5)
	want := &hashSim{}
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
				got := &hashSim{}
				k, err := loop.run(got, detConfig, events, frames)
				if err != nil {
					t.Fatal(err)
				}
				if k != wantTicks || got.h != want.h {
					t.Errorf("%s %d Hz seed %d: %d ticks hash %x, want %d %x", loop.name, hz, seed, k, got.h, wantTicks, want.h)
				}
			}
		}
	}
}
