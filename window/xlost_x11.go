//go:build linux && !wayland

package window

/*
#cgo LDFLAGS: -lX11
#include <X11/Xlib.h>

static volatile int displayLost;

// ioError records that the connection to the X server broke, and
// returns: Xlib then calls the exit handler below instead of printing
// and exiting itself.
static int ioError(Display *dpy) {
	displayLost = 1;
	return 0;
}

// ioErrorExit replaces Xlib's exit(1): the display is marked unusable
// (every later call on it returns at once) and the program goes on, so
// that it can stop its sim and write what it has.
static void ioErrorExit(Display *dpy, void *data) {
	displayLost = 1;
}

static void watchDisplay(void *dpy) {
	XSetIOErrorHandler(ioError);
	XSetIOErrorExitHandler((Display *)dpy, ioErrorExit, 0);
}

static int lost(void) { return displayLost; }
*/
import "C"

import (
	"unsafe"

	"github.com/go-gl/glfw/v3.3/glfw"
)

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
// window is gone and no call on it does anything. Any thread.
func DisplayLost() bool { return C.lost() != 0 }
