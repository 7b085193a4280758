//go:build windows || darwin

package cli

import (
	"fmt"
	"io"
	"runtime"
)

// needXvfb reports whether the run asked for a private X server: only
// -headless does on Windows and macOS, where the desktop is the display
// and DISPLAY means nothing to the window.
func needXvfb(o options) bool { return o.headless }

// startXvfb fails: a private display is an X server, and tandem starts one
// only on Linux. The window opens on the desktop instead.
func startXvfb(w, h int, stderr io.Writer) (stop func(), err error) {
	return nil, fmt.Errorf("-headless: a private display is an X server (Xvfb), which tandem starts only on Linux: on %s run without -headless, and the window opens on the desktop (a service, or a remote shell with no desktop session, cannot open it: run from a logged-in desktop)", runtime.GOOS)
}
