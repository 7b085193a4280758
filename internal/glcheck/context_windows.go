//go:build cgo && windows

package glcheck

import (
	"errors"

	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/window"
)

// context is a hidden 16 x 16 window's: WGL makes a context only on a
// window, and a Windows desktop always has room for one that is never
// shown. Not under Wine (newContext says why).
type context struct{ w *window.Window }

func newContext() (*context, error) {
	// Under Wine 8.0 a process that made and closed this window's
	// context, then the run's, faulted at exit in most runs (Wine's
	// debugger then waits): Wine is checked by the window's compile only.
	if window.UnderWine() {
		return nil, errors.New("glcheck: not under Wine")
	}
	if err := window.Init(); err != nil {
		return nil, err
	}
	w, err := window.Open(window.Config{Title: "glcheck", Width: 16, Height: 16, Hidden: true})
	if err != nil {
		window.Terminate()
		return nil, err
	}
	return &context{w: w}, nil
}

// load loads the GL functions through WGL, as the run's window does.
func (c *context) load() error { return gl.Init() }

// release closes the window and stops GLFW, which the run's window
// starts again.
func (c *context) release() {
	c.w.Destroy()
	window.Terminate()
}
