package physics

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// randomLevel returns a w x h level with a solid border and random solid
// and one-way tiles inside.
func randomLevel(r *RNG, w, h int, pSolid, pOneWay float64) *Level {
	l := &Level{Name: "random", W: w, H: h, Tiles: make([]Tile, w*h)}
	for ty := 0; ty < h; ty++ {
		for tx := 0; tx < w; tx++ {
			t := TileEmpty
			switch p := r.Float64(); {
			case tx == 0 || ty == 0 || tx == w-1 || ty == h-1:
				t = TileSolid
			case p < pSolid:
				t = TileSolid
			case p < pSolid+pOneWay:
				t = TileOneWay
			}
			l.Tiles[ty*w+tx] = t
		}
	}
	return l
}

// solidOverlap returns a solid tile that box overlaps by more than tol on
// both axes, checking every tile the box touches (brute force, independent
// of Move's scan).
func solidOverlap(l *Level, box AABB, tol float64) (tx, ty int, ok bool) {
	in := box.Inset(tol)
	if in.Empty() {
		// Thinner than 2*tol: test it as a segment or point, grown a hair.
		in = AABB{in.Min.Sub(Vec{1e-12, 1e-12}), in.Max.Add(Vec{1e-12, 1e-12})}
	}
	x0 := int(math.Floor(in.Min.X/TileSize)) - 1
	x1 := int(math.Floor(in.Max.X/TileSize)) + 1
	y0 := int(math.Floor(in.Min.Y/TileSize)) - 1
	y1 := int(math.Floor(in.Max.Y/TileSize)) + 1
	for ty := y0; ty <= y1; ty++ {
		for tx := x0; tx <= x1; tx++ {
			if l.At(tx, ty) == TileSolid && in.Overlaps(TileBox(tx, ty)) {
				return tx, ty, true
			}
		}
	}
	return 0, 0, false
}

// randomClearBox returns a box of the given size inside l that overlaps no
// solid tile.
func randomClearBox(r *RNG, l *Level, size Vec) (AABB, bool) {
	b := l.Bounds()
	for range 200 {
		p := Vec{r.Range(b.Min.X, b.Max.X-size.X), r.Range(b.Min.Y, b.Max.Y-size.Y)}
		box := Box(p, size)
		if _, _, hit := solidOverlap(l, box, 0); !hit {
			return box, true
		}
	}
	return AABB{}, false
}

// checkMove checks one Level.Move against the rules, by brute force.
func checkMove(t *testing.T, l *Level, box AABB, delta Vec, oneWay bool) (AABB, Vec, bool, bool) {
	t.Helper()
	moved, hitX, hitY := l.Move(box, delta, oneWay)
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("Move(%v, %v, %v) = %v, %v, %v: %s", box, delta, oneWay, moved, hitX, hitY, fmt.Sprintf(format, args...))
	}
	// Never further than asked, never backwards.
	for _, a := range [][2]float64{{moved.X, delta.X}, {moved.Y, delta.Y}} {
		if a[1] >= 0 && !(a[0] >= 0 && a[0] <= a[1]) || a[1] < 0 && !(a[0] <= 0 && a[0] >= a[1]) {
			fail("moved outside [0, delta]")
		}
	}
	if !hitX && moved.X != delta.X || !hitY && moved.Y != delta.Y {
		fail("stopped short without a hit")
	}
	const tol = 2 * Skin
	mid := box.Add(Vec{moved.X, 0})
	end := mid.Add(Vec{0, moved.Y})
	// The whole L-shaped path is clear: no solid tile is crossed by either
	// leg, so nothing tunnels, and the end box overlaps nothing solid.
	if tx, ty, bad := solidOverlap(l, box.Union(mid), tol); bad {
		fail("x leg crosses solid tile (%d, %d)", tx, ty)
	}
	if tx, ty, bad := solidOverlap(l, mid.Union(end), tol); bad {
		fail("y leg crosses solid tile (%d, %d)", tx, ty)
	}
	// One-way tiles whose top was at or below the starting bottom block a
	// downward move.
	if oneWay && moved.Y > 0 {
		in := end.Inset(tol)
		for tx := int(math.Floor(in.Min.X / TileSize)); float64(tx*TileSize) < in.Max.X; tx++ {
			for ty := int(math.Floor((box.Max.Y - tol) / TileSize)); float64(ty*TileSize) < end.Max.Y-tol; ty++ {
				top := float64(ty * TileSize)
				if l.At(tx, ty) == TileOneWay && top >= box.Max.Y-tol {
					fail("fell through one-way tile (%d, %d) whose top %v was below the start bottom %v", tx, ty, top, box.Max.Y)
				}
			}
		}
	}
	// A hit stops flush against a tile face, with a blocking tile beyond.
	flush := func(edge float64) int {
		c := math.Round(edge / TileSize)
		if math.Abs(edge-c*TileSize) > tol {
			fail("stopped at %v, not on a tile face", edge)
		}
		return int(c)
	}
	if hitX {
		y0, y1 := span(box.Min.Y, box.Max.Y, l.H)
		var col int
		if delta.X > 0 {
			col = flush(mid.Max.X)
		} else {
			col = flush(mid.Min.X) - 1
		}
		if !l.columnBlocks(col, y0, y1) {
			fail("x stop at column %d, which does not block", col)
		}
	}
	if hitY {
		x0, x1 := span(mid.Min.X, mid.Max.X, l.W)
		var row int
		if delta.Y > 0 {
			row = flush(end.Max.Y)
		} else {
			row = flush(end.Min.Y) - 1
		}
		if !l.rowBlocks(row, x0, x1, oneWay && delta.Y > 0) {
			fail("y stop at row %d, which does not block", row)
		}
	}
	return end, moved, hitX, hitY
}

// TestMoveNoTunneling throws thousands of random boxes, at up to 50,000
// px/s in any direction, at random tile maps (and the demo level) for
// several ticks, bouncing them off what they hit, and checks every move by
// brute force.
func TestMoveNoTunneling(t *testing.T) {
	r := NewRNG(2024)
	levels := []*Level{loadDemo(t)}
	for range 12 {
		levels = append(levels, randomLevel(&r, 8+r.Intn(40), 8+r.Intn(30), 0.25, 0.08))
	}
	dts := []float64{1.0 / 120, 1.0 / 60, 1.0 / 30, 0.25, 2}
	bodies, ticks := 4000, 8
	if testing.Short() {
		bodies = 1000
	}
	var hits, moves int
	for i := range bodies {
		l := levels[i%len(levels)]
		size := Vec{r.Range(0.5, 3*TileSize), r.Range(0.5, 3*TileSize)}
		if i%10 == 0 {
			size = Vec{r.Range(0, 1), r.Range(0, 1)} // tiny, even zero-size
		}
		box, ok := randomClearBox(&r, l, size)
		if !ok {
			continue
		}
		vel := Vec{r.Range(-50000, 50000), r.Range(-50000, 50000)}
		switch i % 4 {
		case 1: // slow: resting contacts, small steps
			vel = vel.Mul(0.001)
		case 2: // axis-aligned
			if r.Intn(2) == 0 {
				vel.X = 0
			} else {
				vel.Y = 0
			}
		}
		oneWay := i%3 != 0
		for range ticks {
			dt := dts[r.Intn(len(dts))]
			vel.Y += float64(1800 * dt)
			end, _, hx, hy := checkMove(t, l, box, vel.Mul(dt), oneWay)
			moves++
			if hx {
				vel.X = -vel.X
				hits++
			}
			if hy {
				vel.Y = float64(-0.5 * vel.Y)
				hits++
			}
			box = end
		}
	}
	if hits < moves/4 {
		t.Errorf("only %d hits in %d moves: the test does not exercise collisions", hits, moves)
	}
}

// TestMoveHugeDisplacement: infinite and enormous moves stop at the first
// wall; NaN does not move.
func TestMoveHugeDisplacement(t *testing.T) {
	l := mustParse(t, `
##########
#........#
#P.......#
##########`)
	box := Box(Vec{20, 20}, Vec{10, 10})
	for _, c := range []struct {
		d    Vec
		want Vec
	}{
		{Vec{math.Inf(1), 0}, Vec{144 - 30, 0}},
		{Vec{math.Inf(-1), 0}, Vec{16 - 20, 0}},
		{Vec{0, 1e300}, Vec{0, 48 - 30}},
		{Vec{0, -1e300}, Vec{0, 16 - 20}},
		{Vec{math.NaN(), math.NaN()}, Vec{0, 0}},
	} {
		if got, _, _ := l.Move(box, c.d, true); got != c.want {
			t.Errorf("Move by %v = %v, want %v", c.d, got, c.want)
		}
	}
}

func mustParse(tb testing.TB, src string) *Level {
	tb.Helper()
	l, err := ParseLevel(tb.Name(), strings.NewReader(strings.TrimPrefix(src, "\n")))
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

// TestBodyRestsOnFloor drops random bodies until they stand on something,
// then checks they stay bit-for-bit there, on the ground, for many ticks.
func TestBodyRestsOnFloor(t *testing.T) {
	r := NewRNG(7)
	levels := []*Level{loadDemo(t)}
	for range 6 {
		levels = append(levels, randomLevel(&r, 10+r.Intn(30), 10+r.Intn(30), 0.2, 0.1))
	}
	rested := 0
	for i := range 300 {
		l := levels[i%len(levels)]
		size := Vec{r.Range(1, 40), r.Range(1, 40)}
		box, ok := randomClearBox(&r, l, size)
		if !ok {
			continue
		}
		b := Body{Pos: box.Min, Size: size}
		dt := []float64{1.0 / 30, 1.0 / 60, 1.0 / 144}[i%3]
		for range 2000 {
			b.Step(l, dt, 1800, 900)
			if b.Flags.Has(FlagOnGround) {
				break
			}
		}
		if !b.Flags.Has(FlagOnGround) {
			t.Fatalf("body %v never landed", b)
		}
		// Landing stops flush up to rounding; the next tick may still move
		// the body by an ulp or two toward the floor, then it is still.
		for range 3 {
			b.Step(l, dt, 1800, 900)
		}
		rested++
		rest := b.Pos
		for k := range 500 {
			b.Step(l, dt, 1800, 900)
			if b.Pos != rest || !b.Flags.Has(FlagOnGround) || b.Vel != (Vec{}) {
				t.Fatalf("resting body moved on tick %d: %+v, was at %v", k, b, rest)
			}
		}
	}
	if rested < 250 {
		t.Errorf("only %d bodies rested", rested)
	}
}

func TestOneWay(t *testing.T) {
	l := mustParse(t, `
##########
#........#
#........#
#..====..#
#........#
#P.......#
##########`)
	top := 3.0 * TileSize // the platform's top face
	size := Vec{10, 10}
	for _, c := range []struct {
		name   string
		pos    Vec // top-left
		d      Vec
		oneWay bool
		want   Vec
		hitY   bool
	}{
		{"lands from above", Vec{50, top - 10 - 5}, Vec{0, 20}, true, Vec{0, 5}, true},
		{"resting on it stays", Vec{50, top - 10}, Vec{0, 3}, true, Vec{0, 0}, true},
		{"passes up from below", Vec{50, top + 20}, Vec{0, -40}, true, Vec{0, -40}, false},
		{"passes sideways", Vec{20, top + 3}, Vec{80, 0}, true, Vec{80, 0}, false},
		{"bottom already inside falls through", Vec{50, top - 10 + 1}, Vec{0, 20}, true, Vec{0, 20}, false},
		{"oneWay off falls through", Vec{50, top - 10 - 5}, Vec{0, 20}, false, Vec{0, 20}, false},
		{"fast fall still lands", Vec{50, 17}, Vec{0, 1e6}, true, Vec{0, top - 10 - 17}, true},
		{"diagonal landing", Vec{20, top - 10 - 4}, Vec{40, 8}, true, Vec{40, 4}, true},
		{"misses beside it", Vec{115, top - 10 - 4}, Vec{10, 8}, true, Vec{10, 8}, false},
	} {
		got, hitX, hitY := l.Move(Box(c.pos, size), c.d, c.oneWay)
		if got != c.want || hitY != c.hitY || hitX {
			t.Errorf("%s: Move = %v, %v, %v; want %v, false, %v", c.name, got, hitX, hitY, c.want, c.hitY)
		}
	}
}

func ExampleLevel_Move() {
	l, _ := ParseLevel("example.txt", strings.NewReader(`########
#......#
#P.....#
#......#
########
`))
	// A 10x10 box falling at an absurd speed stops flush on the floor (the
	// top of row 4, y = 64), and one moving right stops at the wall.
	box := Box(Vec{20, 20}, Vec{10, 10})
	moved, hitX, hitY := l.Move(box, Vec{0, 1e9}, true)
	fmt.Println(moved, hitX, hitY, box.Add(moved).Max.Y)
	moved, hitX, hitY = l.Move(box, Vec{500, 0}, true)
	fmt.Println(moved, hitX, hitY, box.Add(moved).Max.X)
	// Output:
	// {0 34} false true 64
	// {82 0} true false 112
}
