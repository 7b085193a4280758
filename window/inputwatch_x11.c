//go:build linux && !wayland

#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>
#include <stdlib.h>

#include "inputwatch_x11.h"

// xlost_x11.c: the display's loss a state, not Xlib's exit(1).
void watchDisplay(void *dpy);

struct inputWatch {
	Display *dpy;
};

inputWatch *inputWatchOpen(const char *display, unsigned long win) {
	Display *dpy = XOpenDisplay(display);
	if (!dpy) {
		return 0;
	}
	// A server that dies breaks this connection too: tandem stops and
	// writes what it has, as for GLFW's.
	watchDisplay(dpy);
	int opcode, event, error, major = 2, minor = 0;
	if (!XQueryExtension(dpy, "XInputExtension", &opcode, &event, &error) ||
	    XIQueryVersion(dpy, &major, &minor) != Success) {
		XCloseDisplay(dpy);
		return 0;
	}
	// The window's keys (while it has the focus) and the pointer's moves
	// over it, as GLFW gets them: X lets any client ask for those.
	// Buttons only one client may ask for, GLFW: XInput2's raw button
	// events stand for them, every device's, whichever window they are
	// for. And the window's own changes: size, focus, its properties
	// (the window manager's WM_STATE, minimised or not).
	unsigned char bits[XIMaskLen(XI_LASTEVENT)] = {0};
	XISetMask(bits, XI_RawButtonPress);
	XISetMask(bits, XI_RawButtonRelease);
	XIEventMask mask = {XIAllMasterDevices, sizeof bits, bits};
	XISelectEvents(dpy, DefaultRootWindow(dpy), &mask, 1);
	XSelectInput(dpy, (Window)win, KeyPressMask | KeyReleaseMask | PointerMotionMask |
	    StructureNotifyMask | FocusChangeMask | PropertyChangeMask);
	XSync(dpy, False);
	inputWatch *w = malloc(sizeof *w);
	if (!w) {
		XCloseDisplay(dpy);
		return 0;
	}
	w->dpy = dpy;
	return w;
}

int inputWatchFd(inputWatch *w) { return ConnectionNumber(w->dpy); }

int inputWatchDrain(inputWatch *w) {
	int n = 0;
	while (XPending(w->dpy)) {
		XEvent ev;
		XNextEvent(w->dpy, &ev);
		switch (ev.type) {
		case GenericEvent: // a raw button: its data is not read, only that it came
		case KeyPress:
		case KeyRelease:
		case MotionNotify:
			n++;
		}
	}
	return n;
}

void inputWatchClose(inputWatch *w) {
	XCloseDisplay(w->dpy);
	free(w);
}
