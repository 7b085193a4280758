//go:build !linux || wayland

package window

import (
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"
)

// inputWatch has no connection of its own to wait on off X11: WaitEvents
// waits on GLFW's. openInputWatch returns nil, so the methods below are
// never called; they exist so that window.go compiles on every platform
// (Windows, macOS, Wayland) without asking which one it is on.
type inputWatch struct{}

const handoff = 20 * time.Millisecond

func openInputWatch(*glfw.Window) *inputWatch       { return nil }
func (*inputWatch) wait(timeout time.Duration) bool { return false }
func (*inputWatch) wake()                           {}
func (*inputWatch) handoff(until time.Time)         {}
func (*inputWatch) close()                          {}
