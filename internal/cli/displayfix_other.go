//go:build cgo && !windows

package cli

import (
	"fmt"
	"runtime"

	"github.com/tandem-engine/tandem/window"
)

// displayFix says why the display could not be opened and what fixes it
// here: on Linux the command line has a better way than xvfb-run, its own
// Xvfb.
func displayFix(de *window.DisplayError, prog string) string {
	if runtime.GOOS == "darwin" {
		return fmt.Sprintf("cannot open a window (%s): run %s from a logged-in desktop session; a remote shell without one cannot open a window", de.GLFW, prog)
	}
	return fmt.Sprintf("cannot open the display DISPLAY=%q (%s): unset DISPLAY (or add -headless) and %s starts its own Xvfb, or point DISPLAY at a running X server", de.Display, de.GLFW, prog)
}
