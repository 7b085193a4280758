package hoststat

import (
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/tandem-engine/tandem/snapshot"
)

// FloorWork is a kind of fixed work [Floor] repeats.
type FloorWork int

const (
	// FloorCPU is arithmetic that stores a pseudo-random word in every
	// slot of a 4 MiB buffer, in order: the core's own speed, little
	// touched by the caches (the stores stream).
	FloorCPU FloorWork = iota
	// FloorCache is a walk over 4 MiB in a fixed random order, each step
	// waiting for the load before it: as much as any work can be, a
	// matter of the shared cache and the memory, which a host shares with
	// its other tenants without counting it as steal.
	FloorCache
)

// floorBytes is the memory either kind of work covers: 4 MiB, a 1280x720
// framebuffer's worth, more than a core's own caches hold.
const floorBytes = 4 << 20

// floorSteps is how many steps of the FloorCache walk make one pass.
const floorSteps = 1 << 14

// Floor runs the same work reps times, back to back on the calling
// goroutine's OS thread, each run about d long, and returns how long each
// took, ns. The work is fixed (a number of passes, each doing exactly what
// the one before did), so how much the runs' times differ is the
// machine's own unevenness at that length of work: another tenant on the
// host core or in the shared cache, a vCPU that runs slower for a while,
// an interrupt. No program's pacing goes below it without slack to absorb
// it: a frame of that length of work cannot be timed more evenly.
//
// The caller should have nothing else of its own running. stop, if not
// nil, is asked between passes (a pass takes about a millisecond): once
// it says true, Floor returns nil at once.
func Floor(kind FloorWork, d time.Duration, reps int, stop func() bool) []int64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	f := NewFloorRunner(kind, d)
	out := make([]int64, reps)
	for i := range out {
		ns, ok := f.Run(stop)
		if !ok {
			return nil
		}
		out[i] = ns
	}
	return out
}

// FloorRunner runs one kind of [Floor]'s fixed work, a run at a time, so
// that its runs can be set between a program's own (a frame, then a run
// of the floor, then a frame): whether the program's slow moments are the
// machine's shows in whether the floor's runs beside them are slow too.
//
// One goroutine at a time; Run allocates nothing.
type FloorRunner struct {
	pass   func()
	passes int
	sink   uint64 // the work's results, kept so that none of it is dropped
}

// NewFloorRunner allocates the work's memory (4 MiB) and counts the passes
// that make a run about d long, from the fastest of three timed passes
// after one untimed one.
func NewFloorRunner(kind FloorWork, d time.Duration) *FloorRunner {
	f := &FloorRunner{}
	switch kind {
	case FloorCache:
		next := floorCycle(floorBytes / 4)
		p := int32(0)
		f.pass = func() { p = floorWalk(next, p, floorSteps); f.sink += uint64(p) }
	default:
		buf := make([]uint32, floorBytes/4)
		x := uint64(1)
		f.pass = func() { x = floorPass(buf, x); f.sink += x }
	}
	f.pass()
	fastest := time.Duration(1<<62 - 1)
	for range 3 {
		t := snapshot.Now()
		f.pass()
		fastest = min(fastest, time.Duration(snapshot.Now()-t))
	}
	f.passes = floorPasses(d, fastest)
	return f
}

// Run does the work once and returns how long it took, ns; false, at
// once, when stop (if not nil, asked between passes) says true.
func (f *FloorRunner) Run(stop func() bool) (ns int64, ok bool) {
	// snapshot.Now, not time.Now: on Windows Go's clock moves once per
	// clock interrupt (up to 15.6 ms), and a run of a millisecond
	// measured 0 under Wine.
	t := snapshot.Now()
	for range f.passes {
		if stop != nil && stop() {
			return 0, false
		}
		f.pass()
	}
	return snapshot.Now() - t, true
}

// floorPasses returns how many passes of pass each make a run about d
// long: the nearest whole number, at least one.
func floorPasses(d, pass time.Duration) int {
	return max(1, int((d+pass/2)/max(pass, 1)))
}

// floorPass stores one step of a linear congruential generator into every
// slot of buf, starting from x, and returns where the generator ended.
func floorPass(buf []uint32, x uint64) uint64 {
	for i := range buf {
		x = x*6364136223846793005 + 1442695040888963407
		buf[i] += uint32(x >> 33)
	}
	return x
}

// floorCycle returns n indexes that form one cycle through all of them in
// a random order fixed by a constant seed (Sattolo's shuffle): from any
// start, following next visits every slot before it comes back.
func floorCycle(n int) []int32 {
	next := make([]int32, n)
	for i := range next {
		next[i] = int32(i)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := n - 1; i > 0; i-- {
		j := rng.IntN(i)
		next[i], next[j] = next[j], next[i]
	}
	return next
}

// floorWalk follows next from p for steps steps and returns where it
// stopped.
func floorWalk(next []int32, p int32, steps int) int32 {
	for range steps {
		p = next[p]
	}
	return p
}
