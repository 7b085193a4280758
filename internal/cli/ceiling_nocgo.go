//go:build !cgo

package cli

import "io"

// runCeiling, in a build without cgo, has no window to draw in either.
func (p *Program) runCeiling(opts options, stdout, stderr io.Writer) int {
	return p.runWindow(opts, stdout, stderr)
}
