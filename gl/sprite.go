package gl

import (
	"fmt"
	"math"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/tandem-engine/tandem/shaders"
	"github.com/tandem-engine/tandem/snapshot"
)

// spriteWords is the size of one sprite's record in 32-bit words (40
// bytes): prev x, y, cos, sin; curr x, y, cos, sin (float32); frame
// (uint32); tint (RGBA8, R in the low byte, read as normalized bytes).
//
// The rotation travels as a unit vector computed here, once per snapshot,
// rather than as an angle the vertex shader turns into sin and cos for
// each of a sprite's four vertices on every frame: under llvmpipe the
// vertex shader runs on the render thread, where its sin and cos were a
// measurable share of a frame (docs/results/2026-11-26-comment-logs.md).
// The shader blends the two vectors and normalizes (nlerp): the shorter
// arc, as snapshot.LerpAngle takes, at a rate within 0.2% of uniform for
// the turns of a single tick (under 30 degrees).
const spriteWords = 10

// SpriteBatch draws every sprite of a layer in one draw call, interpolating
// between two snapshots on the GPU: each sprite's record holds its state in
// prev and in curr, and the vertex shader (shaders.Sprite) blends them with
// the u_alpha uniform, positions linearly and angles along the shorter arc.
// So a frame without a new snapshot costs one uniform and one draw call.
//
// The layout is the driver's (layoutFor): expanded on a software
// rasterizer, instanced on a GPU, where it is the usual pick and a
// quarter of the vertex data. Each upload writes the records straight
// into the buffer, mapped with GL_MAP_INVALIDATE_BUFFER_BIT (stream,
// defaultUpload): a fresh store, as orphaning gave (which spared 5300 page
// faults a frame at 50,000 sprites, and the GPU's wait on a draw still
// reading the old one: docs/results/2026-11-22-sprite-layout.md), without
// a Go copy of the records.
//
// GL thread only, like everything that touches it.
type SpriteBatch struct {
	prog *spriteProg
	// white is prog without the tint (shaders.SpriteWhite), drawn when
	// every sprite uploaded is untinted (allWhite): the same pixels for
	// less work a pixel, the fill being most of a frame under llvmpipe
	// (docs/results/2026-11-26-sprite-scaling.md). cut is white for
	// frames of cut-out art (Texture.cutout), drawn with blending off when
	// every sprite uploaded is untinted and of such a frame (allCut): the
	// same pixels again, without reading and blending the framebuffer's
	// (docs/results/2026-11-26-sprites-ceiling.md). It is nil when the
	// table has no such frame.
	white, cut *spriteProg
	allWhite   bool
	allCut     bool   // every sprite uploaded is untinted, of a frame cutFrames marks
	cutFrames  []bool // per frame of the table: cut-out art (Texture.cutout)
	frames     frameTable
	uvs        []UVRect // the frame table as given, for the overlay's texture coordinates
	atlas      *Texture

	vao, ibo uint32
	buf      stream // the records
	layout   layout
	capacity int // sprites the buffers hold: at least one more than uploaded, for the overlay
	n        int // sprites uploaded

	overlay  overlayQuad // drawn by the next Draw when on (SetOverlay)
	blendOff bool        // use turned blending off: done turns it on
	// viewProj lives here, not on Draw's stack: go-gl's cgo calls make
	// their pointer arguments escape, and a stack matrix would then be
	// allocated on every Draw.
	viewProj mgl32.Mat4
}

// spriteProg is one of the batch's programs and its uniforms' locations.
type spriteProg struct {
	p                                 *Program
	viewProj, alpha                   int32
	overlayAt, overlayRect, overlayUV int32
}

// newSpriteProg builds the program of shaders p and points its samplers
// at the batch's texture units.
func newSpriteProg(p shaders.Program) (*spriteProg, error) {
	prog, err := NewProgram(p.Label(), p.Vert, p.Frag)
	if err != nil {
		return nil, err
	}
	return spriteProgOf(prog), nil
}

// spriteProgOf looks up prog's uniforms (a sprite program's) and sets its
// samplers.
func spriteProgOf(prog *Program) *spriteProg {
	setSamplers(prog)
	return &spriteProg{p: prog, viewProj: prog.Uniform("u_viewProj"), alpha: prog.Uniform("u_alpha"),
		overlayAt: prog.Uniform("u_overlayAt"), overlayRect: prog.Uniform("u_overlayRect"), overlayUV: prog.Uniform("u_overlayUV")}
}

// NewSpriteBatch creates a batch for capacity sprites (it grows when a
// snapshot holds more), drawing from atlas with the given frame table. It
// compiles its own program. The batch does not own atlas: delete the
// texture after the batch.
//
// GL thread only.
func NewSpriteBatch(capacity int, atlas *Texture, frames []UVRect) (*SpriteBatch, error) {
	return newSpriteBatch(capacity, atlas, frames, driverLayout(), defaultUpload)
}

func newSpriteBatch(capacity int, atlas *Texture, frames []UVRect, l layout, m uploadMode) (*SpriteBatch, error) {
	b := &SpriteBatch{atlas: atlas, layout: l, buf: stream{mode: m}, uvs: frames}
	var err error
	if b.prog, err = newSpriteProg(shaders.Sprite); err != nil {
		return nil, err
	}
	if b.frames, err = newFrameTable(frames); err != nil {
		b.Delete()
		return nil, fmt.Errorf("gl: new sprite batch: %w", err)
	}
	if b.white, err = newSpriteProg(shaders.SpriteWhite); err != nil {
		b.Delete()
		return nil, err
	}
	b.cutFrames = make([]bool, len(frames))
	anyCut := false
	for i, f := range frames {
		b.cutFrames[i] = atlas.cutout(f)
		anyCut = anyCut || b.cutFrames[i]
	}
	if anyCut {
		if b.cut, err = newSpriteProg(shaders.SpriteCut); err != nil {
			b.Delete()
			return nil, err
		}
	}

	gl.GenVertexArrays(1, &b.vao)
	check("glGenVertexArrays")
	gl.BindVertexArray(b.vao)
	check("glBindVertexArray")
	gl.GenBuffers(1, &b.buf.vbo)
	check("glGenBuffers")
	gl.BindBuffer(gl.ARRAY_BUFFER, b.buf.vbo)
	check("glBindBuffer")
	const stride = 4 * spriteWords
	floatAttrib(0, 4, stride, 0)  // a_prev
	floatAttrib(1, 4, stride, 16) // a_curr
	uintAttrib(2, stride, 32)     // a_frame
	unormAttrib(3, stride, 36)    // a_tint: bytes R, G, B, A in memory (little-endian uint32)
	if l == instanced {
		for i := range uint32(4) {
			gl.VertexAttribDivisor(i, 1)
			check("glVertexAttribDivisor")
		}
	} else {
		gl.GenBuffers(1, &b.ibo)
		check("glGenBuffers")
	}
	b.grow(max(capacity, 0) + 1) // and the overlay's slot
	gl.BindVertexArray(0)
	check("glBindVertexArray")
	return b, nil
}

// grow makes the buffers hold n sprites. It allocates; Upload calls it only
// when a snapshot outgrows the batch, doubling, so steady state never does.
// The batch's vertex array must be bound.
func (b *SpriteBatch) grow(n int) {
	b.capacity = n
	b.buf.resize(n * spriteWords * b.layout.copies())
	if b.layout == expanded {
		quadIndices(b.ibo, n)
	}
}

// Upload sends the sprites of the pair (prev, curr) to the GPU. Call it
// when the pair is new (Ring.Acquire reported fresh); frames in between
// only Draw with a new alpha. prev may equal curr.
//
// Slot i of curr is blended from the slot of prev that holds the same
// sprite, snapshot.PrevSlot (slot i, or where a lower layer's growth moved
// it); a slot with none has its prev state set to its curr state, so it is
// drawn at curr for every alpha: it snaps, never slides. Slots past
// curr's length are not drawn.
//
// It does not allocate once the batch has grown to the largest snapshot.
//
// GL thread only.
func (b *SpriteBatch) Upload(prev, curr *snapshot.Snapshot) {
	c := &curr.Sprites
	n := c.Len()
	if n >= b.capacity { // one slot more than the sprites: the overlay's
		gl.BindVertexArray(b.vao)
		check("glBindVertexArray")
		b.grow(max(n+1, 2*b.capacity))
	}
	p := &prev.Sprites
	per := spriteWords * b.layout.copies()
	b.buf.write(n*per, func(s []uint32) int {
		white, cut := true, true
		for i := range n {
			cx, cy, ca, cs := c.X[i], c.Y[i], c.Angle[i], c.Scale[i]
			px, py, pa, ps := cx, cy, ca, cs
			if j, ok := snapshot.PrevSlot(prev, curr, i); ok {
				px, py, pa, ps = p.X[j], p.Y[j], p.Angle[j], p.Scale[j]
			}
			ccos, csin := rotation(ca, cs)
			pcos, psin := ccos, csin
			if pa != ca || ps != cs {
				pcos, psin = rotation(pa, ps)
			}
			put(s, i, per, [spriteWords]uint32{
				math.Float32bits(px), math.Float32bits(py), math.Float32bits(pcos), math.Float32bits(psin),
				math.Float32bits(cx), math.Float32bits(cy), math.Float32bits(ccos), math.Float32bits(csin),
				uint32(c.Frame[i]), c.Tint[i]})
			white = white && c.Tint[i] == snapshot.White
			f := int(c.Frame[i])
			cut = cut && (f >= len(b.cutFrames) || b.cutFrames[f]) // a frame past the table draws nothing
		}
		b.allWhite, b.allCut, b.n = white, white && cut, n
		return n * per
	})
}

// put stores record r as slot i's in s, once for each of the per/spriteWords
// copies the layout keeps. It writes s and never reads it: s may be a mapped
// buffer, which a GPU's driver may make slow to read.
func put(s []uint32, i, per int, r [spriteWords]uint32) {
	for v := i * per; v < (i+1)*per; v += spriteWords {
		*(*[spriteWords]uint32)(s[v:]) = r
	}
}

// rotation returns the vector of angle a and length scale (0 counts as
// 1): the shader blends its direction and its length separately. The
// unrotated, unscaled sprites most scenes are made of take a fast path.
func rotation(a, scale float32) (cos, sin float32) {
	if scale == 0 {
		scale = 1
	}
	if a == 0 {
		return scale, 0
	}
	s, c := math.Sincos(float64(a))
	return float32(c) * scale, float32(s) * scale
}

// Draw draws the uploaded sprites at blend factor alpha (0 draws prev, 1
// draws curr), transformed by viewProj (see [CameraMatrix]), in one draw
// call, and over them the overlay SetOverlay gave, if any. It does not
// allocate.
//
// GL thread only.
func (b *SpriteBatch) Draw(viewProj mgl32.Mat4, alpha float32) {
	n := b.n
	if b.overlay.on {
		n++ // the overlay is the slot after the sprites: drawn last, over them
	}
	if n == 0 {
		return
	}
	b.use(viewProj, alpha, b.n)
	b.drawRange(0, n)
	b.done()
}

// drawRange draws slots first to first+n-1 of the buffers, as they are
// bound by use. GL 4.1 has no base instance: the instanced layout draws
// a range that starts past slot 0 through SpriteLayers, which moves its
// attribute pointers.
func (b *SpriteBatch) drawRange(first, n int) {
	if b.layout == instanced {
		gl.DrawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, int32(n))
		check("glDrawArraysInstanced")
		return
	}
	gl.DrawElementsWithOffset(gl.TRIANGLES, int32(6*n), gl.UNSIGNED_INT, uintptr(4*6*first))
	check("glDrawElements")
}

// Len returns the number of sprites the last Upload sent.
//
// GL thread only (it reads what Upload wrote).
func (b *SpriteBatch) Len() int { return b.n }

// Delete frees the batch's program, buffers and frame table (not the
// atlas). The batch must not be used afterwards.
//
// GL thread only.
func (b *SpriteBatch) Delete() {
	for _, p := range []**spriteProg{&b.prog, &b.white, &b.cut} {
		if *p != nil {
			(*p).p.Delete()
			*p = nil
		}
	}
	b.frames.delete()
	deleteVertexArray(&b.vao, &b.buf.vbo, &b.ibo)
	b.buf.staging, b.n, b.capacity = nil, 0, 0
}

// floatAttrib enables float vertex attribute i of size components.
func floatAttrib(i uint32, size, stride int32, offset uintptr) {
	gl.EnableVertexAttribArray(i)
	check("glEnableVertexAttribArray")
	gl.VertexAttribPointerWithOffset(i, size, gl.FLOAT, false, stride, offset)
	check("glVertexAttribPointer")
}

// uintAttrib enables attribute i as one unsigned integer (an index), read
// at offset with the given stride from the bound array buffer.
func uintAttrib(i uint32, stride int32, offset uintptr) {
	gl.EnableVertexAttribArray(i)
	check("glEnableVertexAttribArray")
	gl.VertexAttribIPointerWithOffset(i, 1, gl.UNSIGNED_INT, stride, offset)
	check("glVertexAttribIPointer")
}

// unormAttrib enables attribute i as four normalized bytes (a colour).
func unormAttrib(i uint32, stride int32, offset uintptr) {
	gl.EnableVertexAttribArray(i)
	check("glEnableVertexAttribArray")
	gl.VertexAttribPointerWithOffset(i, 4, gl.UNSIGNED_BYTE, true, stride, offset)
	check("glVertexAttribPointer")
}

// setSamplers points the program's samplers at the units bindAtlas uses.
func setSamplers(p *Program) {
	p.Use()
	gl.Uniform1i(p.Uniform("u_atlas"), 0)
	check("glUniform1i")
	gl.Uniform1i(p.Uniform("u_frames"), 1)
	check("glUniform1i")
}

// bindAtlas binds the atlas to texture unit 0 and the frame table to unit 1.
func bindAtlas(atlas *Texture, frames *frameTable) {
	frames.bind()
	gl.BindTexture(gl.TEXTURE_2D, atlas.id)
	check("glBindTexture")
}

// deleteVertexArray deletes a vertex array and its buffers, zeroing the
// names; zero names are skipped.
func deleteVertexArray(vao *uint32, bufs ...*uint32) {
	if *vao != 0 {
		gl.DeleteVertexArrays(1, vao)
		check("glDeleteVertexArrays")
		*vao = 0
	}
	for _, buf := range bufs {
		if *buf != 0 {
			gl.DeleteBuffers(1, buf)
			check("glDeleteBuffers")
			*buf = 0
		}
	}
}

// use makes the batch's program current with its uniforms, atlas and
// vertex array: the untinted program when every sprite uploaded is
// untinted, and for cut-out art the one without blending, which it turns
// off until done. overlayAt is the slot the overlay is drawn from, when
// one is on and the draw reaches it. Draw's and SpriteLayers.Draw's.
func (b *SpriteBatch) use(viewProj mgl32.Mat4, alpha float32, overlayAt int) {
	b.viewProj = viewProj
	o := &b.overlay
	prog := b.prog
	switch {
	case b.allCut && b.cut != nil && (!o.on || b.cutFrames[o.frame]):
		prog = b.cut
		gl.Disable(gl.BLEND)
		check("glDisable")
		b.blendOff = true
	case b.allWhite:
		prog = b.white
	}
	prog.p.Use()
	gl.UniformMatrix4fv(prog.viewProj, 1, false, &b.viewProj[0])
	check("glUniformMatrix4fv")
	gl.Uniform1f(prog.alpha, alpha)
	check("glUniform1f")
	if !o.on {
		overlayAt = -1
	}
	gl.Uniform1i(prog.overlayAt, int32(overlayAt))
	check("glUniform1i")
	if o.on {
		gl.Uniform4f(prog.overlayRect, o.rect[0], o.rect[1], o.rect[2], o.rect[3])
		check("glUniform4f")
		uv := &b.uvs[o.frame]
		gl.Uniform4f(prog.overlayUV, uv.U0, uv.V0, uv.U1, uv.V1)
		check("glUniform4f")
	}
	bindAtlas(b.atlas, &b.frames)
	gl.BindVertexArray(b.vao)
	check("glBindVertexArray")
}

// done ends a draw that use began: it turns blending back on if use
// turned it off (every other draw relies on it; see Init), and the
// overlay off (it is for one draw).
func (b *SpriteBatch) done() {
	if b.blendOff {
		gl.Enable(gl.BLEND)
		check("glEnable")
		b.blendOff = false
	}
	b.overlay.on = false
}
