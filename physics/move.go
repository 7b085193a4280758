package physics

import "math"

// Skin is the contact tolerance of swept movement, in pixels. A box that
// reaches into a tile by no more than Skin (rounding after a stop can leave
// it a few ulps inside) is treated as touching the tile, not overlapping
// it: it can slide along the tile, and it cannot move further into it.
// Positions in a level of MaxLevelTiles tiles have ulps below 1e-11 px, so
// Skin is far larger than any rounding and far smaller than a pixel.
const Skin = 0x1p-20

// tileCoord returns floor(v / TileSize), clamped to [-1, n]: every tile
// outside the level is solid, so one index per side stands for all of them.
// NaN maps to -1.
func tileCoord(v float64, n int) int {
	t := math.Floor(v * (1.0 / TileSize))
	if !(t >= -1) {
		return -1
	}
	if t > float64(n) {
		return n
	}
	return int(t)
}

// span returns the first and last tile index, along one axis, overlapped by
// [lo, hi) shrunk by Skin at both ends (clamped as tileCoord). A box
// thinner than 2*Skin counts as the tile holding its centre.
func span(lo, hi float64, n int) (first, last int) {
	first = tileCoord(lo+Skin, n)
	last = tileCoord(hi-Skin, n)
	if last < first {
		m := tileCoord(float64(lo+hi)*0.5, n)
		return m, m
	}
	return first, last
}

// Move sweeps box by delta through the level and returns how far it got.
// It is the one collision routine of the package: the character and every
// other tile-colliding body use it.
//
// The sweep is axis-separated: first along x at the box's starting rows,
// then along y at the columns reached after the x move. Each leg scans
// every tile column (or row) the box's leading face crosses over the whole
// displacement, in order, like a DDA over the grid, and stops flush at the
// first face of a blocking tile; so nothing tunnels, at any speed. (The
// path is therefore an L, which may pass around the corner of a tile that
// the straight diagonal would clip; it never passes through a tile.)
//
// Solid tiles block both legs; so does everything outside the level. A
// one-way tile blocks only the y leg, only when delta.Y > 0, and only when
// oneWay is true. Because the scan covers rows strictly below the box's
// starting bottom edge (within Skin), a one-way tile blocks exactly the
// bodies whose bottom was at or above its top at the start of the move:
// bodies land on it from above and pass through from below and from the
// sides, including a body that is already partly inside it.
//
// moved has the sign of delta on each axis and is no longer than it;
// hitX and hitY report whether that leg was stopped by a tile. A zero or
// NaN component does not move. Move assumes box starts inside the level
// and clear of solid tiles (touching them is fine); it does not push a box
// out of tiles it already overlaps.
func (l *Level) Move(box AABB, delta Vec, oneWay bool) (moved Vec, hitX, hitY bool) {
	moved.X, hitX = l.sweepX(box, delta.X)
	box.Min.X += moved.X
	box.Max.X += moved.X
	moved.Y, hitY = l.sweepY(box, delta.Y, oneWay)
	return moved, hitX, hitY
}

// columnBlocks reports whether any tile in column tx, rows y0..y1, is solid.
func (l *Level) columnBlocks(tx, y0, y1 int) bool {
	if tx < 0 || tx >= l.W {
		return true
	}
	for ty := y0; ty <= y1; ty++ {
		if l.At(tx, ty) == TileSolid {
			return true
		}
	}
	return false
}

// rowBlocks reports whether any tile in row ty, columns x0..x1, blocks; a
// one-way tile blocks when oneWay is true.
func (l *Level) rowBlocks(ty, x0, x1 int, oneWay bool) bool {
	if ty < 0 || ty >= l.H {
		return true
	}
	for tx := x0; tx <= x1; tx++ {
		switch l.At(tx, ty) {
		case TileSolid:
			return true
		case TileOneWay:
			if oneWay {
				return true
			}
		}
	}
	return false
}

func (l *Level) sweepX(box AABB, dx float64) (float64, bool) {
	if !(dx > 0 || dx < 0) {
		return 0, false
	}
	y0, y1 := span(box.Min.Y, box.Max.Y, l.H)
	if dx > 0 {
		edge := box.Max.X
		target := edge + dx
		// First column whose left face is at or beyond the leading edge
		// (a column the edge reaches into by <= Skin counts as ahead).
		for tx := tileCoord(edge-Skin, l.W) + 1; ; tx++ {
			face := float64(float64(tx) * TileSize)
			if !(face < target) {
				return dx, false
			}
			if l.columnBlocks(tx, y0, y1) {
				return max(face-edge, 0), true
			}
		}
	}
	edge := box.Min.X
	target := edge + dx
	for tx := tileCoord(edge+Skin, l.W) - 1; ; tx-- {
		face := float64(float64(tx+1) * TileSize)
		if !(face > target) {
			return dx, false
		}
		if l.columnBlocks(tx, y0, y1) {
			return min(face-edge, 0), true
		}
	}
}

func (l *Level) sweepY(box AABB, dy float64, oneWay bool) (float64, bool) {
	if !(dy > 0 || dy < 0) {
		return 0, false
	}
	x0, x1 := span(box.Min.X, box.Max.X, l.W)
	if dy > 0 {
		edge := box.Max.Y
		target := edge + dy
		for ty := tileCoord(edge-Skin, l.H) + 1; ; ty++ {
			face := float64(float64(ty) * TileSize)
			if !(face < target) {
				return dy, false
			}
			if l.rowBlocks(ty, x0, x1, oneWay) {
				return max(face-edge, 0), true
			}
		}
	}
	edge := box.Min.Y
	target := edge + dy
	for ty := tileCoord(edge+Skin, l.H) - 1; ; ty-- {
		face := float64(float64(ty+1) * TileSize)
		if !(face > target) {
			return dy, false
		}
		if l.rowBlocks(ty, x0, x1, false) {
			return min(face-edge, 0), true
		}
	}
}
