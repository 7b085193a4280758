package gl

import (
	"math"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/tandem-engine/tandem/snapshot"
)

// NoTile is the frame of an empty cell of a [TileGrid].
const NoTile = math.MaxUint16

// TileGrid is a static grid of tiles: W x H cells of Size world pixels,
// the first cell's top-left corner at the origin, each cell's frame (an
// index in the frame table, which gives the drawn size) or NoTile.
// Invariant: len(Frames) == W*H, row-major: Frames[ty*W+tx].
type TileGrid struct {
	W, H   int
	Size   float32
	Frames []uint16
}

// ViewRect is the part of the world a frame shows, in world pixels:
// [MinX, MaxX) x [MinY, MaxY).
type ViewRect struct {
	MinX, MinY, MaxX, MaxY float32
}

// TileLayer draws a [TileGrid], only the cells in view: each frame costs
// what the view holds, not what the level holds, so a 4096 x 4096 level
// draws as fast as a small one and takes no GPU memory for its tiles out
// of view. It is a sprite batch whose sprites never move (the sprite
// program at alpha 1 with prev = curr, untinted and unrotated), refilled
// only when the range of cells in view changes.
type TileLayer struct {
	b    *SpriteBatch
	grid TileGrid
	// The cell range now in the batch, [x0, x1) x [y0, y1); x1 < 0 for none.
	x0, y0, x1, y1 int
}

// NewTileLayer returns a layer drawing grid from atlas with the given
// frame table. The layer keeps grid.Frames (read-only) and does not own
// atlas.
//
// GL thread only.
func NewTileLayer(grid TileGrid, atlas *Texture, frames []UVRect) (*TileLayer, error) {
	if grid.W < 0 || grid.H < 0 || len(grid.Frames) != grid.W*grid.H || !(grid.Size > 0) {
		panic("gl: NewTileLayer: grid's Frames is not W*H cells, or its Size is not positive")
	}
	b, err := newSpriteBatch(1024, atlas, frames, driverLayout(), defaultUpload)
	if err != nil {
		return nil, err
	}
	return &TileLayer{b: b, grid: grid, x1: -1}, nil
}

// Draw draws the cells that overlap view, transformed by viewProj (see
// [CameraMatrix]). It allocates only when the view holds more cells than
// ever before (a larger window).
//
// GL thread only.
func (l *TileLayer) Draw(viewProj mgl32.Mat4, view ViewRect) {
	g := &l.grid
	cell := func(v float32, n int) int { return min(max(int(math.Floor(float64(v/g.Size))), 0), n) }
	x0, y0 := cell(view.MinX, g.W), cell(view.MinY, g.H)
	// A cell is in view if its left edge is before MaxX.
	x1, y1 := cell(view.MaxX+g.Size, g.W), cell(view.MaxY+g.Size, g.H)
	if x0 != l.x0 || y0 != l.y0 || x1 != l.x1 || y1 != l.y1 {
		l.fill(x0, y0, x1, y1)
	}
	l.b.Draw(viewProj, 1)
}

// fill uploads the non-empty cells of [x0, x1) x [y0, y1).
func (l *TileLayer) fill(x0, y0, x1, y1 int) {
	l.x0, l.y0, l.x1, l.y1 = x0, y0, x1, y1
	g, b := &l.grid, l.b
	cells := max(x1-x0, 0) * max(y1-y0, 0)
	if cells > b.capacity {
		gl.BindVertexArray(b.vao)
		check("glBindVertexArray")
		b.grow(max(cells, 2*b.capacity))
	}
	per := spriteWords * b.layout.copies()
	one := math.Float32bits(1) // rotation (cos, sin) = (1, 0): upright
	b.buf.write(cells*per, func(s []uint32) int {
		n, cut := 0, true
		for ty := y0; ty < y1; ty++ {
			row := g.Frames[ty*g.W : (ty+1)*g.W]
			y := math.Float32bits((float32(ty) + 0.5) * g.Size)
			for tx := x0; tx < x1; tx++ {
				f := row[tx]
				if f == NoTile {
					continue
				}
				x := math.Float32bits((float32(tx) + 0.5) * g.Size)
				put(s, n, per, [spriteWords]uint32{x, y, one, 0, x, y, one, 0, uint32(f), snapshot.White})
				cut = cut && (int(f) >= len(b.cutFrames) || b.cutFrames[f])
				n++
			}
		}
		b.allWhite, b.allCut, b.n = true, cut, n // tiles are never tinted
		return n * per
	})
}

// Len returns the number of tiles drawn by the last Draw.
//
// GL thread only, like the rest of the layer.
func (l *TileLayer) Len() int { return l.b.n }

// Delete frees the layer (not the atlas). It must not be used afterwards.
//
// GL thread only.
func (l *TileLayer) Delete() { l.b.Delete() }
