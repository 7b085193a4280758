//go:build !windows && (!linux || wayland)

package xtest

import "fmt"

// source names the injector this build would have.
const source = "xtest"

// conn stands for the X connection this build cannot make.
type conn struct{}

// openConn fails: XTEST needs the X11 build (Linux, no wayland tag).
func openConn(string) (*conn, error) {
	return nil, fmt.Errorf("xtest: %w: this build has no X11 (it needs Linux and no wayland build tag): fall back to synthetic input", ErrUnavailable)
}

// The methods below are never called: openConn returns no conn.

func (*conn) keycode(Keysym) (uint32, error)   { return 0, errClosed }
func (*conn) fake(uint32, bool) (Stamp, error) { return Stamp{}, errClosed }
func (*conn) focus(int) error                  { return errClosed }
func (*conn) focused() (int, error)            { return 0, errClosed }
func (*conn) close()                           {}
