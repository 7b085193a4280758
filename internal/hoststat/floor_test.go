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

func TestFloor(t *testing.T) {
	// One duration a run, each the time of at least one pass over 4 MiB.
	got := Floor(time.Millisecond, 5)
	if len(got) != 5 {
		t.Fatalf("%d runs, want 5", len(got))
	}
	for i, d := range got {
		if d <= 0 {
			t.Fatalf("run %d took %d ns", i, d)
		}
	}
}
