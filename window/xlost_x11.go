//go:build linux && !wayland

package window

/*
#cgo LDFLAGS: -lX11
void watchDisplay(void *dpy);
*/
import "C"

import (
	"sync/atomic"
	"unsafe"

	"github.com/go-gl/glfw/v3.3/glfw"
)

// lost is set, from Xlib's I/O error handlers (xlost_x11.c), when the
// connection to the X server broke.
var lost atomic.Bool

//export displayLost
func displayLost() { lost.Store(true) }

// watchDisplay makes the loss of the X server (killed, disconnected) a
// state the loop reads with DisplayLost, instead of Xlib's default, which
// prints "X connection to :N broken" and exits the process with nothing
// written. Main thread only, after Init.
func watchDisplay() {
	if d := glfw.GetX11Display(); d != nil {
		C.watchDisplay(unsafe.Pointer(d))
	}
}

// DisplayLost reports whether the connection to the display broke: the
// window is gone and no call on it does anything. Any thread; it costs an
// atomic load.
func DisplayLost() bool { return lost.Load() }
