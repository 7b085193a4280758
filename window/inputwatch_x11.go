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
// frames uneven (docs/results/2026-11-24-threaded-input-wait.md). This
// connection carries only what the main thread waits for: the window's
// keys and pointer moves, XInput2's raw button events (GLFW alone may ask
// for the window's buttons), and the window's own changes; when input
// comes, GLFW's connection is read for the event itself.
//
// The waits are Go's network poller's, on copies of the connections'
// sockets, not blocking calls in C: a goroutine parked there holds no P,
// where one blocked in C keeps its P until the runtime takes it back, up
// to 10 ms later, and with the render thread busy on the other that held
// up the sim thread's timer (its ticks were up to 18 ms late).
type inputWatch struct {
	c    *C.inputWatch
	own  *socket // this connection's
	glfw *socket // GLFW's, for the handoff

	mu    sync.Mutex // woken and own's deadline, between wait and wake
	woken bool
}

// socket is a copy of an X connection's socket in Go's network poller:
// a goroutine waiting on it is parked and holds no P. The connection is
// read by Xlib, never through the copy.
type socket struct {
	f    *os.File
	conn syscall.RawConn
	// ready is RawConn.Read's callback: false the first time (wait for
	// the socket), true after.
	ready  func(uintptr) bool
	waited bool
}

func newSocket(fd int, name string) (*socket, error) {
	dup, err := syscall.Dup(fd)
	if err != nil {
		return nil, err
	}
	if err := syscall.SetNonblock(dup, true); err != nil {
		syscall.Close(dup)
		return nil, err
	}
	s := &socket{f: os.NewFile(uintptr(dup), name)}
	if s.conn, err = s.f.SyscallConn(); err != nil {
		s.f.Close()
		return nil, err
	}
	s.ready = func(uintptr) bool {
		done := s.waited
		s.waited = true
		return done
	}
	return s, nil
}

// wait returns when the socket has data (or had since the last wait), or
// at its deadline.
func (s *socket) wait() {
	s.waited = false
	s.conn.Read(s.ready) // a deadline ends it with an error
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
	iw := &inputWatch{c: c}
	var err error
	if iw.own, err = newSocket(int(C.inputWatchFd(c)), "x11-input"); err != nil {
		C.inputWatchClose(c)
		return nil
	}
	if iw.glfw, err = newSocket(int(C.XConnectionNumber(d)), "x11-glfw"); err != nil {
		iw.close()
		return nil
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
	iw.own.f.SetReadDeadline(time.Now().Add(timeout))
	iw.mu.Unlock()
	iw.own.wait()
	iw.mu.Lock()
	iw.woken = false
	iw.mu.Unlock()
	return C.inputWatchDrain(iw.c) > 0
}

// wake ends a wait in progress, or the next one. Any goroutine.
func (iw *inputWatch) wake() {
	iw.mu.Lock()
	iw.woken = true
	iw.own.f.SetReadDeadline(time.Unix(1, 0))
	iw.mu.Unlock()
}

// handoff sleeps until GLFW's connection has data or until. Main thread
// only.
func (iw *inputWatch) handoff(until time.Time) {
	iw.glfw.f.SetReadDeadline(until)
	iw.glfw.wait()
}

func (iw *inputWatch) close() {
	for _, s := range []*socket{iw.own, iw.glfw} {
		if s != nil {
			s.f.Close() // the copy: the connection's own is Xlib's
		}
	}
	if !DisplayLost() {
		C.inputWatchClose(iw.c)
	}
}
