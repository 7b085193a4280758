//go:build linux && !wayland

package xtest

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	xgbxtest "github.com/jezek/xgb/xtest"
)

// source names this build's injector in the bench's summary.
const source = "xtest"

// xgb logs what it cannot hand to a caller (an error or event on a
// connection nobody reads) through its Logger, to stderr by default: each
// conn reads its own events and every request here is checked, so nothing
// is lost by keeping the package quiet. xgb is the injector's alone; GLFW
// talks to the server through Xlib, with none of this package's state.
func init() { xgb.Logger = log.New(io.Discard, "", 0) }

// conn is an open X connection with XTEST, in pure Go (github.com/jezek/xgb):
// no Xlib, so no process-wide error handler shared with GLFW's, and no
// libXtst to link.
type conn struct {
	x     *xgb.Conn
	press *presser // the key edges' own connection
	root  xproto.Window
	name  string      // the display's name, for errors
	wmPID xproto.Atom // _NET_WM_PID
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
	x, err := xgb.NewConnDisplay(name)
	if err != nil {
		return nil, fmt.Errorf("xtest: %w: cannot open X display %q (%v): start an X server there (xvfb-run does) "+
			"or set DISPLAY to one that runs, or fall back to synthetic input", ErrUnavailable, shown, err)
	}
	if err := xgbxtest.Init(x); err != nil {
		x.Close()
		return nil, fmt.Errorf("xtest: %w: X display %q has no XTEST extension (a server started with "+
			"-extension XTEST, or one that does not offer it): use a server with XTEST (Xvfb and Xorg have it "+
			"by default), or fall back to synthetic input", ErrUnavailable, shown)
	}
	// Nothing is selected, but every client gets MappingNotify: read
	// whatever comes so that xgb's queue never fills, until the
	// connection closes.
	go func() {
		for {
			if ev, err := x.WaitForEvent(); ev == nil && err == nil {
				return
			}
		}
	}()
	c := &conn{x: x, root: xproto.Setup(x).DefaultScreen(x).Root, name: shown}
	atom, err := xproto.InternAtom(x, false, uint16(len("_NET_WM_PID")), "_NET_WM_PID").Reply()
	if err != nil {
		x.Close()
		return nil, c.lostOr(err)
	}
	c.wmPID = atom.Atom
	x.ExtLock.RLock()
	opcode := x.Extensions["XTEST"]
	x.ExtLock.RUnlock()
	if c.press, err = dialPresser(name, opcode); err != nil {
		x.Close()
		return nil, fmt.Errorf("xtest: %w: cannot open a second connection to X display %q for the key presses (%v): "+
			"the server may limit its clients; fall back to synthetic input", ErrUnavailable, shown, err)
	}
	return c, nil
}

// keycode returns the key that types sym in the server's keymap: the first
// key with it in the keymap's first column, else in its second, and so on,
// as Xlib's XKeysymToKeycode looks.
func (c *conn) keycode(sym Keysym) (uint32, error) {
	setup := xproto.Setup(c.x)
	lo, hi := setup.MinKeycode, setup.MaxKeycode
	m, err := xproto.GetKeyboardMapping(c.x, lo, byte(hi-lo+1)).Reply()
	if err != nil {
		return 0, c.lostOr(err)
	}
	per := int(m.KeysymsPerKeycode)
	for col := range per {
		for k := 0; k <= int(hi-lo); k++ {
			if i := k*per + col; i < len(m.Keysyms) && uint32(m.Keysyms[i]) == uint32(sym) {
				return uint32(lo) + uint32(k), nil
			}
		}
	}
	return 0, fmt.Errorf("xtest: keysym %#x is on no key of X display %q's keymap: pick a key the layout has (DefaultKey is F9)", uint32(sym), c.name)
}

// fake sends one key event on keycode code and waits for the server to
// have processed it, on the presser's connection, allocating nothing: At
// is read just before the request is written, Acked after the round trip
// that checks it.
func (c *conn) fake(code uint32, down bool) (Stamp, error) {
	st, err := c.press.fake(byte(code), down)
	switch {
	case errors.Is(err, errRefused):
		return Stamp{}, fmt.Errorf("xtest: X display %q refused the fake key event on keycode %d (%v): "+
			"the keymap changed under the injector; Close it and Open a new one", c.name, code, err)
	case err != nil:
		return Stamp{}, c.lostError()
	}
	return st, nil
}

// focus gives the keyboard focus to the viewable window of process pid.
func (c *conn) focus(pid int) error {
	// Depth 2: a top-level window, or one a window manager reparented
	// into its frame.
	w, err := c.find(c.root, pid, 2)
	if err != nil {
		return c.lostOr(err)
	}
	if w == 0 {
		return fmt.Errorf("xtest: process %d has no visible window with _NET_WM_PID on X display %q: open the window visible (not hidden) before focusing it", pid, c.name)
	}
	if err := xproto.SetInputFocusChecked(c.x, xproto.InputFocusParent, w, xproto.TimeCurrentTime).Check(); err != nil {
		return c.lostOr(err)
	}
	f, err := xproto.GetInputFocus(c.x).Reply()
	if err != nil {
		return c.lostOr(err)
	}
	if f.Focus != w {
		return fmt.Errorf("xtest: X display %q kept the keyboard focus off process %d's window (a window manager decides it): click the window, or run on a server without one (Xvfb)", c.name, pid)
	}
	return nil
}

// find returns the topmost viewable window of process pid among w and its
// descendants down to depth levels, or 0. A window that went away while
// it looked is skipped.
func (c *conn) find(w xproto.Window, pid, depth int) (xproto.Window, error) {
	p, err := c.pidOf(w)
	if err != nil {
		return 0, err
	}
	if p == pid {
		a, err := xproto.GetWindowAttributes(c.x, w).Reply()
		if err != nil && lost(err) {
			return 0, err
		}
		if err == nil && a.MapState == xproto.MapStateViewable {
			return w, nil
		}
	}
	if depth == 0 {
		return 0, nil
	}
	t, err := xproto.QueryTree(c.x, w).Reply()
	if err != nil {
		if lost(err) {
			return 0, err
		}
		return 0, nil
	}
	for i := len(t.Children) - 1; i >= 0; i-- { // top of the stack first
		if f, err := c.find(t.Children[i], pid, depth-1); f != 0 || err != nil {
			return f, err
		}
	}
	return 0, nil
}

// pidOf returns w's _NET_WM_PID, or 0 when it has none (or is gone).
func (c *conn) pidOf(w xproto.Window) (int, error) {
	r, err := xproto.GetProperty(c.x, false, w, c.wmPID, xproto.AtomCardinal, 0, 1).Reply()
	switch {
	case err != nil && lost(err):
		return 0, err
	case err != nil || r.Type != xproto.AtomCardinal || r.Format != 32 || r.ValueLen != 1 || len(r.Value) < 4:
		return 0, nil
	}
	return int(xgb.Get32(r.Value)), nil
}

// focused returns the pid of the window key events go to, 0 if unknown.
func (c *conn) focused() (int, error) {
	f, err := xproto.GetInputFocus(c.x).Reply()
	if err != nil {
		return 0, c.lostOr(err)
	}
	switch f.Focus {
	case xproto.InputFocusNone:
		return 0, nil
	case xproto.InputFocusPointerRoot, c.root:
		// Key events go to the window under the pointer.
		for w := c.root; ; {
			q, err := xproto.QueryPointer(c.x, w).Reply()
			if err != nil {
				return 0, c.lostOr(err)
			}
			if q.Child == xproto.WindowNone {
				return 0, nil
			}
			if pid, err := c.pidOf(q.Child); err != nil || pid != 0 {
				return pid, c.lostOr(err)
			}
			w = q.Child
		}
	}
	for w := f.Focus; w != xproto.WindowNone && w != c.root; {
		pid, err := c.pidOf(w)
		if err != nil || pid != 0 {
			return pid, c.lostOr(err)
		}
		t, err := xproto.QueryTree(c.x, w).Reply()
		if err != nil {
			return 0, c.lostOr(err)
		}
		w = t.Parent
	}
	return 0, nil
}

func (c *conn) close() {
	c.press.close()
	c.x.Close()
}

// lost reports whether err says the connection is gone: xgb's read loop
// ended (io.EOF), or a request could not be sent or answered on it.
func lost(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, io.EOF) {
		return true
	}
	var xe xgb.Error
	if errors.As(err, &xe) {
		return false // the server answered, with an X error
	}
	return true
}

// lostOr is the connection's lost error when err says it is gone, else
// err as an X error on this display; nil for nil.
func (c *conn) lostOr(err error) error {
	switch {
	case err == nil:
		return nil
	case lost(err):
		return c.lostError()
	}
	return fmt.Errorf("xtest: X display %q: %s", c.name, strings.TrimSpace(err.Error()))
}

func (c *conn) lostError() error {
	return fmt.Errorf("xtest: the connection to X display %q broke (the server exited?): Open the injector again once a server runs there", c.name)
}
