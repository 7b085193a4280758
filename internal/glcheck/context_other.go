//go:build cgo && !linux && !windows

package glcheck

import "errors"

// context is none here: macOS's CGL could make one without a window, but
// nothing here can try it, so the window's compile is the check.
type context struct{}

func newContext() (*context, error) {
	return nil, errors.New("glcheck: no context before the window on this platform")
}

func (*context) load() error { return nil }
func (*context) release()    {}
