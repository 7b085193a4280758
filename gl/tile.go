package gl

import (
	"math"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/tandem-engine/tandem/snapshot"
)

// TileQuad is one tile of a [TileLayer]: its centre in world pixels (y
// down) and its index in the frame table, which also gives its size.
type TileQuad struct {
	X, Y  float32
	Frame uint16
}

// TileLayer is a static set of tiles, uploaded once (per level) and drawn
// in one call. It is a sprite batch whose sprites never move: the sprite
// program at alpha 1 with prev = curr, untinted and unrotated.
type TileLayer struct {
	b *SpriteBatch
}

// NewTileLayer uploads tiles, drawn from atlas with the given frame table.
// The layer does not own atlas.
//
// GL thread only.
func NewTileLayer(tiles []TileQuad, atlas *Texture, frames []Frame) (*TileLayer, error) {
	b, err := newSpriteBatch(len(tiles), atlas, frames, defaultLayout, false, gl.STATIC_DRAW)
	if err != nil {
		return nil, err
	}
	per := spriteWords * b.vertsPerSprite()
	for i, t := range tiles {
		x, y := math.Float32bits(t.X), math.Float32bits(t.Y)
		r := b.staging[i*per : i*per+spriteWords]
		one := math.Float32bits(1) // rotation (cos, sin) = (1, 0): upright
		r[0], r[1], r[2], r[3] = x, y, one, 0
		r[4], r[5], r[6], r[7] = x, y, one, 0
		r[8], r[9] = uint32(t.Frame), snapshot.White
		for v := spriteWords; v < per; v += spriteWords {
			copy(b.staging[i*per+v:], r)
		}
	}
	b.upload(len(tiles))
	b.staging = nil // uploaded once; the GPU keeps the copy
	return &TileLayer{b: b}, nil
}

// Draw draws the tiles transformed by viewProj (see [CameraMatrix]).
//
// GL thread only.
func (l *TileLayer) Draw(viewProj mgl32.Mat4) { l.b.Draw(viewProj, 1) }

// Len returns the number of tiles.
//
// GL thread only, like the rest of the layer.
func (l *TileLayer) Len() int { return l.b.n }

// Delete frees the layer (not the atlas). It must not be used afterwards.
//
// GL thread only.
func (l *TileLayer) Delete() { l.b.Delete() }
