package charts

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gonum.org/v1/plot/plotter"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/simthread"
)

// TestSeriesBounded: a line of a million points holds at most maxBuckets
// buckets, in x order, and keeps its one spike and its least point.
func TestSeriesBounded(t *testing.T) {
	var s series
	const n = 1_000_003
	for i := range n {
		y := float64(i % 7)
		switch i {
		case 777_777:
			y = 500
		case 12_345:
			y = -3
		}
		s.add(float64(i), y)
	}
	xy := s.xy()
	if s.len() > maxBuckets || len(xy) > 2*maxBuckets {
		t.Errorf("%d buckets, %d points; want at most %d buckets", s.len(), len(xy), maxBuckets)
	}
	if !slices.IsSortedFunc(xy, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) }) {
		t.Errorf("the points are not in x order")
	}
	var top, low plotter.XY
	for _, p := range xy {
		if p.Y > top.Y {
			top = p
		}
		if p.Y < low.Y {
			low = p
		}
	}
	if top.X != 777_777 || top.Y != 500 || low.X != 12_345 || low.Y != -3 {
		t.Errorf("spike %v, least %v; want (777777, 500) and (12345, -3)", top, low)
	}
	if last := xy[len(xy)-1]; last.X < n-2*n/maxBuckets {
		t.Errorf("the line ends at x %v of %d", last.X, n)
	}
}

// TestRunFiles: the charts drawn from a run's files, streamed, are those
// drawn from its records.
func TestRunFiles(t *testing.T) {
	var fr []bench.FrameRecord
	var ticks []simthread.TickRecord
	for i := range 1500 {
		at := int64(1e9 + i*16_666_667 + i%5*300_000)
		fr = append(fr, bench.FrameRecord{Start: at - 4e6, Present: at, SimShown: at - 1e9, ProbeX: float64(i)*2 + float64(i%3), Age: -1, Alpha: 0.5})
		ticks = append(ticks, simthread.TickRecord{Tick: uint64(i), Due: at, Start: at + int64(i%11)*1e5, End: at + 1e6})
	}
	dir := t.TempDir()
	f, _ := os.Create(filepath.Join(dir, "frames.csv"))
	bench.WriteFramesCSV(f, fr)
	f.Close()
	f, _ = os.Create(filepath.Join(dir, "ticks.csv"))
	bench.WriteTicksCSV(f, ticks)
	f.Close()
	a, err := Run(filepath.Join(dir, "a"), fr, ticks, "t")
	if err != nil {
		t.Fatal(err)
	}
	b, err := RunFiles(filepath.Join(dir, "b"), filepath.Join(dir, "frames.csv"), filepath.Join(dir, "ticks.csv"), "t")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, b) || len(a) != 4 {
		t.Fatalf("charts %v from records, %v from files", a, b)
	}
	for _, name := range a {
		pa, _ := os.ReadFile(filepath.Join(dir, "a", name))
		pb, _ := os.ReadFile(filepath.Join(dir, "b", name))
		if !slices.Equal(pa, pb) {
			t.Errorf("%s differs drawn from the files", name)
		}
	}
}
