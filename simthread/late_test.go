package simthread

import (
	"context"
	"math"
	"testing"
)

func TestLateInput(t *testing.T) {
	// An event whose tick already ran is applied at the next tick, and
	// counted; one whose tick is still to come is not.
	log := NewLog(100, 10)
	r, err := New(&hashSim{}, Config{Hz: 100, Clock: NewFakeClock(0), Log: log})
	if err != nil {
		t.Fatal(err)
	}
	r.RunDue(0)                                                                // the schedule starts: tick 0 is due at once
	r.RunDue(30_000_000)                                                       // ticks 1-3, due at 10, 20, 30 ms
	r.Push(Event{Time: 25_000_000, Kind: EventButton, Buttons: 1, Down: true}) // tick 3's, which ran
	r.Push(Event{Time: 31_000_000, Kind: EventButton, Buttons: 2, Down: true}) // tick 4's
	r.RunDue(40_000_000)
	if got := r.Stats().InputLate; got != 1 {
		t.Fatalf("InputLate = %d, want 1", got)
	}
	in, _ := log.Inputs()
	if len(in) != 2 || in[0].Tick != 4 || in[1].Tick != 4 {
		t.Fatalf("applied at %+v, want both at tick 4", in)
	}
}

func TestLateInputRace(t *testing.T) {
	// The race of live play, reproduced: the decoupled sim thread runs
	// ahead, and each event is pushed only after the clock has passed its
	// stamp. Every event the loop applied after its tick had run is
	// counted, and no other.
	clk := NewFakeClock(0)
	log := NewLog(1000, 1000)
	r, err := New(&hashSim{}, Config{Hz: 100, Clock: clk, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	var stamps []int64
	for f := int64(0); f <= 500_000_000; f += 7_000_000 {
		clk.Set(f)
		clk.BlockUntilWaiting() // the sim thread has run every tick due by f
		stamp := f - 3_000_000  // the key went down 3 ms before it was pushed
		if stamp < 0 {
			continue
		}
		r.Push(Event{Time: stamp, Kind: EventButton, Buttons: 1, Down: len(stamps)%2 == 0})
		stamps = append(stamps, stamp)
	}
	clk.Set(600_000_000)
	clk.BlockUntilWaiting()
	cancel()
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	in, _ := log.Inputs()
	if len(in) != len(stamps) {
		t.Fatalf("%d events applied, %d pushed", len(in), len(stamps))
	}
	sched := NewSchedule(100, 0)
	var late uint64
	for _, e := range in {
		// The tick the stamp belongs to: the first due at or after it.
		want := uint64((e.Stamp + 9_999_999) / 10_000_000)
		if sched.DueAt(want) < e.Stamp || (want > 0 && sched.DueAt(want-1) >= e.Stamp) {
			t.Fatalf("bad reference tick %d for stamp %d", want, e.Stamp)
		}
		switch {
		case e.Tick == want:
		case e.Tick > want:
			late++
		default:
			t.Fatalf("event stamped %d applied at tick %d, before its tick %d", e.Stamp, e.Tick, want)
		}
	}
	if late == 0 {
		t.Fatal("the race never happened: the harness pushed every event in time")
	}
	if got := r.Stats().InputLate; got != late {
		t.Fatalf("InputLate = %d, but %d events landed after their tick", got, late)
	}
}

func TestPushRefusesBadEvents(t *testing.T) {
	// A time scale outside the schedule's range, or an unknown kind, is
	// refused by Push on the caller's thread: the sim thread never sees it
	// (SetScale would panic there) and keeps running.
	r, err := New(&hashSim{}, Config{Hz: 100, Clock: NewFakeClock(0)})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []Event{
		{Time: 1, Kind: EventScale, Scale: Ratio{0, 1}},
		{Time: 1, Kind: EventScale, Scale: Ratio{1, 65}},
		{Time: 1, Kind: EventScale, Scale: Ratio{-2, 1}},
		{Time: 1, Kind: 0},
		{Time: 1, Kind: EventAxis + 1},
	} {
		if r.Push(e) {
			t.Errorf("Push(%+v) queued a bad event", e)
		}
	}
	if !r.Push(Event{Time: 1, Kind: EventScale, Scale: Ratio{1, 64}}) {
		t.Error("Push refused a valid scale")
	}
	r.RunDue(0)
	r.RunDue(50_000_000)
	st := r.Stats()
	if st.InputBad != 5 || st.Ticks == 0 || st.Chosen != (Ratio{1, 64}) {
		t.Fatalf("stats %+v: want 5 refused, ticks run, the valid scale applied", st)
	}
}

func TestPointerAndAxes(t *testing.T) {
	// The pointer and the axes are state, not edges: a tick sees where
	// they were at the end of its window, from the tick their stamp
	// belongs to on. Push refuses a pointer at NaN and an axis out of
	// range, on the caller's thread.
	var seen []TickInput
	r, err := New(&recordSim{in: &seen}, Config{Hz: 100, Clock: NewFakeClock(0)})
	if err != nil {
		t.Fatal(err)
	}
	r.RunDue(0)
	r.Push(Event{Time: 5_000_000, Kind: EventPointer, X: 10, Y: 20})
	r.Push(Event{Time: 6_000_000, Kind: EventPointer, X: 11, Y: 21})
	r.Push(Event{Time: 15_000_000, Kind: EventAxis, Axis: 2, X: -0.5})
	for _, bad := range []Event{
		{Kind: EventPointer, X: float32(math.NaN())},
		{Kind: EventAxis, Axis: NumAxes, X: 0.5},
		{Kind: EventAxis, Axis: 0, X: 1.5},
		{Kind: EventKind(99)},
	} {
		if r.Push(bad) {
			t.Errorf("Push accepted %+v", bad)
		}
	}
	r.RunDue(30_000_000)
	if got := r.Stats().InputBad; got != 4 {
		t.Errorf("InputBad = %d, want 4", got)
	}
	want := []TickInput{
		{},
		{PointerX: 11, PointerY: 21, HasPointer: true},
		{PointerX: 11, PointerY: 21, HasPointer: true, Axes: [NumAxes]float32{2: -0.5}},
		{PointerX: 11, PointerY: 21, HasPointer: true, Axes: [NumAxes]float32{2: -0.5}},
	}
	if len(seen) != len(want) {
		t.Fatalf("%d ticks, want %d: %+v", len(seen), len(want), seen)
	}
	for i := range want {
		if seen[i] != want[i] {
			t.Errorf("tick %d saw %+v, want %+v", i, seen[i], want[i])
		}
	}
}
