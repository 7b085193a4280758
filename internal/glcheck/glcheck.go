//go:build cgo

package glcheck

import (
	"fmt"
	"runtime"

	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/internal/engine"
)

// Shaders compiles and links each of shaders as the window would
// (gl.NewPostShader) in a context with no display, and returns the first
// failure as the window's compile does: "tandem: shader NAME: line N:
// the driver's message", wrapping a *gl.ShaderError. ran reports whether
// such a context could be made (when it could not, nothing was checked
// and err is nil); driver is its GL_RENDERER, for the record. No shaders
// make no context and cost nothing.
//
// On Linux any goroutine: it locks its OS thread while a context is
// current on it, and leaves no context current. On Windows main thread
// only: the context is a hidden window's (GLFW's, through package window),
// gone when it returns.
func Shaders(shaders []engine.Shader) (ran bool, driver string, err error) {
	if len(shaders) == 0 {
		return false, "", nil
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c, err := newContext()
	if err != nil {
		return false, "", nil // no context to be had here: the window checks
	}
	defer c.release()
	if err := c.load(); err != nil {
		return false, "", nil // not 4.1 core: the window says so, with its hint
	}
	_, driver = gl.Driver()
	for _, sh := range shaders {
		p, err := gl.NewPostShader(sh.Name, sh.Source, nil)
		if err != nil {
			return true, driver, fmt.Errorf("tandem: %w", err)
		}
		p.Delete()
	}
	return true, driver, nil
}
