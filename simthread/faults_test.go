package simthread

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/snapshot"
)

// The faults of the README's table, on a fake clock and on real threads.

// checkLog checks a run's tick records for the invariants no fault may
// break: ticks in order, due times strictly increasing, and no negative
// duration (a tick ends after it starts).
func checkLog(t *testing.T, log *Log) {
	t.Helper()
	recs, _ := log.Ticks()
	for i, r := range recs {
		if r.End < r.Start {
			t.Fatalf("tick %d ended %d ns before it started", r.Tick, r.Start-r.End)
		}
		if i > 0 && (r.Tick != recs[i-1].Tick+1 || r.Due <= recs[i-1].Due) {
			t.Fatalf("tick %d due %d after tick %d due %d", r.Tick, r.Due, recs[i-1].Tick, recs[i-1].Due)
		}
	}
}

func TestClockJumpsAnHour(t *testing.T) {
	// The monotonic clock leaps an hour (a suspend, a broken VM clock):
	// the clamp drops all but 250 ms of it, the loop catches up at most
	// that much in bursts of MaxCatchUp, and then runs on schedule.
	clk := NewFakeClock(0)
	log := NewLog(1000, 1)
	sim := &hashSim{}
	r, err := New(sim, Config{Hz: 60, Clock: clk, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	for f := int64(0); f <= 1e9; f += tick60 {
		clk.Set(f)
		clk.BlockUntilWaiting()
	}
	before := r.Stats()
	jump := int64(1e9) + int64(time.Hour)
	clk.Set(jump)
	clk.BlockUntilWaiting()
	burst := r.Stats().Ticks - before.Ticks
	// 250 ms of ticks at most, plus the one due at the jump.
	if burst > 250_000_000/tick60+1 {
		t.Errorf("ran %d ticks after the jump: a catch-up storm", burst)
	}
	for f := jump; f <= jump+1e9; f += tick60 {
		clk.Set(f)
		clk.BlockUntilWaiting()
	}
	cancel()
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	st := r.Stats()
	if st.Clamps == 0 || st.Dropped < int64(time.Hour)-250_000_000 || st.Dropped > int64(time.Hour) {
		t.Errorf("dropped %v in %d clamps, want nearly the hour", time.Duration(st.Dropped), st.Clamps)
	}
	// The second after the jump runs at 60 Hz again: about 60 ticks plus
	// the burst.
	if after := st.Ticks - before.Ticks - burst; after < 58 || after > 62 {
		t.Errorf("%d ticks in the second after the jump, want 60", after)
	}
	checkLog(t, log)
}

func TestClockStuck(t *testing.T) {
	// The clock returns the same reading for a second, then moves on: no
	// tick runs twice for one due time, nothing goes negative, and the
	// second it lost is clamped like any stall.
	clk := NewFakeClock(0)
	log := NewLog(1000, 1)
	r, err := New(&hashSim{}, Config{Hz: 60, Clock: clk, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	const stuck = 500_000_000
	r.RunDue(0)
	for f := int64(tick60); f <= stuck; f += tick60 {
		r.RunDue(f)
	}
	r.RunDue(stuck) // the tick due at exactly that time
	k := r.Stats().Ticks
	for range 600 { // a second of 600 Hz frames, all reading the same time
		if n := r.RunDue(stuck); n != 0 {
			t.Fatalf("a stuck clock ran %d more ticks", n)
		}
	}
	if r.Stats().Ticks != k {
		t.Fatal("ticks ran while the clock was stuck")
	}
	after := int64(stuck) + 1e9
	ran := 0
	for f := after; f < after+300_000_000; f += tick60 / 10 {
		ran += r.RunDue(f)
	}
	// 250 ms caught up (15 ticks) and 300 ms on schedule (18).
	if ran > 15+18+1 {
		t.Errorf("%d ticks after the clock moved on: a catch-up storm", ran)
	}
	if st := r.Stats(); st.Clamps == 0 || st.Dropped <= 0 {
		t.Errorf("the stall was not clamped: %+v", st)
	}
	checkLog(t, log)
}

func TestRenderStallRealThread(t *testing.T) {
	// The render thread stalls 500 ms. The sim thread does not wait for
	// it: it keeps ticking, the ring does not fill (it is fixed), and the
	// first frame after the stall shows the newest state.
	sim := &hashSim{}
	r, err := New(sim, Config{Hz: 120})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.Start(ctx)
	var h [snapshot.History]*snapshot.Snapshot
	for range 20 {
		r.Ring().Acquire()
		time.Sleep(5 * time.Millisecond)
	}
	_, curr, _ := r.Ring().Acquire()
	heap := heapInUse()
	stallFrom := curr.Tick
	time.Sleep(500 * time.Millisecond) // the stall
	_, curr, fresh := r.Ring().Acquire()
	st := r.Stats()
	if !fresh || curr.Tick < stallFrom+10 {
		t.Fatalf("after the stall the frame shows tick %d (before: %d): the sim waited for the renderer", curr.Tick, stallFrom)
	}
	// The newest: at most the tick published between Stats and Acquire.
	if curr.Tick+1 < st.Ticks {
		t.Fatalf("the frame after the stall shows tick %d, the newest is %d", curr.Tick, st.Ticks)
	}
	h = r.Ring().History()
	for i := 1; i < len(h); i++ {
		if h[i] != nil && h[i-1] != nil && h[i].Tick <= h[i-1].Tick {
			t.Fatalf("history out of order: %d then %d", h[i-1].Tick, h[i].Tick)
		}
	}
	if grow := int64(heapInUse()) - int64(heap); grow > 1<<20 {
		t.Fatalf("heap grew %d bytes across the stall", grow)
	}
}

func TestOverloadRealThread(t *testing.T) {
	// Every tick spins twice its budget on the real clock for a second:
	// the sim runs in reported slow motion and the clamp drops time,
	// while the render side keeps reading without waiting.
	sim := &hashSim{}
	sim.onStep = func(*hashSim) {
		end := snapshot.Now() + 2*tick60
		for snapshot.Now() < end {
		}
	}
	r, err := New(sim, Config{Hz: 60})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	frames := 0
	// The reader spins (yielding) rather than sleeping a millisecond a
	// frame: a sleep's granularity (about 15 ms under Wine) is not the sim's.
	for end := snapshot.Now() + 1e9; snapshot.Now() < end; frames++ {
		r.Ring().Acquire()
		runtime.Gosched()
	}
	cancel()
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	st := r.Stats()
	if !(st.Scale > 0 && st.Scale < 0.75) || st.Clamps == 0 {
		t.Fatalf("scale %.2f, clamps %d: want reported slow motion", st.Scale, st.Clamps)
	}
	// The render side never waited on a 33 ms tick: far more frames than
	// the 30 a waiting reader would get.
	if frames < 100 {
		t.Fatalf("only %d frames in a second: the reader waited for the sim", frames)
	}
}
