//go:build !cgo

package tandem

import (
	"context"
	"fmt"
	"io"
	"os"
)

// Main, in a build without cgo, says that it cannot open a window and
// exits with status 1.
func Main(games ...Game) {
	os.Exit(Command(os.Args[1:], os.Stdout, os.Stderr, games...))
}

// Command, in a build without cgo, writes that it cannot open a window to
// stderr and returns 1.
func Command(args []string, stdout, stderr io.Writer, games ...Game) int {
	fmt.Fprintln(stderr, ErrNoCgo)
	return 1
}

// Run, in a build without cgo, returns [ErrNoCgo].
func Run(ctx context.Context, game Game, cfg Config) error { return ErrNoCgo }
