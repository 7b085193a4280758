package simthread

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/tandem-engine/tandem/snapshot"
)

// hashSim is a test world whose hash folds in every tick's input, so two
// runs agree only if every event landed on the same tick.
type hashSim struct {
	h      uint64
	ticks  uint64
	x      float32
	onStep func(s *hashSim)
}

func (s *hashSim) Step(in TickInput) {
	s.ticks++
	s.h ^= uint64(in.Down) | uint64(in.Pressed)<<20 | uint64(in.Released)<<40
	s.h *= 0x100000001b3
	s.h ^= s.ticks
	s.x++
	if s.onStep != nil {
		s.onStep(s)
	}
}

func (s *hashSim) Publish(dst *snapshot.Snapshot) {
	dst.Sprites.Resize(1)
	dst.Sprites.Set(0, 1, 0, s.x, 0, 0, 0, snapshot.White)
	dst.Camera = snapshot.Camera{X: s.x, Zoom: 1}
}

func (s *hashSim) Hash() uint64 { return s.h }

const tick60 = 1_000_000_000 / 60 // 16,666,666 ns: a 60 Hz tick, rounded down

func TestTickTimesExact(t *testing.T) {
	// The decoupled loop on an auto-advancing fake clock wakes exactly at
	// each deadline, so the clock reads each tick's due time when it runs.
	const epoch = 1_000_000
	clk := NewAutoClock(epoch)
	sim := &hashSim{}
	ctx, cancel := context.WithCancel(context.Background())
	var bad atomic.Int64
	sim.onStep = func(s *hashSim) {
		k := s.ticks - 1
		want := epoch + int64(k/60*1e9+k%60*1e9/60)
		if got := clk.Now(); got != want && bad.Load() == 0 {
			bad.Store(got - want)
		}
		if s.ticks == 600 {
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
	if d := bad.Load(); d != 0 {
		t.Fatalf("a tick ran %d ns off its exact due time", d)
	}
	if sim.ticks < 600 {
		t.Fatalf("ran %d ticks, want 600", sim.ticks)
	}
}

// TestPublishedHook: Config.Published sees every tick's snapshot, in
// order, on the sim thread, with its Tick and its due Time.
func TestPublishedHook(t *testing.T) {
	const epoch = 1_000_000
	clk := NewAutoClock(epoch)
	sim := &hashSim{}
	ctx, cancel := context.WithCancel(context.Background())
	var simTid, bad atomic.Int64
	sim.onStep = func(s *hashSim) {
		simTid.Store(int64(threadID()))
		if s.ticks == 300 {
			cancel()
		}
	}
	var seen uint64
	r, err := New(sim, Config{Hz: 60, Clock: clk, Published: func(s *snapshot.Snapshot) {
		seen++
		want := epoch + int64((seen-1)/60*1e9+(seen-1)%60*1e9/60)
		if s.Tick != seen || s.Time != want || int64(threadID()) != simTid.Load() {
			bad.Add(1)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	r.Start(ctx)
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	if seen < 300 || bad.Load() != 0 {
		t.Fatalf("the hook saw %d snapshots, %d of them wrong (tick, time or thread)", seen, bad.Load())
	}
}

func TestDrift24Hours(t *testing.T) {
	// 24 simulated hours at 60 Hz: 5,184,000 ticks. Tick k must still be
	// due at exactly epoch + k*1e9/60, and the last one at exactly 24 h.
	const epoch = 123_456_789
	s := NewSchedule(60, epoch)
	const day = 24 * 3600 * 60
	for k := uint64(0); k < day; k++ {
		if got, want := s.Due(), epoch+int64(k)*1e9/60; got != want {
			t.Fatalf("tick %d due at %d, want %d (drift %d ns)", k, got, want, got-want)
		}
		s.Advance()
	}
	if got, want := s.Due(), int64(epoch+24*3600*1e9); got != want {
		t.Fatalf("tick %d due at %d, want %d", s.Tick(), got, want)
	}
	// The naive fixed step drifts: say by how much, to show why.
	naive := int64(day) * 16_666_667 // rounded up instead
	if d := naive - int64(24*3600*1e9); d != 1_728_000 {
		t.Fatalf("naive drift %d ns, want 1.728 ms (20 ns/s)", d)
	}
}

func TestDrift24HoursRunner(t *testing.T) {
	// The same through the whole decoupled loop, with the fake clock, in
	// real ticks: each tick's snapshot carries its due time.
	if testing.Short() || raceEnabled {
		t.Skip("5 million ticks: covered without -race by `make test`'s non-race pass")
	}
	const day = 24 * 3600 * 60
	clk := NewAutoClock(0)
	sim := &hashSim{}
	ctx, cancel := context.WithCancel(context.Background())
	var bad atomic.Int64
	sim.onStep = func(s *hashSim) {
		k := int64(s.ticks - 1)
		if clk.Now() != k*1e9/60 {
			bad.CompareAndSwap(0, k)
		}
		if s.ticks == day {
			cancel()
		}
	}
	r, _ := New(sim, Config{Hz: 60, Clock: clk})
	r.Start(ctx)
	r.Wait()
	if k := bad.Load(); k != 0 {
		t.Fatalf("tick %d off schedule", k)
	}
	if sim.ticks != day || clk.Now() != int64(day-1)*1_000_000_000/60 {
		t.Fatalf("ticks %d at %d", sim.ticks, clk.Now())
	}
}

func TestSimThread(t *testing.T) {
	if threadID() == 0 {
		t.Skip("no thread id on " + runtime.GOOS + " without cgo")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	caller := threadID()
	var first, other atomic.Int64
	sim := &hashSim{}
	ctx, cancel := context.WithCancel(context.Background())
	sim.onStep = func(s *hashSim) {
		tid := threadID()
		if first.Load() == 0 {
			first.Store(tid)
		} else if tid != first.Load() {
			other.Store(tid)
		}
		runtime.Gosched() // invite the scheduler to move us, if it could
		if s.ticks == 200 {
			cancel()
		}
	}
	r, _ := New(sim, Config{Hz: 1000, Clock: NewAutoClock(0)})
	r.Start(ctx)
	r.Wait()
	if first.Load() == int64(caller) {
		t.Fatalf("ticks ran on the caller's thread %d", caller)
	}
	if o := other.Load(); o != 0 {
		t.Fatalf("ticks ran on threads %d and %d", first.Load(), o)
	}
}

func TestStopWithinOneTick(t *testing.T) {
	clk := NewFakeClock(0)
	sim := &hashSim{}
	r, _ := New(sim, Config{Hz: 60, Clock: clk})
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	clk.BlockUntilWaiting() // tick 0 ran; waiting for tick 1
	cancel()                // no clock advance: it must stop without one
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	if sim.ticks != 1 {
		t.Fatalf("ran %d ticks, want 1", sim.ticks)
	}
}

func TestTapBetweenTicks(t *testing.T) {
	// A key pressed and released 5 ms apart, both between two ticks, is
	// still seen by the tick whose window holds them.
	var seen []TickInput
	sim := &recordSim{in: &seen}
	clk := NewFakeClock(0)
	r, _ := New(sim, Config{Hz: 60, Clock: clk})
	r.RunDue(0) // tick 0 at 0
	r.Push(Event{Time: 3_000_000, Kind: EventButton, Buttons: 4, Down: true})
	r.Push(Event{Time: 8_000_000, Kind: EventButton, Buttons: 4})
	r.RunDue(tick60 + 1) // tick 1
	r.RunDue(2*tick60 + 1)
	if len(seen) != 3 {
		t.Fatalf("ran %d ticks", len(seen))
	}
	if got, want := seen[1], (TickInput{Pressed: 4, Released: 4}); got != want {
		t.Fatalf("tick 1 saw %+v, want %+v", got, want)
	}
	if seen[2] != (TickInput{}) {
		t.Fatalf("tick 2 saw %+v, want nothing", seen[2])
	}
}

type recordSim struct{ in *[]TickInput }

func (s *recordSim) Step(in TickInput)              { *s.in = append(*s.in, in) }
func (s *recordSim) Publish(dst *snapshot.Snapshot) { dst.Sprites.Resize(0) }
func (s *recordSim) Hash() uint64                   { return 0 }

func TestEventWindow(t *testing.T) {
	// An event applies to the first tick due at or after its stamp.
	var seen []TickInput
	r, _ := New(&recordSim{in: &seen}, Config{Hz: 60, Clock: NewFakeClock(0)})
	r.Push(Event{Time: 0, Kind: EventButton, Buttons: 1, Down: true})          // tick 0
	r.Push(Event{Time: tick60, Kind: EventButton, Buttons: 2, Down: true})     // tick 1 exactly
	r.Push(Event{Time: tick60 + 1, Kind: EventButton, Buttons: 8, Down: true}) // tick 2
	for f := int64(0); f <= 3*tick60; f += tick60 / 3 {
		r.RunDue(f)
	}
	want := []Buttons{1, 2, 8}
	for k, b := range want {
		if seen[k].Pressed != b {
			t.Errorf("tick %d pressed %b, want %b", k, seen[k].Pressed, b)
		}
	}
}
