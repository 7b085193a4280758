package gl

import (
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// uploadMode is how a stream's records reach its GL buffer.
type uploadMode int

const (
	// subData: written to a Go slice, then copied by glBufferSubData.
	subData uploadMode = iota
	// orphan: as subData, after glBufferData(NULL) re-specifies the
	// buffer, so that the copy never waits for a draw still reading it.
	orphan
	// mapped: written straight into the buffer, mapped with
	// GL_MAP_INVALIDATE_BUFFER_BIT (which orphans it as well): one pass
	// over the records instead of two, and no Go copy of them.
	mapped
)

func (m uploadMode) String() string { return [...]string{"subdata", "orphan", "map"}[m] }

// defaultUpload is the mode measured best in BenchmarkSpriteBatch
// (docs/results/2026-11-27-sprites-upload.md).
const defaultUpload = mapped

// stream is a vertex buffer whose records are all written again at each
// upload (write: begin gives the slice to write them into, end sends
// them).
//
// GL thread only.
type stream struct {
	vbo     uint32
	mode    uploadMode
	words   int // the buffer's size in 32-bit words
	staging []uint32
	mapping bool // begin mapped the buffer: end unmaps it
}

// resize makes the bound buffer hold words 32-bit words, its contents
// undefined. It allocates the staging slice unless the mode maps.
func (s *stream) resize(words int) {
	s.words = words
	s.staging = nil
	if s.mode != mapped {
		s.staging = make([]uint32, words)
	}
	gl.BindBuffer(gl.ARRAY_BUFFER, s.vbo)
	check("glBindBuffer")
	gl.BufferData(gl.ARRAY_BUFFER, 4*words, nil, gl.STREAM_DRAW)
	check("glBufferData")
}

// write sends the next upload: fill writes it into the slice it is given
// (room words: the mapped buffer, or the staging slice) and returns
// how many words it wrote, from the start. When the mapping is lost, fill
// runs again on the staging slice. fill writes and never reads the slice
// back (a GPU's driver may map memory that is slow to read), and must not
// keep it.
func (s *stream) write(room int, fill func(w []uint32) int) {
	for staged := false; ; staged = true {
		if s.end(fill(s.begin(room, staged))) {
			return
		}
	}
}

// begin returns where to write the next upload's first n words (n at
// most the buffer's size): the buffer itself when the mode maps and the
// driver maps it, else the staging slice. staged asks for the staging
// slice whatever the mode, for writing again after end reported the
// mapping lost. It binds the buffer. It allocates only when staging is
// first needed in the mapped mode.
func (s *stream) begin(n int, staged bool) []uint32 {
	gl.BindBuffer(gl.ARRAY_BUFFER, s.vbo)
	check("glBindBuffer")
	if n == 0 {
		return nil // nothing to write, and end sends nothing
	}
	if s.mode == mapped && !staged {
		p := gl.MapBufferRange(gl.ARRAY_BUFFER, 0, 4*n, gl.MAP_WRITE_BIT|gl.MAP_INVALIDATE_BUFFER_BIT)
		if p != nil {
			s.mapping = true
			return unsafe.Slice((*uint32)(p), n)
		}
		// A condition of the machine (GL_OUT_OF_MEMORY, say), not a
		// mistake for check: clear the flag it raised and write through
		// staging instead.
		for range 8 { // bounded: a lost context may keep raising one
			if gl.GetError() == gl.NO_ERROR {
				break
			}
		}
	}
	if s.staging == nil {
		s.staging = make([]uint32, s.words)
	}
	return s.staging[:n]
}

// end sends the n words written since begin. It reports false when the
// mapping was lost (glUnmapBuffer: the contents are undefined, as after a
// screen mode change on some drivers): write then writes them again with
// begin(n, true) and ends again.
func (s *stream) end(n int) bool {
	if s.mapping {
		s.mapping = false
		ok := gl.UnmapBuffer(gl.ARRAY_BUFFER)
		check("glUnmapBuffer")
		return ok
	}
	if n == 0 {
		return true
	}
	if s.mode != subData {
		gl.BufferData(gl.ARRAY_BUFFER, 4*s.words, nil, gl.STREAM_DRAW)
		check("glBufferData")
	}
	gl.BufferSubData(gl.ARRAY_BUFFER, 0, 4*n, unsafe.Pointer(&s.staging[0]))
	check("glBufferSubData")
	return true
}
