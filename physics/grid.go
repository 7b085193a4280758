package physics

import (
	"math"
	"slices"
)

// Grid is a uniform-grid broadphase over a fixed set of boxes: space is cut
// into square cells, each box is listed in every cell it touches, and a
// query looks only at the cells its box touches. The per-cell lists live in
// two flat arrays built by a counting sort (start[k]..start[k+1] indexes
// items for cell k), so building reuses memory and a query allocates
// nothing beyond growing dst.
//
// Boxes outside the grid's bounds are kept in its edge cells, so queries
// stay correct for any box, only slower far outside.
type Grid struct {
	bounds     AABB
	cell, inv  float64
	cols, rows int
	start      []int32 // len cols*rows+1
	fill       []int32 // build cursor per cell
	items      []int32 // box indices, grouped by cell, ascending within a cell
	boxes      []AABB
}

// maxGridCells bounds NewGrid's allocation.
const maxGridCells = 1 << 24

// NewGrid returns an empty grid covering bounds with square cells of edge
// cell px. It panics if cell is not a finite positive number, if bounds is
// empty or not finite, or if that makes more than 2^24 cells: those are
// programmer mistakes.
func NewGrid(bounds AABB, cell float64) *Grid {
	if !(cell > 0) || math.IsInf(cell, 0) || bounds.Empty() ||
		math.IsInf(bounds.Min.X, 0) || math.IsInf(bounds.Min.Y, 0) ||
		math.IsInf(bounds.Max.X, 0) || math.IsInf(bounds.Max.Y, 0) {
		panic("physics: NewGrid: need finite non-empty bounds and cell > 0")
	}
	size := bounds.Size()
	cols := math.Ceil(size.X / cell)
	rows := math.Ceil(size.Y / cell)
	if float64(cols*rows) > maxGridCells {
		panic("physics: NewGrid: too many cells (use bigger cells)")
	}
	g := &Grid{bounds: bounds, cell: cell, inv: 1 / cell, cols: int(cols), rows: int(rows)}
	g.start = make([]int32, g.cols*g.rows+1)
	g.fill = make([]int32, g.cols*g.rows)
	return g
}

// Len returns the number of boxes in the grid.
func (g *Grid) Len() int { return len(g.boxes) }

// cellIndex returns the cell coordinate of v along one axis, clamped to
// [0, n-1] (NaN maps to 0).
func cellIndex(v, origin, inv float64, n int) int {
	t := math.Floor(float64(v-origin) * inv)
	if !(t >= 0) {
		return 0
	}
	if t >= float64(n) {
		return n - 1
	}
	return int(t)
}

// cellRange returns the inclusive cell ranges touched by b.
func (g *Grid) cellRange(b AABB) (x0, y0, x1, y1 int) {
	x0 = cellIndex(b.Min.X, g.bounds.Min.X, g.inv, g.cols)
	y0 = cellIndex(b.Min.Y, g.bounds.Min.Y, g.inv, g.rows)
	x1 = cellIndex(b.Max.X, g.bounds.Min.X, g.inv, g.cols)
	y1 = cellIndex(b.Max.Y, g.bounds.Min.Y, g.inv, g.rows)
	return x0, y0, x1, y1
}

// Build replaces the grid's boxes with boxes (copied; index i in queries is
// boxes[i]). Empty boxes are kept for indexing but listed in no cell, since
// they overlap nothing. Build allocates only when the grid needs more room
// than any earlier Build did.
func (g *Grid) Build(boxes []AABB) {
	if len(boxes) > math.MaxInt32 {
		panic("physics: Grid.Build: too many boxes")
	}
	g.boxes = append(g.boxes[:0], boxes...)
	clear(g.start)
	total := 0
	for _, b := range g.boxes {
		if b.Empty() {
			continue
		}
		x0, y0, x1, y1 := g.cellRange(b)
		for cy := y0; cy <= y1; cy++ {
			for cx := x0; cx <= x1; cx++ {
				g.start[cy*g.cols+cx+1]++
			}
		}
		total += (x1 - x0 + 1) * (y1 - y0 + 1)
	}
	if total > math.MaxInt32 {
		panic("physics: Grid.Build: boxes span too many cells (use bigger cells)")
	}
	for k := 1; k < len(g.start); k++ {
		g.start[k] += g.start[k-1]
	}
	copy(g.fill, g.start[:len(g.fill)])
	g.items = slices.Grow(g.items[:0], total)[:total]
	for i, b := range g.boxes {
		if b.Empty() {
			continue
		}
		x0, y0, x1, y1 := g.cellRange(b)
		for cy := y0; cy <= y1; cy++ {
			for cx := x0; cx <= x1; cx++ {
				k := cy*g.cols + cx
				g.items[g.fill[k]] = int32(i)
				g.fill[k]++
			}
		}
	}
}

// Query appends to dst the index of every box in the grid that overlaps q
// (AABB.Overlaps), each once, in ascending order, and returns the extended
// slice. It reads only the cells q touches. A box listed in several cells
// is reported only from the cell holding the top-left corner of its overlap
// with q, so no visited-set is needed and Query does not modify the grid.
func (g *Grid) Query(q AABB, dst []int32) []int32 {
	if q.Empty() {
		return dst
	}
	base := len(dst)
	x0, y0, x1, y1 := g.cellRange(q)
	for cy := y0; cy <= y1; cy++ {
		for cx := x0; cx <= x1; cx++ {
			k := cy*g.cols + cx
			for _, it := range g.items[g.start[k]:g.start[k+1]] {
				b := g.boxes[it]
				if !q.Overlaps(b) {
					continue
				}
				if cellIndex(max(q.Min.X, b.Min.X), g.bounds.Min.X, g.inv, g.cols) != cx ||
					cellIndex(max(q.Min.Y, b.Min.Y), g.bounds.Min.Y, g.inv, g.rows) != cy {
					continue
				}
				dst = append(dst, it)
			}
		}
	}
	slices.Sort(dst[base:])
	return dst
}
