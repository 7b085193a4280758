//go:build gldebug

package gl

import (
	"strings"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"

	"github.com/tandem-engine/tandem/gl/internal/gltest"
)

// TestCheckPanics checks that the gldebug build turns a GL error into a
// panic naming the call.
func TestCheckPanics(t *testing.T) {
	withGL(t, 16, 16)
	var p any
	gltest.Do(func() {
		defer func() { p = recover() }()
		gl.BindBuffer(gl.ARRAY_BUFFER, 0xBADBAD) // never generated: GL_INVALID_OPERATION in core
		check("glBindBuffer")
	})
	if msg, _ := p.(string); !strings.Contains(msg, "gl: glBindBuffer: GL_INVALID_OPERATION") {
		t.Errorf("check panicked with %v, want a GL_INVALID_OPERATION panic naming glBindBuffer", p)
	}
}
