//go:build linux && !wayland

package window

/*
#cgo LDFLAGS: -lX11 -lXi
#include <X11/Xlib.h>
#include "inputwatch_x11.h"
*/
import "C"

import (
	"os"
	"sync"
	"syscall"
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
// main thread waits for: the window's keys and pointer moves, XInput2's
// raw button events (GLFW alone may ask for the window's buttons), and
// the window's own changes; when input comes, GLFW's connection is read
// for the event itself.
//
// The wait is Go's network poller's, on a copy of the connection's
// socket, not a blocking call in C: a goroutine parked there holds no P,
// where one blocked in C keeps its P until the runtime takes it back, up
// to 10 ms later, and with the render thread busy on the other that held
// up the sim thread's timer (its ticks were up to 18 ms late).
type inputWatch struct {
	c    *C.inputWatch
	f    *os.File // a dup of the connection's socket, in the poller
	conn syscall.RawConn
	// ready is RawConn.Read's callback: false the first time (wait for
	// the socket), true after.
	ready  func(uintptr) bool
	waited bool

	mu    sync.Mutex // woken and the deadline, between wait and wake
	woken bool
}

// handoff bounds the wait for GLFW's copy of an input event after the
// watch saw it: the server writes both at once, but to two sockets. A
// click on another window costs this wait on GLFW's connection.
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
	fd, err := syscall.Dup(int(C.inputWatchFd(c)))
	if err == nil {
		err = syscall.SetNonblock(fd, true)
	}
	if err != nil {
		C.inputWatchClose(c)
		return nil
	}
	iw := &inputWatch{c: c, f: os.NewFile(uintptr(fd), "x11-input")}
	if iw.conn, err = iw.f.SyscallConn(); err != nil {
		iw.close()
		return nil
	}
	iw.ready = func(uintptr) bool {
		done := iw.waited
		iw.waited = true
		return done
	}
	return iw
}

// wait sleeps until an input event, a change of the window's, wake or
// timeout, and reports whether input came. Main thread only.
func (iw *inputWatch) wait(timeout time.Duration) bool {
	if C.inputWatchDrain(iw.c) > 0 {
		return true
	}
	iw.mu.Lock()
	if iw.woken {
		iw.woken = false
		iw.mu.Unlock()
		return false
	}
	iw.f.SetReadDeadline(time.Now().Add(timeout))
	iw.mu.Unlock()
	iw.waited = false
	iw.conn.Read(iw.ready) // a deadline, woken or not, ends it with an error
	iw.mu.Lock()
	iw.woken = false
	iw.mu.Unlock()
	return C.inputWatchDrain(iw.c) > 0
}

// wake ends a wait in progress, or the next one. Any goroutine.
func (iw *inputWatch) wake() {
	iw.mu.Lock()
	iw.woken = true
	iw.f.SetReadDeadline(time.Unix(1, 0))
	iw.mu.Unlock()
}

func (iw *inputWatch) close() {
	iw.f.Close() // the copy: the connection's own is Xlib's
	if !DisplayLost() {
		C.inputWatchClose(iw.c)
	}
}
