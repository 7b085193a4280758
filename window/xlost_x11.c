//go:build linux && !wayland

#include <X11/Xlib.h>
#include "_cgo_export.h"

// ioError records that the connection to the X server broke, and
// returns: Xlib then calls the exit handler below instead of exiting.
static int ioError(Display *dpy) {
	displayLost();
	return 0;
}

// ioErrorExit replaces Xlib's exit(1): the display is marked unusable
// (every later call on it returns at once) and the program goes on, so
// that it can stop its sim and write what it has.
static void ioErrorExit(Display *dpy, void *data) {
	displayLost();
}

void watchDisplay(void *dpy) {
	XSetIOErrorHandler(ioError);
	XSetIOErrorExitHandler((Display *)dpy, ioErrorExit, 0);
}
