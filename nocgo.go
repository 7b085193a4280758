//go:build !cgo

package tandem

import (
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"

	"github.com/tandem-engine/tandem/internal/cli"
)

// Main, in a build without cgo, runs what needs no window (replay -fast
// FILE) and says of the rest that it cannot open one, with exit status 1.
func Main(games ...Game) {
	os.Exit(Command(os.Args[1:], os.Stdout, os.Stderr, games...))
}

// MainWith, in a build without cgo, is Main: the charts need a bench,
// which needs a window.
func MainWith(_ Tools, games ...Game) { Main(games...) }

// Command, in a build without cgo, is Main without the process: replay
// -fast runs; run, bench and a windowed replay write that the program
// has no window to stderr and return 1.
func Command(args []string, stdout, stderr io.Writer, games ...Game) int {
	p := cli.Program{Name: filepath.Base(os.Args[0]), Games: adapt(games), Flags: flag.CommandLine}
	return p.Run(args, stdout, stderr)
}

// Run, in a build without cgo, returns [ErrNoCgo].
func Run(ctx context.Context, game Game, cfg Config) error { return ErrNoCgo }
