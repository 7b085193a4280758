package hoststat

import (
	"runtime"
	"time"
)

// floorBuffer is the memory one pass of [Floor]'s work writes: 4 MiB, a
// 1280x720 framebuffer's worth and more than a core's share of the cache,
// so the work meets the memory as a rasterizer's does.
const floorBuffer = 1 << 20 // uint32s

// Floor runs the same work reps times, back to back on the calling
// goroutine's OS thread, each run about d long, and returns how long each
// took, ns. The work is fixed (a number of passes over a 4 MiB buffer,
// each storing a pseudo-random word in every slot), so every run does
// exactly what the one before did: how much their times differ is the
// machine's own unevenness at that length of work (another tenant on the
// host core, a vCPU that runs slower for a while, an interrupt), which no
// program's pacing goes below without slack to absorb it. A frame of
// that length of work cannot be timed more evenly than this.
//
// The passes are counted once, from the fastest of three timed passes.
// Floor allocates the buffer once; the caller should have nothing else of
// its own running.
func Floor(d time.Duration, reps int) []int64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	buf := make([]uint32, floorBuffer)
	seed := uint64(1)
	pass := time.Duration(1<<62 - 1)
	for range 3 {
		t := time.Now()
		seed = floorPass(buf, seed)
		pass = min(pass, time.Since(t))
	}
	passes := floorPasses(d, pass)
	out := make([]int64, reps)
	for i := range out {
		t := time.Now()
		for range passes {
			seed = floorPass(buf, seed)
		}
		out[i] = int64(time.Since(t))
	}
	floorSink = seed
	return out
}

// floorPasses returns how many passes of pass each make a run about d
// long: the nearest whole number, at least one.
func floorPasses(d, pass time.Duration) int {
	return max(1, int((d+pass/2)/max(pass, 1)))
}

// floorSink keeps the work's result alive, so that the compiler cannot
// drop it.
var floorSink uint64

// floorPass stores one step of a linear congruential generator into every
// slot of buf, starting from x, and returns where the generator ended.
func floorPass(buf []uint32, x uint64) uint64 {
	for i := range buf {
		x = x*6364136223846793005 + 1442695040888963407
		buf[i] += uint32(x >> 33)
	}
	return x
}
