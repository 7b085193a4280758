package simthread

import (
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tandem-engine/tandem/internal/mallocs"
)

// startPipelined starts the pipelined loop of a runner for sim with cfg
// (its Clock replaced by a manual fake clock reading 0) and returns the
// runner, the clock and the function that stops the loop and waits for
// it. The loop is stopped at the end of the test if not before.
func startPipelined(t *testing.T, sim Sim, cfg Config) (*Runner, *FakeClock, func()) {
	t.Helper()
	clk := NewFakeClock(0)
	cfg.Clock = clk
	r, err := New(sim, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.StartPipelined(ctx)
	stop := sync.OnceFunc(func() {
		cancel()
		if err := r.Wait(); err != nil {
			t.Error(err)
		}
	})
	t.Cleanup(stop)
	return r, clk, stop
}

func TestPipelinedMeetHand(t *testing.T) {
	if threadID() == 0 {
		t.Skip("no thread id on " + runtime.GOOS + " without cgo")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	caller := threadID()
	var tid atomic.Int64
	sim := &hashSim{onStep: func(*hashSim) { tid.Store(threadID()) }}
	r, _, stop := startPipelined(t, sim, Config{Hz: 60})
	defer stop()

	if upTo, ran := r.Meet(); upTo != 0 || ran != 0 {
		t.Fatalf("Meet before any Hand = %d, %d; want 0, 0", upTo, ran)
	}
	// The first hand-over starts the schedule: tick 0 is due at once.
	// Tick k at 60 Hz is due at k*1e9/60 ns rounded down (0, 16 666 666,
	// 33 333 333, 50 000 000, 66 666 666, 83 333 333): by 80 ms, ticks 1
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
	r, _, stop := startPipelined(t, &hashSim{}, Config{Hz: 60})
	defer stop()
	r.Hand(0)
	defer func() {
		if recover() == nil {
			t.Fatal("Hand twice without Meet did not panic")
		}
		// The refused Hand changed nothing: Meet answers for the first.
		if upTo, ran := r.Meet(); upTo != 0 || ran != 1 {
			t.Fatalf("Meet after the refused Hand = %d, %d; want 0, 1", upTo, ran)
		}
	}()
	r.Hand(tick60)
}

func TestPipelinedDueBy100ms(t *testing.T) {
	// At 60 Hz on a schedule started at 0, tick k is due at k*1e9/60 ns
	// rounded down: ticks 0 to 6 are due by 100 ms (tick 6 at exactly
	// 100 ms), tick 7 is not. Handed 0 and then 100 ms, the sim runs those
	// seven and no more (the catch-up cap raised from 5 so that one frame
	// can run the six after the first), and the newest snapshot is the
	// state after them, due when tick 6 was.
	sched := NewSchedule(60, 0)
	for k, due := range []int64{0, 16_666_666, 33_333_333, 50_000_000, 66_666_666, 83_333_333, 100_000_000, 116_666_666} {
		if got := sched.DueAt(uint64(k)); got != due {
			t.Fatalf("tick %d due at %d, want %d", k, got, due)
		}
	}
	sim := &hashSim{}
	r, _, stop := startPipelined(t, sim, Config{Hz: 60, MaxCatchUp: 10})
	defer stop()
	r.Hand(0)
	if upTo, ran := r.Meet(); upTo != 0 || ran != 1 {
		t.Fatalf("after Hand(0): Meet = %d, %d; want 0, 1", upTo, ran)
	}
	r.Hand(100_000_000)
	if upTo, ran := r.Meet(); upTo != 100_000_000 || ran != 6 {
		t.Fatalf("after Hand(100 ms): Meet = %d, %d; want 100000000, 6", upTo, ran)
	}
	prev, curr, fresh := r.Ring().Acquire()
	if !fresh || curr.Tick != 7 || curr.SimTime != sched.SimTime(7) || curr.Time != 100_000_000 || curr.Next != sched.DueAt(7) || prev.Tick != 6 {
		t.Fatalf("newest pair: ticks %d, %d; newest at sim time %d, due %d, next %d; want 6, 7; %d, 100000000, %d",
			prev.Tick, curr.Tick, curr.SimTime, curr.Time, curr.Next, sched.SimTime(7), sched.DueAt(7))
	}
	// Meet orders the sim thread's steps before it returns: the world may
	// be read here (the race detector checks that it is ordered).
	if sim.ticks != 7 {
		t.Fatalf("the world stepped %d times, want 7", sim.ticks)
	}
}

func TestPipelinedFirstHandStartsSchedule(t *testing.T) {
	// The schedule starts at the first time handed over, not at 0: a first
	// Hand of 100 ms runs tick 0 alone, due then, and the ticks after it
	// are due a tick apart from there.
	r, _, stop := startPipelined(t, &hashSim{}, Config{Hz: 60, MaxCatchUp: 10})
	defer stop()
	r.Hand(100_000_000)
	if _, ran := r.Meet(); ran != 1 {
		t.Fatalf("a first Hand of 100 ms ran %d ticks, want 1", ran)
	}
	_, curr, _ := r.Ring().Acquire()
	if curr.Tick != 1 || curr.Time != 100_000_000 || curr.Next != 100_000_000+16_666_666 {
		t.Fatalf("tick %d due %d next %d; want 1, 100000000, 116666666", curr.Tick, curr.Time, curr.Next)
	}
	r.Hand(200_000_000) // ticks 1 to 6, due at 100 ms + k*1e9/60
	if _, ran := r.Meet(); ran != 6 {
		t.Fatalf("by 200 ms ran %d more, want 6", ran)
	}
}

func TestPipelinedRunsEveryTickDue(t *testing.T) {
	// Property, over tick rates and random frame times (repeated, 1 ns
	// apart, a frame apart, hitches): after each Meet, the ticks run are
	// exactly those due by the time handed over on the schedule that began
	// at the first time handed over; Meet reports how many the frame
	// added; the newest snapshot is the state after them, due when the
	// last of them was. The cap and the lag clamp are out of the way.
	// Every tick runs on one thread, and not the caller's.
	if threadID() == 0 {
		t.Skip("no thread id on " + runtime.GOOS + " without cgo")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	caller := threadID()
	for _, hz := range []int{24, 60, 144, 1000} {
		for seed := uint64(1); seed <= 4; seed++ {
			rng := rand.New(rand.NewPCG(seed, uint64(hz)))
			var first, other atomic.Int64
			sim := &hashSim{onStep: func(*hashSim) {
				if id := threadID(); !first.CompareAndSwap(0, id) && id != first.Load() {
					other.Store(id)
				}
			}}
			r, _, stop := startPipelined(t, sim, Config{Hz: hz, MaxCatchUp: 1 << 20, MaxLag: 1 << 50})
			now := rng.Int64N(1_000_000_000)
			ref := NewSchedule(hz, now)
			for frame := range 200 {
				r.Hand(now)
				upTo, ran := r.Meet()
				due := 0
				for ; ref.Ready(now); ref.Advance() {
					due++
				}
				k := ref.Tick()
				_, curr, fresh := r.Ring().Acquire()
				switch {
				case upTo != now || ran != due:
					t.Fatalf("%d Hz seed %d frame %d: Meet = %d, %d; want %d, %d", hz, seed, frame, upTo, ran, now, due)
				case curr.Tick != k || sim.ticks != k || fresh != (ran > 0):
					t.Fatalf("%d Hz seed %d frame %d: snapshot of tick %d (fresh %v), world at %d; want %d", hz, seed, frame, curr.Tick, fresh, sim.ticks, k)
				case curr.SimTime != ref.SimTime(k) || curr.Time != ref.DueAt(k-1) || curr.Next != ref.DueAt(k):
					t.Fatalf("%d Hz seed %d frame %d: snapshot at sim time %d due %d next %d; want %d %d %d",
						hz, seed, frame, curr.SimTime, curr.Time, curr.Next, ref.SimTime(k), ref.DueAt(k-1), ref.DueAt(k))
				}
				switch rng.IntN(4) {
				case 0: // the same time again
				case 1:
					now++
				case 2:
					now += rng.Int64N(2_000_000_000/int64(hz) + 1)
				case 3:
					now += rng.Int64N(300_000_000)
				}
			}
			stop()
			if id := first.Load(); id == caller || other.Load() != 0 {
				t.Fatalf("%d Hz seed %d: ticks ran on threads %d and %d, the caller is %d", hz, seed, id, other.Load(), caller)
			}
		}
	}
}

func TestPipelinedLog(t *testing.T) {
	// The pipelined loop logs ticks and inputs as the coupled loop does
	// (TestLog). The render thread reads the clock for a frame's time and
	// hands it over, so the clock is at that time while the frame's ticks
	// run: each tick's Start and End are the first frame time at or after
	// its Due. Button events are pushed while the sim thread runs the
	// frame before, stamped after that frame's time (so it must leave
	// them), and each lands at the first tick due at or after its stamp.
	const hz = 100
	log := NewLog(1<<12, 1<<10)
	r, clk, stop := startPipelined(t, &hashSim{}, Config{Hz: hz, Log: log, MaxCatchUp: 1 << 20})
	rng := rand.New(rand.NewPCG(3, 4))
	var frames []int64
	for f := int64(0); f < 2_000_000_000; f += rng.Int64N(40_000_000) + 1 {
		frames = append(frames, f)
	}
	// Tick 30 is due at exactly 300 ms: a stamp then is its, 1 ns later
	// tick 31's.
	stamps := []int64{300_000_000, 300_000_001}
	for s := int64(0); s < frames[len(frames)-1]; s += rng.Int64N(30_000_000) {
		stamps = append(stamps, s)
	}
	slices.Sort(stamps)
	i := 0
	for _, f := range frames {
		for ; i < len(stamps) && stamps[i] <= f; i++ {
			r.Push(Event{Time: stamps[i], Kind: EventButton, Buttons: 1, Down: i%2 == 0})
		}
		r.Meet()
		clk.Set(f)
		r.Hand(f)
	}
	r.Meet()
	stop() // the log is read after the loop has stopped
	if got := r.Stats().InputLate; got != 0 {
		t.Fatalf("%d events late", got)
	}

	ref := NewSchedule(hz, 0)
	ticks, lost := log.Ticks()
	if lost != 0 || uint64(len(ticks)) != r.Stats().Ticks {
		t.Fatalf("%d ticks logged, %d lost; %d ran", len(ticks), lost, r.Stats().Ticks)
	}
	if last := frames[len(frames)-1]; len(ticks) == 0 || ticks[len(ticks)-1].Due > last || ref.DueAt(uint64(len(ticks))) <= last {
		t.Fatalf("%d ticks ran by %d ns: not the ticks due by then", len(ticks), last)
	}
	for k, tr := range ticks {
		j, _ := slices.BinarySearch(frames, tr.Due) // the first frame at or after Due
		if tr.Tick != uint64(k) || tr.Due != ref.DueAt(uint64(k)) || tr.Start != frames[j] || tr.End != tr.Start || tr.Start < tr.Due {
			t.Fatalf("tick record %d: %+v; want due %d, started and ended at %d", k, tr, ref.DueAt(uint64(k)), frames[j])
		}
	}
	inputs, lost := log.Inputs()
	if lost != 0 || len(inputs) != len(stamps) {
		t.Fatalf("%d inputs logged, %d lost; %d pushed", len(inputs), lost, len(stamps))
	}
	for j, in := range inputs {
		// The first tick due at or after the stamp.
		k := uint64(sort.Search(len(ticks)+1, func(k int) bool { return ref.DueAt(uint64(k)) >= in.Stamp }))
		if in.Stamp != stamps[j] || in.Kind != EventButton || in.Tick != k {
			t.Fatalf("input %d: %+v; want stamp %d at tick %d", j, in, stamps[j], k)
		}
		if in.Stamp == 300_000_000 && in.Tick != 30 || in.Stamp == 300_000_001 && in.Tick != 31 {
			t.Fatalf("input stamped %d applied at tick %d", in.Stamp, in.Tick)
		}
	}
}

func TestPipelinedMeetAfterStop(t *testing.T) {
	// The loop's context may be cancelled by someone other than the render
	// thread (a signal, a deadline) while the render thread goes on with
	// its frames. Meet must then report what the loop ran before it
	// stopped, and neither Meet nor Hand may wait for a loop that has gone.
	// A regression hangs here until go test's -timeout.
	sim := &hashSim{}
	r, _, stop := startPipelined(t, sim, Config{Hz: 60})
	r.Hand(0)
	r.Meet()
	r.Hand(50_000_000) // ticks 1 to 3 are due: the loop may run them or stop first
	stop()
	upTo, ran := r.Meet()
	if upTo != 50_000_000 || uint64(ran) != sim.ticks-1 {
		t.Fatalf("Meet after the stop = %d, %d; the loop had run %d ticks since", upTo, ran, sim.ticks-1)
	}
	ticks := sim.ticks
	for f := int64(1); f <= 3; f++ {
		r.Hand(f * 100_000_000) // the job nobody takes: the next Hand needs it gone
		if upTo, ran := r.Meet(); upTo != f*100_000_000 || ran != 0 {
			t.Fatalf("frame %d after the stop: Meet = %d, %d; want %d, 0", f, upTo, ran, f*100_000_000)
		}
	}
	if sim.ticks != ticks {
		t.Fatalf("the world stepped after its loop stopped: %d ticks, then %d", ticks, sim.ticks)
	}
}

func TestPipelinedAllocs(t *testing.T) {
	// A frame's meeting (Meet, Acquire, Hand) and the ticks it runs, with
	// the log on, allocate nothing once the ring's buffers are grown.
	//
	// The process's malloc count alone cannot show it: the runtime
	// allocates for itself now and then in this loop. A sudog, when a
	// goroutine blocks on a channel on a P whose sudog cache is empty (the
	// two threads block on one P and wake on another, so the caches drift;
	// about one in a few hundred frames here), and the M of a new OS thread
	// (a locked thread that blocks hands its P to another thread, now and
	// then a new one: six mallocs); and its background goroutines (the
	// scavenger growing a timer heap) may allocate at any time. So every
	// allocation in 2000 frames is sampled with its stack (MemProfileRate
	// 1), and any whose stack passes through this module's code fails the
	// test, but for sudogs and threads.
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	runtime.MemProfileRate = 1
	r, _, stop := startPipelined(t, &hashSim{}, Config{Hz: 60, Log: NewLog(64, 64)})
	defer stop()
	now := int64(0)
	frame := func() {
		r.Meet()
		r.Ring().Acquire()
		now += 16_666_667
		r.Hand(now)
	}
	for range 100 {
		frame()
	}
	r.Meet()
	before := allocSites()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	for range 2000 {
		frame()
	}
	r.Meet()
	runtime.ReadMemStats(&ms1)
	after := allocSites()
	var runtimeOwn int64
	for stack, n := range after {
		n -= before[stack]
		fns := stackFuncs(stack)
		switch {
		case n == 0:
		case slices.Contains(fns, "github.com/tandem-engine/tandem/simthread.allocSites"):
			// The first count's own map, made before ms0 was read.
		case slices.Contains(fns, "runtime.acquireSudog") || slices.Contains(fns, "runtime.allocm"):
			runtimeOwn += n
		case slices.ContainsFunc(fns, func(f string) bool { return strings.HasPrefix(f, "github.com/tandem-engine/tandem/") }):
			t.Errorf("%d allocations in 2000 pipelined frames at\n\t%s", n, strings.Join(fns, "\n\t"))
		}
	}
	t.Logf("2000 frames: %d mallocs in the process, %d of them the runtime's sudogs and threads", ms1.Mallocs-ms0.Mallocs, runtimeOwn)
}

// allocSites returns the number of allocations sampled so far at each
// stack. With runtime.MemProfileRate 1, every allocation is sampled.
func allocSites() map[[32]uintptr]int64 {
	runtime.GC() // publishes the profile of everything allocated before it
	n, _ := runtime.MemProfile(nil, true)
	var recs []runtime.MemProfileRecord
	for ok := false; !ok; {
		recs = make([]runtime.MemProfileRecord, n+64)
		n, ok = runtime.MemProfile(recs, true)
	}
	sites := make(map[[32]uintptr]int64, n)
	for _, rec := range recs[:n] {
		sites[rec.Stack0] += rec.AllocObjects
	}
	return sites
}

// stackFuncs returns the names of the functions of a profiled stack,
// innermost first.
func stackFuncs(stack [32]uintptr) []string {
	var names []string
	frames := runtime.CallersFrames(slices.DeleteFunc(stack[:], func(pc uintptr) bool { return pc == 0 }))
	for {
		f, more := frames.Next()
		names = append(names, f.Function)
		if !more {
			return names
		}
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
		r.RunDue(now)
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
	if n := mallocs.Fewest(3, func() {
		for k := range uint64(10_000) {
			l.tick(TickRecord{Tick: k})
			l.input(InputRecord{Tick: k})
		}
	}); n != 0 {
		t.Fatalf("logging allocated %d times", n)
	}
}
