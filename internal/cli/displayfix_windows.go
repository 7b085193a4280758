//go:build cgo

package cli

import (
	"fmt"

	"github.com/tandem-engine/tandem/window"
)

// displayFix says why no window could be opened and what fixes it on
// Windows, where -headless has no Xvfb to start. Under Wine the usual
// cause is the prefix's wineserver, which keeps the X display it started
// with: one started by a run with no display, or on an X server that has
// gone (xvfb-run's, once it ended), refuses every window after it until
// it is stopped.
func displayFix(de *window.DisplayError, prog string) string {
	if window.UnderWine() {
		return fmt.Sprintf("cannot open a window on DISPLAY=%q (%s): under Wine, the prefix's wineserver keeps the display it started with, none or an X server that has gone: "+
			"stop it with wineserver -k (with the same WINEPREFIX), then run %s again with DISPLAY set to a running X server (or under xvfb-run)", de.Display, de.GLFW, prog)
	}
	return fmt.Sprintf("cannot open a window (%s): run %s from a logged-in desktop session; a service, or a remote shell without one, cannot open a window", de.GLFW, prog)
}
