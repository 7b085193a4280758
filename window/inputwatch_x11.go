//go:build linux && !wayland

package window

/*
#cgo LDFLAGS: -lX11 -lXi
#include <X11/Xlib.h>
#include "inputwatch_x11.h"
*/
import "C"

import (
	"time"
	"unsafe"

	"github.com/go-gl/glfw/v3.3/glfw"
)

// inputWatch is the main thread's own connection to the X server, which
// it waits on instead of GLFW's. GLFW's connection carries the replies to
// the render thread's GL calls too (the driver asks the window's size,
// sends the picture and waits for the server, every frame): a main thread
// waiting on it wakes several times a frame, takes the connection's lock
// while the render thread waits for it, and made the threaded loop's
// frames uneven (docs/results). This connection carries only what the
// main thread waits for: XInput2's raw events (every key, button and
// motion) and the window's own changes; when one comes, GLFW's connection
// is read for the event itself.
type inputWatch struct{ c *C.inputWatch }

// handoff bounds the wait for GLFW's copy of an input event after the
// watch saw it: the server writes both at once, but to two sockets. An
// input that is another window's (a key while this one has not the
// focus, the pointer moving elsewhere) costs this wait on GLFW's
// connection.
const handoff = 20 * time.Millisecond

// openInputWatch opens the watch on win's display; nil where it cannot
// (no XInput2): WaitEvents then waits on GLFW's connection.
func openInputWatch(win *glfw.Window) *inputWatch {
	d := (*C.Display)(unsafe.Pointer(glfw.GetX11Display()))
	if d == nil {
		return nil
	}
	c := C.inputWatchOpen(C.XDisplayString(d), C.ulong(win.GetX11Window()))
	if c == nil {
		return nil
	}
	return &inputWatch{c: c}
}

// wait sleeps until an input event, a change of the window's, wake or
// timeout, and reports whether input came.
func (iw *inputWatch) wait(timeout time.Duration) bool {
	return C.inputWatchWait(iw.c, C.longlong(timeout)) > 0
}

func (iw *inputWatch) wake()  { C.inputWatchWake(iw.c) }
func (iw *inputWatch) close() { C.inputWatchClose(iw.c) }
