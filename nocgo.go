//go:build !cgo

package tandem

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

// errNoCgo is what Main, Command and Run say in a build without cgo: the
// game's side of the API builds without it, the window and the renderer
// do not.
var errNoCgo = errors.New("tandem: this program was built without cgo (CGO_ENABLED=0, or no C compiler was found), " +
	"so it has no window and no renderer: build it with cgo (on Debian: apt-get install gcc, then go build again); " +
	"NewSim steps a game without a window")

// Main, in a build without cgo, says that it cannot open a window and
// exits with status 1.
func Main(games ...Game) {
	os.Exit(Command(os.Args[1:], os.Stdout, os.Stderr, games...))
}

// Command, in a build without cgo, writes that it cannot open a window to
// stderr and returns 1.
func Command(args []string, stdout, stderr io.Writer, games ...Game) int {
	fmt.Fprintln(stderr, errNoCgo)
	return 1
}

// Run, in a build without cgo, returns an error saying it cannot open a
// window.
func Run(ctx context.Context, game Game, cfg Config) error { return errNoCgo }
