package gl

import (
	"strings"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// layout is how sprite records reach the vertex shader: layoutFor picks
// one for the driver.
type layout int

const (
	// instanced: one record per sprite, advanced per instance
	// (glVertexAttribDivisor 1); glDrawArraysInstanced of a 4-vertex strip.
	instanced layout = iota
	// expanded: the record repeated for the sprite's 4 vertices and a
	// static index buffer of 6 indices per sprite; glDrawElements.
	expanded
)

func (l layout) String() string { return [...]string{"instanced", "expanded"}[l] }

// copies is how many times l stores a quad's record: once, or once for
// each of its 4 vertices.
func (l layout) copies() int {
	if l == expanded {
		return 4
	}
	return 1
}

// layoutFor is the layout for a context whose GL_RENDERER is renderer:
// expanded on a software rasterizer, instanced on a GPU. Mesa's software
// drivers run the vertex stage on the CPU one instance at a time, each
// 4-vertex instance a pass of its own through their vertex pipeline;
// the expanded layout is one pass over every vertex, which llvmpipe drew
// at least as fast at 1,000, 5,000 and 50,000 sprites, and at 1,000
// about 15% faster (docs/results/2026-11-27-sprites-ceiling7.md). A GPU
// fetches instanced attributes natively, and the expanded layout would
// send it four times the data.
func layoutFor(renderer string) layout {
	r := strings.ToLower(renderer)
	for _, sw := range []string{"llvmpipe", "softpipe", "swiftshader", "software"} {
		if strings.Contains(r, sw) {
			return expanded
		}
	}
	return instanced
}

// driverLayout is layoutFor the current context.
func driverLayout() layout {
	_, renderer := Driver()
	return layoutFor(renderer)
}

// quadIndices fills index buffer ibo with the expanded layout's two
// triangles for each of n quads, and binds it to the bound vertex array.
// It allocates: only when a buffer is made or grows.
func quadIndices(ibo uint32, n int) {
	idx := make([]uint32, 0, 6*n)
	for v := range uint32(n) {
		v *= 4 // corners 0 1 / 2 3: triangles (0 1 2) and (2 1 3)
		idx = append(idx, v, v+1, v+2, v+2, v+1, v+3)
	}
	gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, ibo) // recorded in the bound vertex array
	check("glBindBuffer")
	gl.BufferData(gl.ELEMENT_ARRAY_BUFFER, 4*len(idx), unsafe.Pointer(&idx[0]), gl.STATIC_DRAW)
	check("glBufferData")
}
