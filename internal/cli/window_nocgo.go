//go:build !cgo

package cli

import (
	"fmt"
	"io"
)

// runWindow, in a build without cgo, says that it has no window:
// replay -fast is all this build runs.
func (p *Program) runWindow(opts options, stdout, stderr io.Writer) int {
	fmt.Fprintf(stderr, "%s: this program was built without cgo (CGO_ENABLED=0, or no C compiler was found), "+
		"so it has no window and no renderer: build it with cgo (on Debian: apt-get install gcc), "+
		"or replay a recording with %s replay -fast FILE, which needs none\n", p.Name, p.Name)
	return exitError
}
