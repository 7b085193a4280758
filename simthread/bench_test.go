package simthread

import "testing"

// BenchmarkTick measures one coupled-loop frame that runs exactly one tick
// with one input event: drain, step (a trivial sim), publish, stats. It is
// the engine's own overhead per tick, whatever the world costs.
func BenchmarkTick(b *testing.B) {
	sim := &hashSim{}
	r, _ := New(sim, Config{Hz: 60, Clock: NewFakeClock(0)})
	k := int64(0)
	r.RunDue(0)
	b.ReportAllocs()
	for b.Loop() {
		k++
		f := k * 1_000_000_000 / 60
		r.Push(Event{Time: f - 1, Kind: EventButton, Buttons: 1, Down: f&1 == 0})
		if r.RunDue(f) != 1 {
			b.Fatal("expected one tick per frame")
		}
	}
}
