//go:build linux && cgo && !wayland

package xtest

/*
#cgo LDFLAGS: -lXtst -lX11
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xlibint.h>
#include <X11/extensions/XTest.h>

// xt_conn is one injector's X connection and what went wrong on it.
typedef struct {
	Display *dpy;
	volatile int lost; // the connection broke: every later call fails
	int err;           // the last X protocol error on it, 0 for none
} xt_conn;

// The open connections, so that the process-wide I/O error handler can
// tell ours from GLFW's.
#define XT_MAX 16
static xt_conn *xt_conns[XT_MAX];
static pthread_mutex_t xt_mu = PTHREAD_MUTEX_INITIALIZER;
static XIOErrorHandler xt_prev_io;

static int xt_ours(Display *d) {
	int ours = 0;
	pthread_mutex_lock(&xt_mu);
	for (int i = 0; i < XT_MAX; i++) {
		if (xt_conns[i] && xt_conns[i]->dpy == d) {
			ours = 1;
		}
	}
	pthread_mutex_unlock(&xt_mu);
	return ours;
}

// xt_io_error is the process-wide I/O error handler: for our connections
// it returns, so that Xlib calls our exit handler instead of printing and
// exiting; any other connection gets the handler that was there before.
static int xt_io_error(Display *d) {
	if (xt_ours(d)) {
		return 0;
	}
	return xt_prev_io ? xt_prev_io(d) : 0;
}

// xt_io_exit replaces Xlib's exit(1) on our connections: the connection is
// marked lost (Xlib then returns at once from every call on it).
static void xt_io_exit(Display *d, void *data) {
	((xt_conn *)data)->lost = 1;
}

// xt_wire_error sees every protocol error on our connections before the
// process-wide error handler would (which exits by default, and which GLFW
// resets whenever it likes): it keeps the code and drops the error.
static Bool xt_wire_error(Display *d, XErrorEvent *he, xError *we) {
	pthread_mutex_lock(&xt_mu);
	for (int i = 0; i < XT_MAX; i++) {
		if (xt_conns[i] && xt_conns[i]->dpy == d) {
			xt_conns[i]->err = we->errorCode;
		}
	}
	pthread_mutex_unlock(&xt_mu);
	return False;
}

static int64_t xt_mono(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

enum { XT_OK, XT_NO_DISPLAY, XT_NO_XTEST, XT_TOO_MANY };

// xt_open opens name (NULL: $DISPLAY) and checks XTEST.
static int xt_open(const char *name, xt_conn **out, int *major, int *minor) {
	Display *d = XOpenDisplay(name);
	if (!d) {
		return XT_NO_DISPLAY;
	}
	int ev, er;
	if (!XTestQueryExtension(d, &ev, &er, major, minor)) {
		XCloseDisplay(d);
		return XT_NO_XTEST;
	}
	xt_conn *c = calloc(1, sizeof *c);
	c->dpy = d;
	pthread_mutex_lock(&xt_mu);
	int slot = -1;
	for (int i = 0; i < XT_MAX && slot < 0; i++) {
		if (!xt_conns[i]) {
			slot = i;
		}
	}
	if (slot >= 0) {
		xt_conns[slot] = c;
		XIOErrorHandler prev = XSetIOErrorHandler(xt_io_error);
		if (prev != xt_io_error) {
			xt_prev_io = prev;
		}
	}
	pthread_mutex_unlock(&xt_mu);
	if (slot < 0) {
		XCloseDisplay(d);
		free(c);
		return XT_TOO_MANY;
	}
	XSetIOErrorExitHandler(d, xt_io_exit, c);
	for (int code = 1; code < 256; code++) {
		XESetWireToError(d, code, xt_wire_error);
	}
	*out = c;
	return XT_OK;
}

// xt_close closes the connection (Xlib skips the final round trip when it
// is lost) and frees it.
static void xt_close(xt_conn *c) {
	// Still registered while closing: a server found gone here is
	// handled like anywhere else.
	XCloseDisplay(c->dpy);
	pthread_mutex_lock(&xt_mu);
	for (int i = 0; i < XT_MAX; i++) {
		if (xt_conns[i] == c) {
			xt_conns[i] = NULL;
		}
	}
	pthread_mutex_unlock(&xt_mu);
	free(c);
}

static unsigned int xt_keycode(xt_conn *c, unsigned long sym) {
	return XKeysymToKeycode(c->dpy, (KeySym)sym);
}

// xt_fake sends one key event and waits for the server to have processed
// it. *sent is read after the request is in Xlib's buffer and before
// XFlush writes it to the server's socket; *acked after XSync's reply.
static int xt_fake(xt_conn *c, unsigned int code, int down, int64_t *sent, int64_t *acked) {
	if (c->lost) {
		return -1;
	}
	c->err = 0;
	XTestFakeKeyEvent(c->dpy, code, down ? True : False, CurrentTime);
	*sent = xt_mono();
	XFlush(c->dpy);
	XSync(c->dpy, False);
	*acked = xt_mono();
	return c->lost ? -1 : c->err;
}

// xt_pid returns w's _NET_WM_PID, or 0 when it has none (or is gone).
static long xt_pid(xt_conn *c, Window w) {
	Atom pidAtom = XInternAtom(c->dpy, "_NET_WM_PID", False);
	Atom type;
	int format;
	unsigned long n, after;
	unsigned char *prop = NULL;
	long pid = 0;
	if (XGetWindowProperty(c->dpy, w, pidAtom, 0, 1, False, XA_CARDINAL, &type, &format, &n, &after, &prop) == Success &&
	    prop && type == XA_CARDINAL && format == 32 && n == 1) {
		pid = *(long *)prop;
	}
	if (prop) {
		XFree(prop);
	}
	return pid;
}

static int xt_viewable(xt_conn *c, Window w) {
	XWindowAttributes a;
	return XGetWindowAttributes(c->dpy, w, &a) && a.map_state == IsViewable;
}

// xt_find returns the topmost viewable window of process pid among w and
// its descendants down to depth levels, or 0.
static Window xt_find(xt_conn *c, Window w, long pid, int depth) {
	if (xt_pid(c, w) == pid && xt_viewable(c, w)) {
		return w;
	}
	Window root, parent, *kids = NULL, found = 0;
	unsigned int n = 0;
	if (depth == 0 || !XQueryTree(c->dpy, w, &root, &parent, &kids, &n)) {
		return 0;
	}
	for (unsigned int i = n; i > 0 && !found; i--) { // top of the stack first
		found = xt_find(c, kids[i - 1], pid, depth - 1);
	}
	if (kids) {
		XFree(kids);
	}
	return found;
}

// xt_focus gives the keyboard focus to pid's window; it returns 1 when
// that window has it afterwards, 0 when pid has no viewable window, -1
// when another window kept the focus (or the connection broke).
static int xt_focus(xt_conn *c, long pid) {
	if (c->lost) {
		return -1;
	}
	// Depth 2: a top-level window, or one a window manager reparented
	// into its frame.
	Window w = xt_find(c, DefaultRootWindow(c->dpy), pid, 2);
	if (!w) {
		return 0;
	}
	XSetInputFocus(c->dpy, w, RevertToParent, CurrentTime);
	XSync(c->dpy, False);
	Window f;
	int revert;
	XGetInputFocus(c->dpy, &f, &revert);
	return !c->lost && f == w ? 1 : -1;
}

// xt_focused returns the pid of the window key events go to, 0 when it is
// not known (no window, or one without _NET_WM_PID), -1 when the
// connection broke.
static long xt_focused(xt_conn *c) {
	Window root = DefaultRootWindow(c->dpy), f, child, r;
	int revert, rx, ry, wx, wy;
	unsigned int mask;
	long pid = 0;
	if (c->lost) {
		return -1;
	}
	XGetInputFocus(c->dpy, &f, &revert);
	if (f == None) {
		return c->lost ? -1 : 0;
	}
	if (f == PointerRoot || f == root) {
		// Key events go to the window under the pointer.
		for (Window w = root; !pid && XQueryPointer(c->dpy, w, &r, &child, &rx, &ry, &wx, &wy, &mask) && child; w = child) {
			pid = xt_pid(c, child);
		}
		return c->lost ? -1 : pid;
	}
	for (Window w = f; !pid && w && w != root;) {
		pid = xt_pid(c, w);
		Window parent, *kids = NULL;
		unsigned int n;
		if (!XQueryTree(c->dpy, w, &r, &parent, &kids, &n)) {
			break;
		}
		if (kids) {
			XFree(kids);
		}
		w = parent;
	}
	return c->lost ? -1 : pid;
}
*/
import "C"

import (
	"fmt"
	"math"
	"os"
	"sync"
	"unsafe"

	"github.com/tandem-engine/tandem/snapshot"
)

// source names this build's injector in the bench's summary.
const source = "xtest"

// conn is an open X connection with XTEST.
type conn struct {
	c    *C.xt_conn
	name string // the display's name, for errors
}

// openConn opens the X display name ("" for $DISPLAY) and checks that it
// has the XTEST extension.
func openConn(name string) (*conn, error) {
	shown := name
	if shown == "" {
		shown = os.Getenv("DISPLAY")
		if shown == "" {
			return nil, noDisplayError()
		}
	}
	calibrate()
	var cname *C.char
	if name != "" {
		cname = C.CString(name)
		defer C.free(unsafe.Pointer(cname))
	}
	var c *C.xt_conn
	var major, minor C.int
	switch C.xt_open(cname, &c, &major, &minor) {
	case C.XT_NO_DISPLAY:
		return nil, fmt.Errorf("xtest: %w: cannot open X display %q: start an X server there (xvfb-run does) "+
			"or set DISPLAY to one that runs, or fall back to synthetic input", ErrUnavailable, shown)
	case C.XT_NO_XTEST:
		return nil, fmt.Errorf("xtest: %w: X display %q has no XTEST extension (a server started with "+
			"-extension XTEST, or one that does not offer it): use a server with XTEST (Xvfb and Xorg have it "+
			"by default), or fall back to synthetic input", ErrUnavailable, shown)
	case C.XT_TOO_MANY:
		return nil, fmt.Errorf("xtest: %d injectors are open already: Close one first", C.XT_MAX)
	}
	return &conn{c: c, name: shown}, nil
}

// keycode returns the key that types sym in the server's keymap.
func (x *conn) keycode(sym Keysym) (uint32, error) {
	code := uint32(C.xt_keycode(x.c, C.ulong(sym)))
	if code == 0 {
		return 0, fmt.Errorf("xtest: keysym %#x is on no key of X display %q's keymap: pick a key the layout has (DefaultKey is F9)", uint32(sym), x.name)
	}
	return code, nil
}

// fake sends one key event on keycode code and waits for the server to
// have processed it.
func (x *conn) fake(code uint32, down bool) (Stamp, error) {
	var sent, acked C.int64_t
	d := C.int(0)
	if down {
		d = 1
	}
	switch rc := C.xt_fake(x.c, C.uint(code), d, &sent, &acked); {
	case rc < 0:
		return Stamp{}, x.lostError()
	case rc > 0:
		return Stamp{}, fmt.Errorf("xtest: X display %q refused the fake key event on keycode %d (X error %d): "+
			"the keymap changed under the injector; Close it and Open a new one", x.name, code, int(rc))
	}
	return Stamp{At: fromMono(int64(sent)), Acked: fromMono(int64(acked))}, nil
}

// focus gives the keyboard focus to the viewable window of process pid.
func (x *conn) focus(pid int) error {
	switch C.xt_focus(x.c, C.long(pid)) {
	case 1:
		return nil
	case 0:
		return fmt.Errorf("xtest: process %d has no visible window with _NET_WM_PID on X display %q: open the window visible (not hidden) before focusing it", pid, x.name)
	}
	if x.lost() {
		return x.lostError()
	}
	return fmt.Errorf("xtest: X display %q kept the keyboard focus off process %d's window (a window manager decides it): click the window, or run on a server without one (Xvfb)", x.name, pid)
}

// focused returns the pid of the window key events go to, 0 if unknown.
func (x *conn) focused() (int, error) {
	pid := int(C.xt_focused(x.c))
	if pid < 0 || x.lost() {
		return 0, x.lostError()
	}
	return pid, nil
}

func (x *conn) lost() bool { return x.c.lost != 0 }

func (x *conn) lostError() error {
	return fmt.Errorf("xtest: the connection to X display %q broke (the server exited?): Open the injector again once a server runs there", x.name)
}

func (x *conn) close() { C.xt_close(x.c) }

// monoOffset is CLOCK_MONOTONIC minus snapshot.Now(): both read the same
// kernel clock (Go's monotonic time is CLOCK_MONOTONIC on Linux), so it is
// constant, and is measured once. monoSpread is the width of the best
// bracket it was measured in; its error is at most half that.
var (
	calibrateOnce          sync.Once
	monoOffset, monoSpread int64
)

// calibrate measures monoOffset: the C clock read between two
// snapshot.Now() calls, the narrowest of many brackets kept.
func calibrate() {
	calibrateOnce.Do(func() {
		monoSpread = math.MaxInt64
		for range 200 {
			a := snapshot.Now()
			m := int64(C.xt_mono())
			b := snapshot.Now()
			if b-a < monoSpread {
				monoSpread = b - a
				monoOffset = m - a - (b-a)/2
			}
		}
	})
}

// fromMono converts a CLOCK_MONOTONIC reading to snapshot.Now()'s base.
func fromMono(mono int64) int64 { return mono - monoOffset }

// monoNow reads CLOCK_MONOTONIC in C, converted to snapshot.Now()'s base;
// the tests compare it with snapshot.Now().
func monoNow() int64 {
	calibrate()
	return fromMono(int64(C.xt_mono()))
}
