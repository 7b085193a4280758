package simthread

import (
	"context"
	"math"
	"runtime"
	"testing"
)

func TestOverloadSlowMotion(t *testing.T) {
	// Every step costs two ticks of (fake) time. The sim cannot keep up:
	// it must run in slow motion at about half speed, say so, keep running
	// (no freeze, no spiral) and hold its memory steady.
	clk := NewAutoClock(0)
	sim := &hashSim{}
	ctx, cancel := context.WithCancel(context.Background())
	const ticks = 3000
	var heapAt1000 uint64
	sim.onStep = func(s *hashSim) {
		clk.Advance(2 * tick60)
		if s.ticks == 1000 {
			heapAt1000 = heapInUse()
		}
		if s.ticks == ticks {
			cancel()
		}
	}
	r, err := New(sim, Config{Hz: 60, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	r.Start(ctx)
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	st := r.Stats()
	if sim.ticks != ticks {
		t.Fatalf("ran %d ticks, want %d: the loop froze", sim.ticks, ticks)
	}
	if math.Abs(st.Scale-0.5) > 0.02 {
		t.Fatalf("reported time scale %.3f, want 0.5", st.Scale)
	}
	prev, curr, _ := r.Ring().Acquire()
	if math.Abs(curr.TimeScale-0.5) > 0.02 || prev.Tick+1 != curr.Tick {
		t.Fatalf("snapshot says scale %.3f at ticks %d,%d", curr.TimeScale, prev.Tick, curr.Tick)
	}
	// Each snapshot says when its successor is really due: the slow
	// schedule, a tick's cost (two ticks of time) apart, which the
	// renderer blends over as smooth slow motion.
	if prev.Next != curr.Time || curr.Time-prev.Time != 2*tick60 || curr.Next-curr.Time != 2*tick60 {
		t.Fatalf("overloaded schedule: prev due %d next %d, curr due %d next %d; want each Next the successor's due time, %d ns apart",
			prev.Time, prev.Next, curr.Time, curr.Next, 2*tick60)
	}
	if st.Clamps == 0 || st.Dropped <= 0 {
		t.Fatalf("the lag clamp never bit: %+v", st)
	}
	// Behind by at most the clamp plus one wake's worth of catch-up.
	wall := clk.Now()
	if lag := wall - int64(sim.ticks)*tick60*2; lag > 0 && st.LateMax > DefaultMaxLag+int64(DefaultMaxCatchUp+1)*2*tick60 {
		t.Fatalf("fell %d ns behind, more than the clamp allows", st.LateMax)
	}
	if grow := int64(heapInUse()) - int64(heapAt1000); grow > 1<<20 {
		t.Fatalf("heap grew %d bytes over 2000 overloaded ticks", grow)
	}
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

func TestHitchClampDropsTime(t *testing.T) {
	// With the default 250 ms clamp, a 400 ms frame hitch in the coupled
	// loop (tick 1 due at 16.7 ms, so 383.3 ms late) drops 133.3 ms,
	// reports it, and the loop
	// catches up the rest at MaxCatchUp ticks a frame.
	sim := &hashSim{}
	r, _ := New(sim, Config{Hz: 60, Clock: NewFakeClock(0)})
	r.RunDue(0)
	r.RunDue(400_000_000)
	st := r.Stats()
	if st.Clamps != 1 || st.Dropped != 400_000_000-tick60-250_000_000 {
		t.Fatalf("clamp: %+v", st)
	}
	if st.Ticks != 1+DefaultMaxCatchUp || st.Capped != 1 {
		t.Fatalf("ticks %d capped %d, want %d and 1", st.Ticks, st.Capped, 1+DefaultMaxCatchUp)
	}
	f := int64(400_000_000)
	for range 100 {
		f += tick60
		r.RunDue(f)
	}
	// Caught up: the next tick is due within one tick of now.
	if due := r.sched.Due(); due <= f-tick60 || due > f+tick60 {
		t.Fatalf("next tick due at %d, frame at %d", due, f)
	}
}

func TestPauseStepScale(t *testing.T) {
	var seen []TickInput
	r, _ := New(&recordSim{in: &seen}, Config{Hz: 60, Clock: NewFakeClock(0)})
	r.RunDue(0)
	r.Push(Event{Time: 1, Kind: EventPause})
	for f := int64(1); f < 1e9; f += tick60 {
		r.RunDue(f)
	}
	if len(seen) != 1 || !r.Stats().Paused || r.Stats().Scale != 0 {
		t.Fatalf("paused sim ran %d ticks, stats %+v", len(seen), r.Stats())
	}
	_, curr, _ := r.Ring().Acquire()
	if !curr.Paused || curr.Next != curr.Time {
		t.Fatalf("pause snapshot %+v", curr)
	}
	r.Push(Event{Time: 1e9, Kind: EventStep})
	r.Push(Event{Time: 1e9, Kind: EventStep})
	r.RunDue(1e9)
	r.RunDue(1e9 + 5)
	if len(seen) != 3 {
		t.Fatalf("two single steps ran %d ticks", len(seen)-1)
	}
	r.Push(Event{Time: 2e9, Kind: EventResume})
	r.Push(Event{Time: 2e9, Kind: EventScale, Scale: Ratio{1, 4}})
	for f := int64(2e9); f <= 3e9; f += tick60 {
		r.RunDue(f)
	}
	// One second at quarter speed: 15 ticks (of 60 Hz), give or take one.
	if n := len(seen) - 3; n < 14 || n > 16 {
		t.Fatalf("ran %d ticks in 1 s at 1/4 speed, want 15", n)
	}
	if c := r.Stats().Chosen; c != (Ratio{1, 4}) {
		t.Fatalf("chosen scale %v", c)
	}
}

func TestAdvanceAllocs(t *testing.T) {
	sim := &hashSim{}
	r, _ := New(sim, Config{Hz: 60, Clock: NewFakeClock(0)})
	f := int64(0)
	for range 10 {
		f += tick60
		r.RunDue(f)
	}
	allocs := testing.AllocsPerRun(1000, func() {
		f += tick60
		r.Push(Event{Time: f - 1000, Kind: EventButton, Buttons: 1, Down: f%2 == 0})
		r.RunDue(f)
	})
	if allocs != 0 {
		t.Fatalf("a tick with input and publish allocates %.1f times", allocs)
	}
}
