package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
)

// GLFW (and so OpenGL through it) must be called from the process's main
// thread: macOS's Cocoa requires it, and X11 and the GL context are bound to
// the thread that created them. Go starts main() on the main thread, but may
// move a goroutine between threads at any time unless it is locked; locking
// in init, before main starts, pins the main goroutine to the main thread.
func init() { runtime.LockOSThread() }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // the app failed: no display, no OpenGL 4.1, a bad level
	exitUsage = 2 // bad command line
)

// run is main without the process: it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	sub := "run"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	switch sub {
	case "run":
		opts, err := parseRunFlags(args, stderr)
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		if err != nil {
			fmt.Fprintf(stderr, "tandem: %v\n", err)
			return exitUsage
		}
		stopProfiles, err := startProfiles(opts)
		if err != nil {
			stopProfiles()
			fmt.Fprintf(stderr, "tandem: %v\n", err)
			return exitError
		}
		sum, err := runApp(opts, nil)
		if perr := stopProfiles(); err == nil {
			err = perr
		}
		if err != nil {
			fmt.Fprintf(stderr, "tandem: %v\n", err)
			return exitError
		}
		if opts.json {
			if err := sum.writeJSON(stdout); err != nil {
				fmt.Fprintf(stderr, "tandem: %v\n", err)
				return exitError
			}
		}
		return exitOK
	case "help", "-h", "--help":
		usage(stdout)
		return exitOK
	default:
		fmt.Fprintf(stderr, "tandem: unknown subcommand %q\n", sub)
		usage(stderr)
		return exitUsage
	}
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage: tandem [run] [flags]

subcommands:
  run     open the demo (the default); tandem run -h lists its flags

keys: arrows/WASD move, space jumps, P pauses, . steps while paused,
[ and ] slow down and speed up, F3 HUD, F11 fullscreen, F12 screenshot,
Esc quits.
`)
}
