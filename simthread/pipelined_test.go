package simthread

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// startPipelined returns a pipelined runner on a manual fake clock, and
// the function that stops it.
func startPipelined(t *testing.T, sim Sim, log *Log) (*Runner, *FakeClock, func()) {
	t.Helper()
	clk := NewFakeClock(0)
	r, err := New(sim, Config{Hz: 60, Clock: clk, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.StartPipelined(ctx)
	return r, clk, func() {
		cancel()
		if err := r.Wait(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPipelinedMeetHand(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	caller := int64(unix.Gettid())
	var tid atomic.Int64
	sim := &hashSim{onStep: func(*hashSim) { tid.Store(int64(unix.Gettid())) }}
	r, _, stop := startPipelined(t, sim, nil)
	defer stop()

	if upTo, ran := r.Meet(); upTo != 0 || ran != 0 {
		t.Fatalf("Meet before any Hand = %d, %d; want 0, 0", upTo, ran)
	}
	// The first hand-over starts the schedule: tick 0 is due at once.
	// Ticks at 60 Hz are due at k*1e9/60 rounded up: by 80 ms, ticks 1
	// to 4 follow.
	r.Hand(0)
	if upTo, ran := r.Meet(); upTo != 0 || ran != 1 {
		t.Fatalf("after Hand(0): Meet = %d, %d; want 0, 1", upTo, ran)
	}
	const t1 = 80_000_000
	r.Hand(t1)
	upTo, ran := r.Meet()
	sched := NewSchedule(60, 0)
	want := 0
	for sched.Ready(t1) {
		sched.Advance()
		want++
	}
	if upTo != t1 || ran+1 != want || want != 5 {
		t.Fatalf("after Hand(80 ms): Meet = %d, %d; want %d, %d", upTo, ran, t1, want-1)
	}
	_, curr, fresh := r.Ring().Acquire()
	if !fresh || curr.Tick != uint64(want) || curr.SimTime != sched.SimTime(uint64(want)) {
		t.Fatalf("newest snapshot: tick %d sim time %d; want %d %d", curr.Tick, curr.SimTime, want, sched.SimTime(uint64(want)))
	}
	if id := tid.Load(); id == 0 || id == caller {
		t.Fatalf("ticks ran on thread %d, the caller is %d: want a thread of its own", id, caller)
	}
	// Handing the same time again runs nothing more.
	r.Hand(t1)
	if _, ran := r.Meet(); ran != 0 {
		t.Fatalf("a second Hand of the same time ran %d ticks", ran)
	}
	// By 200 ms ticks 5 to 12 are due: the catch-up cap (5) runs five in
	// this frame and the other three in the next.
	r.Hand(200_000_000)
	if _, ran := r.Meet(); ran != DefaultMaxCatchUp {
		t.Fatalf("8 ticks due: ran %d, want the cap %d", ran, DefaultMaxCatchUp)
	}
	r.Hand(200_000_000)
	if _, ran := r.Meet(); ran != 3 {
		t.Fatalf("the rest: ran %d, want 3", ran)
	}
}

func TestPipelinedHandTwicePanics(t *testing.T) {
	r, _, stop := startPipelined(t, &hashSim{}, nil)
	defer stop()
	r.Hand(0)
	defer func() {
		if recover() == nil {
			t.Fatal("Hand twice without Meet did not panic")
		}
		r.Meet()
	}()
	r.Hand(1)
}

func TestPipelinedAllocs(t *testing.T) {
	// A frame's meeting (Meet, Hand) and the ticks it runs allocate
	// nothing once the ring's buffers are grown: count every malloc.
	r, _, stop := startPipelined(t, &hashSim{}, NewLog(64, 64))
	defer stop()
	now := int64(0)
	frame := func() {
		r.Meet()
		r.Ring().Acquire()
		now += 16_666_667
		r.Hand(now)
	}
	for range 50 {
		frame()
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 2000 {
		frame()
	}
	r.Meet()
	runtime.ReadMemStats(&after)
	// The runtime may allocate a sudog when a blocking channel operation
	// finds its P's cache empty; allow a handful in 2000 frames, not one a
	// frame.
	if n := after.Mallocs - before.Mallocs; n > 10 {
		t.Fatalf("%d allocations in 2000 pipelined frames", n)
	}
}

func TestLog(t *testing.T) {
	// Every tick is logged with its due time and a start no earlier; every
	// event with the tick that saw it: an event stamped inside tick k's
	// window (after tick k-1 was due, at or before tick k's due time) is
	// applied before tick k runs.
	log := NewLog(1000, 100)
	clk := NewFakeClock(0)
	r, err := New(&hashSim{}, Config{Hz: 100, Clock: clk, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	r.Push(Event{Time: 25_000_000, Kind: EventButton, Buttons: 1, Down: true}) // tick 3 is due at 30 ms
	r.Push(Event{Time: 30_000_000, Kind: EventButton, Buttons: 1})             // exactly at tick 3's due time
	r.Push(Event{Time: 30_000_001, Kind: EventButton, Buttons: 2, Down: true}) // tick 4's window
	for now := int64(0); now <= 100_000_000; now += 5_000_000 {
		clk.Set(now)
		r.Frame(now)
	}
	ticks, lost := log.Ticks()
	if lost != 0 || len(ticks) != 11 {
		t.Fatalf("%d ticks logged, %d lost; want 11, 0", len(ticks), lost)
	}
	for i, tr := range ticks {
		if tr.Tick != uint64(i) || tr.Due != int64(i)*10_000_000 || tr.Start < tr.Due || tr.End < tr.Start {
			t.Fatalf("tick record %d: %+v", i, tr)
		}
	}
	inputs, _ := log.Inputs()
	want := []InputRecord{
		{Stamp: 25_000_000, Tick: 3, Kind: EventButton},
		{Stamp: 30_000_000, Tick: 3, Kind: EventButton},
		{Stamp: 30_000_001, Tick: 4, Kind: EventButton},
	}
	if len(inputs) != len(want) {
		t.Fatalf("inputs %+v, want %+v", inputs, want)
	}
	for i := range want {
		if inputs[i] != want[i] {
			t.Fatalf("input %d: %+v, want %+v", i, inputs[i], want[i])
		}
	}
}

func TestLogWraps(t *testing.T) {
	l := NewLog(3, 2)
	for k := range uint64(10) {
		l.tick(TickRecord{Tick: k})
		l.input(InputRecord{Tick: k})
	}
	ticks, lost := l.Ticks()
	if lost != 7 || len(ticks) != 3 || ticks[0].Tick != 7 || ticks[2].Tick != 9 {
		t.Fatalf("ticks %+v lost %d: want the newest three, oldest first, 7 lost", ticks, lost)
	}
	inputs, lost := l.Inputs()
	if lost != 8 || len(inputs) != 2 || inputs[0].Tick != 8 {
		t.Fatalf("inputs %+v lost %d", inputs, lost)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for k := range uint64(10_000) {
		l.tick(TickRecord{Tick: k})
		l.input(InputRecord{Tick: k})
	}
	runtime.ReadMemStats(&after)
	if n := after.Mallocs - before.Mallocs; n != 0 {
		t.Fatalf("logging allocated %d times", n)
	}
}
