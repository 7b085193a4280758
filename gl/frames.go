package gl

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// UVRect is one entry of a frame table: where a sprite's image lies in the
// atlas and how big it is drawn. A snapshot's Sprites.Frame indexes the
// table.
//
// U0, V0 are the texture coordinates of the image's top-left corner and U1,
// V1 of its bottom-right one (Atlas.UV gives them); swapping U0 and U1 flips
// the image horizontally, swapping V0 and V1 vertically. W and H are the
// size, in world pixels, the sprite is drawn at (usually the region's size
// in texels). Tile layers use the same table; the HUD's QuadBatch uses only
// the texture coordinates.
type UVRect struct {
	U0, V0, U1, V1 float32
	W, H           float32
}

// frameTable is a frame table on the GPU: a buffer texture of RGBA32F
// texels, two per frame, (u0, v0, u1, v1) then (w, h, 0, 0), read with
// texelFetch by the shaders. A buffer texture holds at least 65536 texels
// (32768 frames) on any GL 4.1 driver, far more than a uniform array.
type frameTable struct {
	buf, tex uint32
}

func newFrameTable(frames []UVRect) (frameTable, error) {
	var t frameTable
	if len(frames) == 0 {
		return t, errors.New("gl: empty frame table")
	}
	if limit := maxInt(gl.MAX_TEXTURE_BUFFER_SIZE) / 2; len(frames) > limit {
		return t, fmt.Errorf("gl: frame table of %d frames exceeds the driver's limit of %d", len(frames), limit)
	}
	data := make([]float32, 0, 8*len(frames))
	for _, f := range frames {
		data = append(data, f.U0, f.V0, f.U1, f.V1, f.W, f.H, 0, 0)
	}
	gl.GenBuffers(1, &t.buf)
	check("glGenBuffers")
	gl.BindBuffer(gl.TEXTURE_BUFFER, t.buf)
	check("glBindBuffer")
	gl.BufferData(gl.TEXTURE_BUFFER, 4*len(data), unsafe.Pointer(&data[0]), gl.STATIC_DRAW)
	check("glBufferData")
	gl.GenTextures(1, &t.tex)
	check("glGenTextures")
	gl.BindTexture(gl.TEXTURE_BUFFER, t.tex)
	check("glBindTexture")
	gl.TexBuffer(gl.TEXTURE_BUFFER, gl.RGBA32F, t.buf)
	check("glTexBuffer")
	gl.BindBuffer(gl.TEXTURE_BUFFER, 0)
	check("glBindBuffer")
	return t, nil
}

// bind binds the table to texture unit 1, where the shaders read u_frames.
func (t *frameTable) bind() {
	gl.ActiveTexture(gl.TEXTURE1)
	check("glActiveTexture")
	gl.BindTexture(gl.TEXTURE_BUFFER, t.tex)
	check("glBindTexture")
	gl.ActiveTexture(gl.TEXTURE0)
	check("glActiveTexture")
}

func (t *frameTable) delete() {
	if t.tex != 0 {
		gl.DeleteTextures(1, &t.tex)
		check("glDeleteTextures")
	}
	if t.buf != 0 {
		gl.DeleteBuffers(1, &t.buf)
		check("glDeleteBuffers")
	}
	*t = frameTable{}
}
