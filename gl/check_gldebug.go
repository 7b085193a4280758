//go:build gldebug

package gl

import (
	"fmt"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// check panics when the GL call named op raised an error flag. A GL error
// here is a mistake in this package or its caller, not a condition of the
// machine, hence the panic.
func check(op string) {
	var msg string
	for e := gl.GetError(); e != gl.NO_ERROR; e = gl.GetError() {
		msg += fmt.Sprintf(" %s(0x%04x)", errorName(e), e)
	}
	if msg != "" {
		panic("gl: " + op + ":" + msg)
	}
}

func errorName(e uint32) string {
	switch e {
	case gl.INVALID_ENUM:
		return "GL_INVALID_ENUM"
	case gl.INVALID_VALUE:
		return "GL_INVALID_VALUE"
	case gl.INVALID_OPERATION:
		return "GL_INVALID_OPERATION"
	case gl.INVALID_FRAMEBUFFER_OPERATION:
		return "GL_INVALID_FRAMEBUFFER_OPERATION"
	case gl.OUT_OF_MEMORY:
		return "GL_OUT_OF_MEMORY"
	}
	return "GL error"
}
