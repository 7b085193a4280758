package physics

import (
	"fmt"
	"slices"
	"testing"
)

func randomBoxes(r *RNG, n int, area AABB, maxSize float64) []AABB {
	boxes := make([]AABB, n)
	for i := range boxes {
		p := Vec{r.Range(area.Min.X, area.Max.X), r.Range(area.Min.Y, area.Max.Y)}
		s := Vec{r.Range(0, maxSize), r.Range(0, maxSize)}
		if i%17 == 0 {
			s = Vec{} // empty boxes overlap nothing
		}
		if i%13 == 0 { // snap to the cell lattice: edges exactly on cell faces
			p = Vec{float64(int(p.X/64) * 64), float64(int(p.Y/64) * 64)}
			s = Vec{64 * float64(1+r.Intn(3)), 64}
		}
		boxes[i] = Box(p, s)
	}
	return boxes
}

func bruteOverlaps(boxes []AABB, q AABB) []int32 {
	var out []int32
	for i, b := range boxes {
		if q.Overlaps(b) {
			out = append(out, int32(i))
		}
	}
	return out
}

// TestGridMatchesBruteForce: for thousands of random boxes and queries,
// including ones outside the grid's bounds, on cell faces and empty ones,
// Query returns exactly the all-pairs answer, sorted, without duplicates.
func TestGridMatchesBruteForce(t *testing.T) {
	r := NewRNG(99)
	bounds := AABB{Vec{-100, 50}, Vec{3100, 1000}}
	area := AABB{Vec{-400, -300}, Vec{3400, 1300}} // reaches outside bounds
	g := NewGrid(bounds, 64)
	var got []int32
	for round := range 4 {
		boxes := randomBoxes(&r, 2000, area, []float64{8, 64, 300, 2000}[round])
		g.Build(boxes) // rebuilds reuse the grid
		if g.Len() != len(boxes) {
			t.Fatalf("Len = %d, want %d", g.Len(), len(boxes))
		}
		queries := randomBoxes(&r, 1000, area, 400)
		queries = append(queries, boxes[:200]...) // boxes against themselves
		for _, q := range queries {
			got = g.Query(q, got[:0])
			want := bruteOverlaps(boxes, q)
			if !slices.Equal(got, want) {
				t.Fatalf("round %d: Query(%v) = %v, want %v", round, q, got, want)
			}
		}
	}
	// Query appends after existing elements and leaves them alone.
	g.Build([]AABB{Box(Vec{0, 100}, Vec{10, 10}), Box(Vec{5, 105}, Vec{10, 10})})
	got = g.Query(Box(Vec{0, 100}, Vec{20, 20}), []int32{-7})
	if !slices.Equal(got, []int32{-7, 0, 1}) {
		t.Errorf("Query with prefix = %v", got)
	}
}

func TestGridBuildAllocs(t *testing.T) {
	r := NewRNG(3)
	boxes := randomBoxes(&r, 1000, AABB{Max: Vec{3200, 960}}, 64)
	g := NewGrid(AABB{Max: Vec{3200, 960}}, 64)
	g.Build(boxes)
	dst := make([]int32, 0, len(boxes))
	q := Box(Vec{1000, 400}, Vec{300, 300})
	if n := testing.AllocsPerRun(100, func() {
		g.Build(boxes)
		dst = g.Query(q, dst[:0])
	}); n != 0 {
		t.Errorf("Build+Query allocate %v times per run, want 0", n)
	}
}

// BenchmarkGridQuery queries a player-sized box at the demo level's start
// against its coins' boxes, as the demo does every tick.
func BenchmarkGridQuery(b *testing.B) {
	l := loadDemo(b)
	boxes := make([]AABB, len(l.Coins))
	for i, c := range l.Coins {
		boxes[i] = Box(c, Vec{X: 10, Y: 10})
	}
	g := NewGrid(l.Bounds(), 4*TileSize)
	g.Build(boxes)
	q := Box(l.PlayerStart, Vec{X: 12, Y: 24})
	dst := make([]int32, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		dst = g.Query(q, dst[:0])
	}
}

// BenchmarkGridQuery10k queries a player-sized box against 10,000 boxes.
func BenchmarkGridQuery10k(b *testing.B) {
	r := NewRNG(5)
	area := AABB{Max: Vec{3200, 960}}
	boxes := randomBoxes(&r, 10000, area, 16)
	g := NewGrid(area, 64)
	g.Build(boxes)
	queries := randomBoxes(&r, 1024, area, 24)
	dst := make([]int32, 0, 64)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		dst = g.Query(queries[i&1023], dst[:0])
		i++
	}
}

func ExampleGrid_Query() {
	g := NewGrid(AABB{Max: Vec{256, 256}}, 64)
	g.Build([]AABB{
		Box(Vec{10, 10}, Vec{10, 10}),   // 0
		Box(Vec{60, 60}, Vec{100, 100}), // 1: spans four cells
		Box(Vec{200, 200}, Vec{5, 5}),   // 2
		Box(Vec{20, 10}, Vec{10, 10}),   // 3: touches 0's right edge only
	})
	fmt.Println(g.Query(Box(Vec{0, 0}, Vec{70, 70}), nil))
	fmt.Println(g.Query(Box(Vec{15, 15}, Vec{5, 5}), nil))
	fmt.Println(g.Query(Box(Vec{150, 150}, Vec{100, 100}), nil))
	// Output:
	// [0 1 3]
	// [0]
	// [1 2]
}
