//go:build linux && !wayland

#define _GNU_SOURCE // ppoll
#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "inputwatch_x11.h"

struct inputWatch {
	Display *dpy;
	int wake; // an eventfd: inputWatchWake makes it readable
};

inputWatch *inputWatchOpen(const char *display, unsigned long win) {
	Display *dpy = XOpenDisplay(display);
	if (!dpy) {
		return 0;
	}
	int opcode, event, error, major = 2, minor = 0;
	if (!XQueryExtension(dpy, "XInputExtension", &opcode, &event, &error) ||
	    XIQueryVersion(dpy, &major, &minor) != Success) {
		XCloseDisplay(dpy);
		return 0;
	}
	// Raw events: every key, button and motion of every device, the
	// focused window's or not, and no replies of anyone else's.
	unsigned char bits[XIMaskLen(XI_LASTEVENT)] = {0};
	XISetMask(bits, XI_RawKeyPress);
	XISetMask(bits, XI_RawKeyRelease);
	XISetMask(bits, XI_RawButtonPress);
	XISetMask(bits, XI_RawButtonRelease);
	XISetMask(bits, XI_RawMotion);
	XIEventMask mask = {XIAllMasterDevices, sizeof bits, bits};
	XISelectEvents(dpy, DefaultRootWindow(dpy), &mask, 1);
	// The window's own changes: size, focus, its properties (the window
	// manager's WM_STATE, minimised or not).
	XSelectInput(dpy, (Window)win, StructureNotifyMask | FocusChangeMask | PropertyChangeMask);
	XSync(dpy, False);
	inputWatch *w = malloc(sizeof *w);
	if (!w) {
		XCloseDisplay(dpy);
		return 0;
	}
	w->dpy = dpy;
	w->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (w->wake < 0) {
		XCloseDisplay(dpy);
		free(w);
		return 0;
	}
	return w;
}

int inputWatchWait(inputWatch *w, long long timeout_ns) {
	int n = 0;
	if (!XPending(w->dpy)) {
		struct pollfd fds[2] = {
			{.fd = ConnectionNumber(w->dpy), .events = POLLIN},
			{.fd = w->wake, .events = POLLIN},
		};
		struct timespec ts = {timeout_ns / 1000000000, timeout_ns % 1000000000};
		ppoll(fds, 2, &ts, 0);
		if (fds[1].revents & POLLIN) {
			unsigned long long v;
			if (read(w->wake, &v, sizeof v) < 0) {
				// EAGAIN: another wait drained it.
			}
		}
	}
	while (XPending(w->dpy)) {
		XEvent ev;
		XNextEvent(w->dpy, &ev);
		if (ev.type == GenericEvent) {
			// A raw event: its data is not read, only that it came.
			n++;
		}
	}
	return n;
}

void inputWatchWake(inputWatch *w) {
	unsigned long long one = 1;
	if (write(w->wake, &one, sizeof one) < 0) {
		// EAGAIN: the counter is full, and the wait wakes anyway.
	}
}

void inputWatchClose(inputWatch *w) {
	XCloseDisplay(w->dpy);
	close(w->wake);
	free(w);
}
