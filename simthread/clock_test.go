package simthread

import (
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/tandem-engine/tandem/internal/mallocs"
	"github.com/tandem-engine/tandem/internal/threadcpu"
	"github.com/tandem-engine/tandem/snapshot"
)

func TestRealClockNeverEarly(t *testing.T) {
	// Wait returns at or after its deadline, for deadlines shorter than a
	// spin, within one sleep and across several slices, with or without a spin.
	for _, spin := range []int64{0, DefaultSpin} {
		c := &RealClock{Spin: spin}
		for _, d := range []int64{10_000, 300_000, 2_500_000, 17_000_000, sleepSlice + 3_000_000} {
			at := snapshot.Now() + d
			c.Wait(at, nil, nil)
			if now := snapshot.Now(); now < at {
				t.Fatalf("spin %d, wait of %d ns returned %d ns early", spin, d, at-now)
			}
		}
	}
}

func TestRealClockStops(t *testing.T) {
	// A closed done or a wake ends a wait long before a far deadline;
	// a paused wait (no deadline) ends on either too.
	c := NewRealClock()
	far := snapshot.Now() + 10_000_000_000
	done := make(chan struct{})
	close(done)
	if c.Wait(far, nil, done); snapshot.Now() >= far {
		t.Fatal("a closed done did not end the wait")
	}
	wake := make(chan struct{}, 1)
	go func() { wake <- struct{}{} }()
	if c.Wait(far, wake, nil); snapshot.Now() >= far {
		t.Fatal("a wake did not end the wait")
	}
	go func() { wake <- struct{}{} }()
	c.Wait(math.MaxInt64, wake, nil) // returns, or the test times out
}

func TestRealClockAllocatesNothing(t *testing.T) {
	// On the sim's own locked thread, as the loop waits: after the first
	// call, a wait of sleeps and a spin allocates nothing.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c := NewRealClock()
	wake, done := make(chan struct{}, 1), make(chan struct{})
	c.Wait(snapshot.Now()+1_000_000, wake, done)
	if n := mallocs.Fewest(3, func() {
		for range 20 {
			c.Wait(snapshot.Now()+1_000_000, wake, done)
		}
	}); n != 0 {
		t.Fatalf("20 waits allocated %d times", n)
	}
}

// BenchmarkRealClockLate measures how late a RealClock's wait of about
// 16.7 ms (one tick at 60 Hz, less the tick's work: 15 to 17 ms, in steps
// that are no whole number of the runtime's 1 ms timer polls) returns, on a
// locked thread as the sim's, and reports the median and the worst in µs,
// and the CPU the whole process spent on a wait (its sleeps, the runtime's
// threads that wake it, the spin) where getrusage reads it.
func BenchmarkRealClockLate(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c := NewRealClock()
	var late []float64
	cpu0, cpuOK := threadcpu.Process()
	for b.Loop() {
		at := snapshot.Now() + 15_000_000 + int64(len(late))*37_000%2_000_000
		c.Wait(at, nil, nil)
		late = append(late, float64(snapshot.Now()-at)/1e3)
	}
	cpu1, _ := threadcpu.Process()
	slices.Sort(late)
	b.ReportMetric(late[len(late)/2], "late-µs-p50")
	b.ReportMetric(late[len(late)-1], "late-µs-max")
	if cpuOK {
		b.ReportMetric(float64(cpu1-cpu0)/1e3/float64(len(late)), "cpu-µs/op")
	}
}
