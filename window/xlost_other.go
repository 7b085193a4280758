//go:build !linux || wayland

package window

// watchDisplay has nothing to watch off X11.
func watchDisplay() {}

// DisplayLost reports whether the connection to the display broke; off
// X11, never. Any thread.
func DisplayLost() bool { return false }
