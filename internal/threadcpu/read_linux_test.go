package threadcpu

import (
	"runtime"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/mallocs"
)

func TestReadSpin(t *testing.T) {
	// A thread that spins 50 ms of wall time: its reading grows by at most
	// that (less whatever the machine took from it), the process's by at
	// least as much as the thread's, and a reading allocates nothing.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r, err := Open()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	t0 := time.Now()
	a, ok := r.Read()
	if !ok {
		t.Fatal("no first reading")
	}
	for end := time.Now().Add(50 * time.Millisecond); time.Now().Before(end); {
	}
	b, ok := r.Read()
	wall := time.Since(t0)
	if !ok {
		t.Fatal("no second reading")
	}
	run, wait := b.Run-a.Run, b.Wait-a.Wait
	// On a loaded machine the spin may get little of a CPU (8.8 ms of the
	// 50, 37.7 waiting, once in the race pass), and the thread may wait
	// before its spin starts (its run and wait came to 78.8 ms once, in a
	// 50 ms spin): the reading must grow, and by no more than the wall
	// time between the readings, 10 ms allowed for the scheduler's ticks,
	// which the run figure lags by (1.5 ms past the wall time once).
	if run <= 0 || time.Duration(run+wait) > wall+10*time.Millisecond {
		t.Errorf("a 50 ms spin read %v on a CPU and %v waiting, in %v of wall time", time.Duration(run), time.Duration(wait), wall)
	}
	// getrusage counts in µs and from the scheduler's ticks: allow 10 ms.
	if p := b.Process - a.Process; p < run-10e6 {
		t.Errorf("the process read %v, its spinning thread %v", time.Duration(p), time.Duration(run))
	}
	if n := mallocs.Fewest(3, func() { r.Read() }); n != 0 {
		t.Errorf("a reading allocated %d times", n)
	}
}
