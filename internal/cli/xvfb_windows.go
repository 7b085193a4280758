//go:build windows

package cli

import (
	"errors"
	"io"
)

// needXvfb reports whether the run asked for a private X server: only
// -headless does on Windows, where the desktop is the display and DISPLAY
// means nothing.
func needXvfb(o options) bool { return o.headless }

// errNoXvfb is startXvfb's error on Windows.
var errNoXvfb = errors.New("-headless: a private display is an X server (Xvfb), which only Linux has: on Windows run without -headless, and the window opens on the desktop (a service or an SSH session without one cannot open it: run from a logged-in desktop session)")

// startXvfb fails: Windows has no Xvfb. The window opens on the desktop.
func startXvfb(w, h int, stderr io.Writer) (stop func(), err error) { return nil, errNoXvfb }
