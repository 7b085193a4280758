//go:build cgo && !linux

package glcheck

import (
	"errors"
	"unsafe"
)

// context is none here: WGL and CGL contexts come from a window (GLFW's),
// which the display-less pass does not open.
type context struct{}

func newContext() (*context, error) {
	return nil, errors.New("glcheck: no context without a window on this platform")
}

func (*context) procAddr(string) unsafe.Pointer { return nil }
func (*context) release()                       {}
