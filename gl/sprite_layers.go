package gl

import (
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"
)

// spriteAttrib is one vertex attribute of the sprite batch's vertex
// array as GL holds it, read back once: DrawRange moves its pointer.
type spriteAttrib struct {
	index            uint32
	size, typ        int32
	normalized, ints bool
	stride           int32
	offset           uintptr
}

// SpriteLayers draws a sprite batch's sprites a range at a time (a
// layer's), so that what else a layer draws (its shapes and text) goes
// between them. It lives beside the batch, not in it: it reads the
// attributes the batch's constructor set up back from GL, once, so the
// record's layout stays the batch's own.
//
// GL thread only.
type SpriteLayers struct {
	b       *SpriteBatch
	attribs []spriteAttrib
}

// NewSpriteLayers reads b's vertex attributes.
//
// GL thread only.
func NewSpriteLayers(b *SpriteBatch) *SpriteLayers {
	gl.BindVertexArray(b.vao)
	check("glBindVertexArray")
	l := &SpriteLayers{b: b, attribs: readSpriteAttribs()}
	gl.BindVertexArray(0)
	check("glBindVertexArray")
	return l
}

// Draw draws sprites first to first+n-1 of the batch's last Upload as
// SpriteBatch.Draw draws them all (all of them, and the overlay, with its
// one call; a part, never the overlay). GL
// 4.1 has no base instance, so the instanced layout moves its attribute
// pointers to the range and back. It does not allocate.
//
// GL thread only.
func (l *SpriteLayers) Draw(viewProj mgl32.Mat4, alpha float32, first, n int) {
	b := l.b
	first = max(first, 0)
	n = min(n, b.n-first)
	if first == 0 && n == b.n {
		b.Draw(viewProj, alpha) // with the overlay, if one is set
		return
	}
	if n <= 0 {
		return
	}
	b.use(viewProj, alpha, -1)
	defer b.done()
	if b.layout != instanced {
		b.drawRange(first, n)
		return
	}
	gl.BindBuffer(gl.ARRAY_BUFFER, b.buf.vbo)
	check("glBindBuffer")
	l.point(first)
	b.drawRange(0, n)
	l.point(0)
}

// readSpriteAttribs reads the enabled attributes of b's vertex array,
// which must be bound.
func readSpriteAttribs() []spriteAttrib {
	var out []spriteAttrib
	var count int32
	gl.GetIntegerv(gl.MAX_VERTEX_ATTRIBS, &count)
	for i := range uint32(count) {
		var on, size, typ, norm, ints, stride int32
		gl.GetVertexAttribiv(i, gl.VERTEX_ATTRIB_ARRAY_ENABLED, &on)
		if on == 0 {
			continue
		}
		gl.GetVertexAttribiv(i, gl.VERTEX_ATTRIB_ARRAY_SIZE, &size)
		gl.GetVertexAttribiv(i, gl.VERTEX_ATTRIB_ARRAY_TYPE, &typ)
		gl.GetVertexAttribiv(i, gl.VERTEX_ATTRIB_ARRAY_NORMALIZED, &norm)
		gl.GetVertexAttribiv(i, gl.VERTEX_ATTRIB_ARRAY_INTEGER, &ints)
		gl.GetVertexAttribiv(i, gl.VERTEX_ATTRIB_ARRAY_STRIDE, &stride)
		var ptr unsafe.Pointer
		gl.GetVertexAttribPointerv(i, gl.VERTEX_ATTRIB_ARRAY_POINTER, &ptr)
		out = append(out, spriteAttrib{index: i, size: size, typ: typ, normalized: norm != 0, ints: ints != 0,
			stride: stride, offset: uintptr(ptr)})
	}
	check("glGetVertexAttribiv")
	return out
}

// point moves every attribute to the record of sprite first.
func (l *SpriteLayers) point(first int) {
	for _, a := range l.attribs {
		off := a.offset + uintptr(first*int(a.stride))
		if a.ints {
			gl.VertexAttribIPointerWithOffset(a.index, a.size, uint32(a.typ), a.stride, off)
		} else {
			gl.VertexAttribPointerWithOffset(a.index, a.size, uint32(a.typ), a.normalized, a.stride, off)
		}
	}
	check("glVertexAttribPointer")
}
