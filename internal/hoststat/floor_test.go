package hoststat

import (
	"testing"
	"time"
)

func TestFloorPasses(t *testing.T) {
	for _, c := range []struct {
		d, pass time.Duration
		want    int
	}{
		{19 * time.Millisecond, time.Millisecond, 19},
		{19 * time.Millisecond, 2 * time.Millisecond, 10}, // 9.5 rounds up
		{19 * time.Millisecond, 3 * time.Millisecond, 6},  // 6.33
		{time.Millisecond, 5 * time.Millisecond, 1},       // at least one
		{0, time.Millisecond, 1},
		{time.Millisecond, 0, 1_000_000}, // a pass too fast to time counts as 1 ns
	} {
		if got := floorPasses(c.d, c.pass); got != c.want {
			t.Errorf("floorPasses(%v, %v) = %d, want %d", c.d, c.pass, got, c.want)
		}
	}
}

func TestFloorPassIsFixedWork(t *testing.T) {
	// Every run does the same work: a pass from the same start stores the
	// same words and ends the generator in the same place.
	a, b := make([]uint32, 1000), make([]uint32, 1000)
	if floorPass(a, 7) != floorPass(b, 7) {
		t.Fatal("two passes from one seed ended apart")
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("word %d: %d against %d", i, a[i], b[i])
		}
	}
	if a[0] == 0 && a[1] == 0 {
		t.Fatal("the pass stored nothing")
	}
}

func TestFloorCycle(t *testing.T) {
	// The cache walk goes through every slot once before it comes back,
	// so that its passes cover all the memory whatever the start.
	const n = 1000
	next := floorCycle(n)
	seen := make([]bool, n)
	p := int32(0)
	for i := range n {
		if seen[p] {
			t.Fatalf("back at %d after %d steps, want %d", p, i, n)
		}
		seen[p] = true
		p = next[p]
	}
	if p != 0 {
		t.Fatalf("after %d steps at %d, want back at 0", n, p)
	}
	if floorWalk(next, 0, n) != 0 || floorWalk(next, 0, 1) != next[0] {
		t.Fatal("floorWalk does not follow next")
	}
}

func TestFloor(t *testing.T) {
	// One duration a run, each the time of at least one pass.
	for _, kind := range []FloorWork{FloorCPU, FloorCache} {
		got := Floor(kind, time.Millisecond, 5, nil)
		if len(got) != 5 {
			t.Fatalf("kind %d: %d runs, want 5", kind, len(got))
		}
		for i, d := range got {
			if d <= 0 {
				t.Fatalf("kind %d: run %d took %d ns", kind, i, d)
			}
		}
		// Told to stop, it stops within a pass and says it measured
		// nothing, however long it was asked to run.
		asked := 0
		stop := func() bool { asked++; return asked > 3 }
		if got := Floor(kind, time.Hour, 100, stop); got != nil || asked != 4 {
			t.Fatalf("kind %d: stopped: %d runs, asked %d times; want none, 4", kind, len(got), asked)
		}
	}
}
