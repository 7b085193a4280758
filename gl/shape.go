package gl

import (
	"math"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/tandem-engine/tandem/shaders"
	"github.com/tandem-engine/tandem/snapshot"
)

// shapeWords is the size of one shape's record in 32-bit words (64
// bytes): prev x, y, a, b; curr x, y, a, b; c, d, e, f (float32); kind,
// polygon data, width (bits); tint (RGBA8).
const shapeWords = 16

// shapeGlyph is the kind of a glyph's record (after snapshot's kinds).
const shapeGlyph = 7

// shapeBuckets is one bucket per layer in the world, then one per layer
// on screen.
const shapeBuckets = 2 * snapshot.Layers

// ShapeBatch draws a snapshot's shapes and text: every shape and glyph of
// a layer, in world or on screen, in one instanced draw call of
// shaders.Shape, interpolated on the GPU between two snapshots like the
// sprites (each record holds its prev and curr state, blended by
// u_alpha). Edges are anti-aliased in the fragment shader from each
// shape's signed distance, so a shape costs one quad of fill whatever
// its kind.
//
// GL thread only, like everything that touches it.
type ShapeBatch struct {
	prog     *Program
	vao, vbo uint32
	// The polygons' corners, in a buffer texture (RG32F).
	ptsBuf, ptsTex uint32
	ptsCap         int

	capacity int
	staging  []uint32 // the records, sorted by bucket
	scratch  []uint32 // the records in the snapshot's order
	bucketOf []uint8
	first    [shapeBuckets + 1]int
	places   []GlyphPlace
	runEnd   []int32 // where each run's glyphs end in places

	shapePairs, textPairs snapshot.Pairs

	locViewProj, locAlpha, locPx, locGlyphSize int32
	viewProj                                   mgl32.Mat4
	glyphs                                     *GlyphCache
	zoom                                       float32 // the world's, for text: SetZoom
}

// SetZoom tells the batch the camera's zoom, so that the next Upload
// rasterises text in the world at the size it shows (a zoom of 2 draws
// 16 px text from 32 px glyphs). Text on screen is not zoomed.
//
// GL thread only.
func (b *ShapeBatch) SetZoom(zoom float32) { b.zoom = zoom }

// NewShapeBatch makes a batch with room for capacity shapes and glyphs
// (it grows when a snapshot holds more).
//
// GL thread only.
func NewShapeBatch(capacity int) (*ShapeBatch, error) {
	b := &ShapeBatch{}
	var err error
	if b.prog, err = NewProgram(shaders.Shape.Label(), shaders.Shape.Vert, shaders.Shape.Frag); err != nil {
		return nil, err
	}
	b.locViewProj = b.prog.Uniform("u_viewProj")
	b.locAlpha = b.prog.Uniform("u_alpha")
	b.locPx = b.prog.Uniform("u_px")
	b.locGlyphSize = b.prog.Uniform("u_glyphSize")
	b.prog.Use()
	gl.Uniform1i(b.prog.Uniform("u_points"), 1)
	check("glUniform1i")
	gl.Uniform1i(b.prog.Uniform("u_glyphs"), 2)
	check("glUniform1i")

	gl.GenVertexArrays(1, &b.vao)
	check("glGenVertexArrays")
	gl.BindVertexArray(b.vao)
	check("glBindVertexArray")
	gl.GenBuffers(1, &b.vbo)
	check("glGenBuffers")
	b.grow(max(capacity, 16))
	b.point(0)
	for i := range uint32(5) {
		gl.EnableVertexAttribArray(i)
		check("glEnableVertexAttribArray")
		gl.VertexAttribDivisor(i, 1)
		check("glVertexAttribDivisor")
	}
	gl.BindVertexArray(0)
	check("glBindVertexArray")

	gl.GenBuffers(1, &b.ptsBuf)
	check("glGenBuffers")
	gl.GenTextures(1, &b.ptsTex)
	check("glGenTextures")
	b.growPoints(256)
	return b, nil
}

// point points the attributes at the records from record first on: GL
// 4.1 has no base instance, so a bucket is drawn by moving the pointers.
// The batch's vertex array and buffer must be bound.
func (b *ShapeBatch) point(first int) {
	const stride = 4 * shapeWords
	off := uintptr(first * stride)
	gl.VertexAttribPointerWithOffset(0, 4, gl.FLOAT, false, stride, off)
	gl.VertexAttribPointerWithOffset(1, 4, gl.FLOAT, false, stride, off+16)
	gl.VertexAttribPointerWithOffset(2, 4, gl.FLOAT, false, stride, off+32)
	gl.VertexAttribIPointerWithOffset(3, 3, gl.UNSIGNED_INT, stride, off+48)
	gl.VertexAttribPointerWithOffset(4, 4, gl.UNSIGNED_BYTE, true, stride, off+60)
	check("glVertexAttribPointer")
}

// grow makes the buffers hold n records (allocating: only on growth).
func (b *ShapeBatch) grow(n int) {
	b.capacity = n
	b.staging = make([]uint32, n*shapeWords)
	b.scratch = make([]uint32, n*shapeWords)
	b.bucketOf = make([]uint8, n)
	gl.BindBuffer(gl.ARRAY_BUFFER, b.vbo)
	check("glBindBuffer")
	gl.BufferData(gl.ARRAY_BUFFER, 4*len(b.staging), nil, gl.STREAM_DRAW)
	check("glBufferData")
}

// growPoints makes the corner buffer hold n floats.
func (b *ShapeBatch) growPoints(n int) {
	b.ptsCap = n
	gl.BindBuffer(gl.TEXTURE_BUFFER, b.ptsBuf)
	check("glBindBuffer")
	gl.BufferData(gl.TEXTURE_BUFFER, 4*n, nil, gl.STREAM_DRAW)
	check("glBufferData")
	gl.BindTexture(gl.TEXTURE_BUFFER, b.ptsTex)
	check("glBindTexture")
	gl.TexBuffer(gl.TEXTURE_BUFFER, gl.RG32F, b.ptsBuf)
	check("glTexBuffer")
}

// Upload sends the shapes and text of the pair (prev, curr) to the GPU,
// laying the text out with glyphs (nil: no text is drawn). Call it when
// the pair is new; frames in between only Draw with a new alpha. Each
// shape and run of curr is blended from its partner in prev (same Key and
// Gen, see snapshot.Draw); one without is drawn at curr for every alpha.
// It does not allocate once the batch has grown to the largest snapshot
// and glyphs holds its text.
//
// GL thread only.
func (b *ShapeBatch) Upload(prev, curr *snapshot.Snapshot, glyphs *GlyphCache) {
	b.glyphs = glyphs
	cd, pd := &curr.Draw, &prev.Draw
	b.shapePairs.Reset()
	b.textPairs.Reset()
	n := len(cd.Shapes)
	if glyphs != nil {
		b.layout(cd)
		if glyphs.Full() {
			// Lay the whole snapshot out again in an emptied atlas.
			glyphs.reset()
			b.layout(cd)
		}
		n += len(b.places)
	}
	if n > b.capacity {
		b.grow(max(n, 2*b.capacity))
	}
	var count [shapeBuckets]int
	at := 0
	ps := pd.Shapes
	for i := range cd.Shapes {
		c := &cd.Shapes[i]
		p := c
		if j, ok := b.shapePairs.Find(c.Key, i, len(ps), func(j int) uint64 { return ps[j].Key }); ok &&
			ps[j].Gen == c.Gen && ps[j].Kind == c.Kind {
			p = &ps[j]
		}
		r := b.scratch[at*shapeWords : (at+1)*shapeWords]
		r[0], r[1], r[2], r[3] = f32(p.X), f32(p.Y), f32(p.A), f32(p.B)
		r[4], r[5], r[6], r[7] = f32(c.X), f32(c.Y), f32(c.A), f32(c.B)
		r[8], r[9], r[10], r[11] = f32(c.C), f32(c.D), f32(c.E), f32(c.F)
		r[12], r[13], r[14], r[15] = uint32(c.Kind), c.Data, f32(c.Width), c.Tint
		k := bucket(c.Layer, c.Flags)
		b.bucketOf[at] = k
		count[k]++
		at++
	}
	if glyphs != nil {
		pt := pd.Texts
		g := 0
		for i := range cd.Texts {
			c := &cd.Texts[i]
			px, py := c.X, c.Y
			if j, ok := b.textPairs.Find(c.Key, i, len(pt), func(j int) uint64 { return pt[j].Key }); ok && pt[j].Gen == c.Gen {
				px, py = pt[j].X, pt[j].Y
			}
			end := int(b.runEnd[i])
			k := bucket(c.Layer, c.Flags)
			for ; g < end; g++ {
				gp := &b.places[g]
				r := b.scratch[at*shapeWords : (at+1)*shapeWords]
				r[0], r[1], r[2], r[3] = f32(px), f32(py), f32(gp.X), f32(gp.Y)
				r[4], r[5], r[6], r[7] = f32(c.X), f32(c.Y), f32(gp.X), f32(gp.Y)
				r[8], r[9], r[10], r[11] = f32(gp.U0), f32(gp.V0), f32(gp.U1), f32(gp.V1)
				r[12], r[13], r[14], r[15] = shapeGlyph, 0, f32(gp.Scale), c.Tint
				b.bucketOf[at] = k
				count[k]++
				at++
			}
		}
	}
	// A stable counting sort by bucket, so that each layer is one range.
	b.first[0] = 0
	for k := range shapeBuckets {
		b.first[k+1] = b.first[k] + count[k]
	}
	next := b.first
	for i := range at {
		k := b.bucketOf[i]
		copy(b.staging[next[k]*shapeWords:], b.scratch[i*shapeWords:(i+1)*shapeWords])
		next[k]++
	}
	if at > 0 {
		gl.BindBuffer(gl.ARRAY_BUFFER, b.vbo)
		check("glBindBuffer")
		gl.BufferData(gl.ARRAY_BUFFER, 4*len(b.staging), nil, gl.STREAM_DRAW)
		check("glBufferData")
		gl.BufferSubData(gl.ARRAY_BUFFER, 0, 4*at*shapeWords, unsafe.Pointer(&b.staging[0]))
		check("glBufferSubData")
	}
	if pts := cd.Points; len(pts) > 0 {
		if len(pts) > b.ptsCap {
			b.growPoints(max(len(pts), 2*b.ptsCap))
		}
		gl.BindBuffer(gl.TEXTURE_BUFFER, b.ptsBuf)
		check("glBindBuffer")
		gl.BufferSubData(gl.TEXTURE_BUFFER, 0, 4*len(pts), unsafe.Pointer(&pts[0]))
		check("glBufferSubData")
	}
}

// layout lays out every run of d into places, and where each run's
// glyphs end into runEnd.
func (b *ShapeBatch) layout(d *snapshot.Draw) {
	b.places, b.runEnd = b.places[:0], b.runEnd[:0]
	for i := range d.Texts {
		zoom := b.zoom
		if d.Texts[i].Flags&snapshot.ShapeScreen != 0 {
			zoom = 1
		}
		b.places = b.glyphs.Layout(b.places, &d.Texts[i], d.Chars, zoom)
		b.runEnd = append(b.runEnd, int32(len(b.places)))
	}
}

func bucket(layer, flags uint8) uint8 {
	k := min(layer, snapshot.Layers-1)
	if flags&snapshot.ShapeScreen != 0 {
		k += snapshot.Layers
	}
	return k
}

func f32(v float32) uint32 { return math.Float32bits(v) }

// Len returns the number of shapes and glyphs the last Upload sent.
//
// GL thread only.
func (b *ShapeBatch) Len() int { return b.first[shapeBuckets] }

// Draw draws layer's shapes and glyphs, in the world or on screen, at
// blend factor alpha, transformed by viewProj; px is how many of their
// units make a framebuffer pixel (1/zoom in the world, 1 on screen), the
// width of the anti-aliased edge. One draw call, no allocation.
//
// GL thread only.
func (b *ShapeBatch) Draw(layer int, screen bool, viewProj mgl32.Mat4, px, alpha float32) {
	k := layer
	if screen {
		k += snapshot.Layers
	}
	first, n := b.first[k], b.first[k+1]-b.first[k]
	if n <= 0 {
		return
	}
	b.viewProj = viewProj
	b.prog.Use()
	gl.UniformMatrix4fv(b.locViewProj, 1, false, &b.viewProj[0])
	check("glUniformMatrix4fv")
	gl.Uniform1f(b.locAlpha, alpha)
	gl.Uniform1f(b.locPx, px)
	check("glUniform1f")
	gl.ActiveTexture(gl.TEXTURE1)
	gl.BindTexture(gl.TEXTURE_BUFFER, b.ptsTex)
	check("glBindTexture")
	if b.glyphs != nil {
		s := float32(b.glyphs.size)
		gl.Uniform2f(b.locGlyphSize, s, s)
		gl.ActiveTexture(gl.TEXTURE2)
		gl.BindTexture(gl.TEXTURE_2D, b.glyphs.tex)
		check("glBindTexture")
	}
	gl.ActiveTexture(gl.TEXTURE0)
	check("glActiveTexture")
	gl.BindVertexArray(b.vao)
	check("glBindVertexArray")
	gl.BindBuffer(gl.ARRAY_BUFFER, b.vbo)
	check("glBindBuffer")
	b.point(first)
	gl.DrawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, int32(n))
	check("glDrawArraysInstanced")
}

// ScreenMatrix is the projection of framebuffer pixels (top-left origin,
// y down) for a w x h framebuffer: what screen-space shapes are drawn
// with.
//
// Any goroutine.
func ScreenMatrix(w, h int) mgl32.Mat4 {
	return mgl32.Ortho(0, float32(w), float32(h), 0, -1, 1)
}

// Delete frees the batch's program and buffers. It must not be used
// afterwards.
//
// GL thread only.
func (b *ShapeBatch) Delete() {
	if b.prog != nil {
		b.prog.Delete()
		b.prog = nil
	}
	if b.ptsTex != 0 {
		gl.DeleteTextures(1, &b.ptsTex)
		check("glDeleteTextures")
		b.ptsTex = 0
	}
	deleteVertexArray(&b.vao, &b.vbo, &b.ptsBuf)
	b.staging, b.scratch, b.capacity = nil, nil, 0
}
