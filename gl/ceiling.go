package gl

import (
	"errors"
	"math"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/tandem-engine/tandem/shaders"
)

// CeilingQuads draws the sprite batch's quads with nothing else: one draw
// of textured quads, all of one size and one atlas region, each given by
// its top-left corner alone (8 bytes), in the sprite batch's layout for
// the driver (layoutFor: instanced, or each corner repeated for its four
// vertices), through the sprites' fragment stage and blending (for
// cut-out art, as the sprites draw it: shaders.SpriteCut's fragment
// shader, blending off). No interpolation, no frame table, no tint, and
// no rotation unless asked: quads that turn (the bench game's -spin) are
// each given by their corner and their angle (12 bytes) and turned about
// their centre, since a turned quad costs a rasterizer more than an
// upright one (docs/results/2026-11-28-ceiling-spin.md). It is the
// bench's -ceiling: what the machine draws of the same fill, the same
// way, when the engine asks nothing more of it, so that a run of the
// engine can be read against it.
//
// GL thread only.
type CeilingQuads struct {
	prog     *Program
	atlas    *Texture
	frame    UVRect
	vao, ibo uint32
	buf      stream // the corners, uploaded as the sprite batch uploads its records
	layout   layout
	capacity int  // quads the buffer holds
	n        int  // quads uploaded
	cut      bool // cut-out art: drawn with blending off, as SpriteBatch draws it
	words    int  // a quad's record: x, y (upright), or x, y, angle (turning)

	locViewProj, locUV, locSize int32
	viewProj                    mgl32.Mat4 // here, not on Draw's stack: see SpriteBatch.viewProj
}

// NewCeilingQuads makes room for capacity quads, each drawn as frame of
// atlas (its region and its size), upright, or turned by its own angle
// when turn is set. The quads do not own atlas.
//
// GL thread only.
func NewCeilingQuads(capacity int, atlas *Texture, frame UVRect, turn bool) (*CeilingQuads, error) {
	return newCeilingQuads(capacity, atlas, frame, turn, driverLayout())
}

func newCeilingQuads(capacity int, atlas *Texture, frame UVRect, turn bool, l layout) (*CeilingQuads, error) {
	if capacity < 1 {
		return nil, errors.New("gl: new ceiling quads: capacity must be at least 1")
	}
	q := &CeilingQuads{atlas: atlas, frame: frame, capacity: capacity, layout: l, buf: stream{mode: defaultUpload}, words: 2}
	p, pCut := shaders.Ceiling, shaders.CeilingCut
	if turn {
		p, pCut, q.words = shaders.CeilingTurn, shaders.CeilingTurnCut, 3
	}
	if atlas.cutout(frame) {
		p, q.cut = pCut, true
	}
	var err error
	if q.prog, err = NewProgram(p.Label(), p.Vert, p.Frag); err != nil {
		return nil, err
	}
	q.locViewProj = q.prog.Uniform("u_viewProj")
	q.locUV = q.prog.Uniform("u_uv")
	q.locSize = q.prog.Uniform("u_size")
	q.prog.Use()
	gl.Uniform1i(q.prog.Uniform("u_atlas"), 0)
	check("glUniform1i")

	gl.GenVertexArrays(1, &q.vao)
	check("glGenVertexArrays")
	gl.BindVertexArray(q.vao)
	check("glBindVertexArray")
	gl.GenBuffers(1, &q.buf.vbo)
	check("glGenBuffers")
	q.buf.resize(q.words * capacity * q.layout.copies()) // and binds it
	floatAttrib(0, int32(q.words), int32(4*q.words), 0)
	if q.layout == instanced {
		gl.VertexAttribDivisor(0, 1)
		check("glVertexAttribDivisor")
	} else {
		gl.GenBuffers(1, &q.ibo)
		check("glGenBuffers")
		quadIndices(q.ibo, capacity)
	}
	gl.BindVertexArray(0)
	check("glBindVertexArray")
	return q, nil
}

// Upload sends the quads' top-left corners, x then y for each (world px),
// and for quads that turn their angles about their centres (radians,
// clockwise on screen), one a quad: as many quads as both hold, at most
// the capacity (the rest are not drawn); angles is not read for upright
// quads. It writes them as the sprite batch writes its records
// (defaultUpload). It does not allocate.
//
// GL thread only.
func (q *CeilingQuads) Upload(xy, angles []float32) {
	if q.words == 3 {
		q.uploadTurning(xy, angles)
		return
	}
	q.n = min(len(xy)/2, q.capacity)
	per := 2 * q.layout.copies()
	q.buf.write(q.n*per, func(s []uint32) int {
		for i := range q.n {
			x, y := math.Float32bits(xy[2*i]), math.Float32bits(xy[2*i+1])
			for v := i * per; v < (i+1)*per; v += 2 {
				s[v], s[v+1] = x, y
			}
		}
		return q.n * per
	})
}

// uploadTurning is Upload for quads that turn: three words a record, in a
// loop of its own, so that the upright quads' loop is the one the ceiling
// always had.
func (q *CeilingQuads) uploadTurning(xy, angles []float32) {
	q.n = min(len(xy)/2, len(angles), q.capacity)
	per := 3 * q.layout.copies()
	q.buf.write(q.n*per, func(s []uint32) int {
		for i := range q.n {
			x, y, a := math.Float32bits(xy[2*i]), math.Float32bits(xy[2*i+1]), math.Float32bits(angles[i])
			for v := i * per; v < (i+1)*per; v += 3 {
				s[v], s[v+1], s[v+2] = x, y, a
			}
		}
		return q.n * per
	})
}

// Draw draws the uploaded quads transformed by viewProj (see
// [CameraMatrix]) in one draw call. It does not allocate.
//
// GL thread only.
func (q *CeilingQuads) Draw(viewProj mgl32.Mat4) {
	if q.n == 0 {
		return
	}
	q.viewProj = viewProj
	q.prog.Use()
	gl.UniformMatrix4fv(q.locViewProj, 1, false, &q.viewProj[0])
	check("glUniformMatrix4fv")
	f := &q.frame
	gl.Uniform4f(q.locUV, f.U0, f.V0, f.U1, f.V1)
	check("glUniform4f")
	gl.Uniform2f(q.locSize, f.W, f.H)
	check("glUniform2f")
	gl.BindTexture(gl.TEXTURE_2D, q.atlas.id)
	check("glBindTexture")
	gl.BindVertexArray(q.vao)
	check("glBindVertexArray")
	if q.cut {
		gl.Disable(gl.BLEND)
		check("glDisable")
	}
	if q.layout == instanced {
		gl.DrawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, int32(q.n))
		check("glDrawArraysInstanced")
	} else {
		gl.DrawElementsWithOffset(gl.TRIANGLES, int32(6*q.n), gl.UNSIGNED_INT, 0)
		check("glDrawElements")
	}
	if q.cut {
		gl.Enable(gl.BLEND)
		check("glEnable")
	}
}

// Len returns the number of quads the last Upload sent.
//
// GL thread only.
func (q *CeilingQuads) Len() int { return q.n }

// Delete frees the program and the buffer (not the atlas).
//
// GL thread only.
func (q *CeilingQuads) Delete() {
	if q.prog != nil {
		q.prog.Delete()
		q.prog = nil
	}
	deleteVertexArray(&q.vao, &q.buf.vbo, &q.ibo)
	q.n, q.capacity, q.buf.staging = 0, 0, nil
}
