package gl

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"

	"github.com/tandem-engine/tandem/shaders"
)

// Quad is one screen-space rectangle of a [QuadBatch]: a glyph, a bar of a
// graph, a panel. X, Y is its top-left corner and W, H its size, in
// framebuffer pixels (y down). Frame selects the texture coordinates in the
// frame table (its W and H are ignored); a 1x1 white atlas region gives a
// solid Tint. Tint is RGBA8, R in the low byte, straight alpha.
type Quad struct {
	X, Y, W, H float32
	Frame      uint16
	Tint       uint32
}

// quadWords is the size of a Quad's record in 32-bit words: x, y, w, h
// (float32), frame (uint32), tint (RGBA8).
const quadWords = 6

// QuadBatch draws screen-space quads for the HUD, not interpolated,
// uploading them on every Draw. HUD quads number in the hundreds, so the
// layout does not matter for speed; they are instanced (a 4-vertex strip
// per quad).
type QuadBatch struct {
	prog      *Program
	frames    frameTable
	atlas     *Texture
	vao, vbo  uint32
	capacity  int
	staging   []uint32
	locScreen int32
}

// NewQuadBatch creates a batch for capacity quads per Draw (it grows when
// given more), drawing from atlas with the given frame table. The batch
// does not own atlas.
//
// GL thread only.
func NewQuadBatch(capacity int, atlas *Texture, frames []UVRect) (*QuadBatch, error) {
	q := &QuadBatch{atlas: atlas}
	var err error
	if q.prog, err = NewProgram(shaders.Quad.Label(), shaders.Quad.Vert, shaders.Quad.Frag); err != nil {
		return nil, err
	}
	if q.frames, err = newFrameTable(frames); err != nil {
		q.Delete()
		return nil, fmt.Errorf("gl: new quad batch: %w", err)
	}
	q.locScreen = q.prog.Uniform("u_screen")
	setSamplers(q.prog)

	gl.GenVertexArrays(1, &q.vao)
	check("glGenVertexArrays")
	gl.BindVertexArray(q.vao)
	check("glBindVertexArray")
	gl.GenBuffers(1, &q.vbo)
	check("glGenBuffers")
	const stride = 4 * quadWords
	q.grow(max(capacity, 1))
	floatAttrib(0, 4, stride, 0) // a_rect
	uintAttrib(1, stride, 16)    // a_frame
	unormAttrib(2, stride, 20)   // a_tint
	for i := range uint32(3) {
		gl.VertexAttribDivisor(i, 1)
		check("glVertexAttribDivisor")
	}
	gl.BindVertexArray(0)
	check("glBindVertexArray")
	return q, nil
}

// grow makes the buffer hold n quads (allocating; only on growth).
func (q *QuadBatch) grow(n int) {
	q.capacity = n
	q.staging = make([]uint32, n*quadWords)
	gl.BindBuffer(gl.ARRAY_BUFFER, q.vbo)
	check("glBindBuffer")
	gl.BufferData(gl.ARRAY_BUFFER, 4*len(q.staging), nil, gl.STREAM_DRAW)
	check("glBufferData")
}

// Draw uploads quads and draws them in one call on a framebuffer of
// screenW x screenH pixels (the current viewport). It does not allocate
// once the batch has grown to the largest slice of quads.
//
// GL thread only.
func (q *QuadBatch) Draw(quads []Quad, screenW, screenH int) {
	n := len(quads)
	if n == 0 || screenW <= 0 || screenH <= 0 {
		return
	}
	if n > q.capacity {
		q.grow(max(n, 2*q.capacity))
	}
	s := q.staging[:n*quadWords]
	for i, t := range quads {
		r := s[i*quadWords : (i+1)*quadWords]
		r[0] = math.Float32bits(t.X)
		r[1] = math.Float32bits(t.Y)
		r[2] = math.Float32bits(t.W)
		r[3] = math.Float32bits(t.H)
		r[4] = uint32(t.Frame)
		r[5] = t.Tint
	}
	gl.BindBuffer(gl.ARRAY_BUFFER, q.vbo)
	check("glBindBuffer")
	// Orphan and fill in one call, with storage for these quads only:
	// orphaning the whole capacity (98,304 bytes at 4,096 quads) for the
	// probe's one quad a frame was an allocation the driver made for
	// nothing (docs/results/2026-11-27-sprites-ceiling3.md).
	gl.BufferData(gl.ARRAY_BUFFER, 4*len(s), unsafe.Pointer(&s[0]), gl.STREAM_DRAW)
	check("glBufferData")
	q.prog.Use()
	gl.Uniform2f(q.locScreen, float32(screenW), float32(screenH))
	check("glUniform2f")
	bindAtlas(q.atlas, &q.frames)
	gl.BindVertexArray(q.vao)
	check("glBindVertexArray")
	gl.DrawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, int32(n))
	check("glDrawArraysInstanced")
}

// Delete frees the batch (not the atlas). It must not be used afterwards.
//
// GL thread only.
func (q *QuadBatch) Delete() {
	if q.prog != nil {
		q.prog.Delete()
		q.prog = nil
	}
	q.frames.delete()
	deleteVertexArray(&q.vao, &q.vbo)
	q.staging, q.capacity = nil, 0
}
