//go:build cgo

package tandem

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// GLFW (and so OpenGL through it) must be called from the process's main
// thread: macOS's Cocoa requires it, and X11 and the GL context are bound to
// the thread that created them. Go runs package initialisation and then
// main() on the main goroutine, on the main thread, but may move a
// goroutine between threads at any time unless it is locked; locking in
// init, before main starts, pins the main goroutine to the main thread for
// every program that imports tandem.
func init() { runtime.LockOSThread() }

// Main runs tandem's standard command line for the games and exits the
// process with its exit code: tandem run (the default), bench and replay,
// with every flag of cmd/tandem. With more than one game, -scene NAME picks
// one (the first by default). It must be called from main, on the main
// thread (see the package's Threads note).
func Main(games ...Game) {
	os.Exit(Command(os.Args[1:], os.Stdout, os.Stderr, games...))
}

// Command is Main without the process: it runs the command line args
// (without the program's name) for the games, writes to stdout and
// stderr, and returns the exit code: 0, 1 when the run failed (no display,
// no OpenGL 4.1, a bad level, a replay that does not verify), 2 for a bad
// command line. Main thread only.
func Command(args []string, stdout, stderr io.Writer, games ...Game) int {
	return run(args, stdout, stderr, games)
}

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // the app failed: no display, no OpenGL 4.1, a bad level
	exitUsage = 2 // bad command line
)

// run is main without the process: it returns the exit code.
func run(args []string, stdout, stderr io.Writer, games []Game) int {
	sub := "run"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	switch sub {
	case "run", "bench", "replay":
		opts, err := parseFlags(sub, args, stderr, games)
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		if err != nil {
			fmt.Fprintf(stderr, "tandem %s: %v\n", sub, err)
			return exitUsage
		}
		switch {
		case opts.matrix:
			return runMatrix(opts, stdout, stderr)
		case opts.pacing:
			return runPacing(opts, stdout, stderr)
		}
		return runOnce(opts, stdout, stderr, games)
	case "help", "-h", "--help":
		usage(stdout, games)
		return exitOK
	default:
		fmt.Fprintf(stderr, "tandem: unknown subcommand %q\n", sub)
		usage(stderr, games)
		return exitUsage
	}
}

// runOnce runs the app once with opts: the display, the profiler, the
// profiles, the run, then the summary and the bench's report.
func runOnce(opts options, stdout, stderr io.Writer, games []Game) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "tandem: %v\n", err)
		return exitError
	}
	// Output paths are checked before anything runs: a typo costs nothing.
	if err := checkOutputs(opts); err != nil {
		fmt.Fprintf(stderr, "tandem: %v\n", err)
		return exitUsage
	}
	if opts.replayFile != "" {
		if err := openRecording(&opts, stderr, games); err != nil {
			return fail(err)
		}
		if opts.fast {
			return runFast(opts, stdout, stderr)
		}
	}
	// A bad level costs nothing either: no display, no window first.
	level, err := gameLevel(opts)
	if err != nil {
		return fail(err)
	}
	opts.loaded = level
	if opts.out != "" {
		if err := os.MkdirAll(opts.out, 0o755); err != nil {
			fmt.Fprintf(stderr, "tandem: -out: %v\n", err)
			return exitUsage
		}
	}
	// From here on the start takes seconds (Xvfb, the window, OpenGL): a
	// Ctrl-C in them stops the run when its loop begins, with the summary,
	// and a second one exits at once, as in the loop.
	opts.signals = watchSignals(stopGrace, stderr)
	defer opts.signals.close()
	if needXvfb(opts) {
		stop, err := startXvfb(opts.width, opts.height, stderr)
		if err != nil {
			return fail(err)
		}
		defer stop()
	}
	if opts.bench {
		setBenchEnv()
	}
	if opts.pprofAddr != "" {
		stop, addr, err := servePprof(opts.pprofAddr)
		if err != nil {
			return fail(err)
		}
		defer stop()
		fmt.Fprintf(stderr, "tandem: pprof at http://%s/debug/pprof/\n", addr)
	}
	stopProfiles, err := startProfiles(opts)
	if err != nil {
		stopProfiles()
		return fail(err)
	}
	sum, err := runApp(opts, nil)
	if perr := stopProfiles(); err == nil {
		err = perr
	}
	if err != nil {
		return fail(err)
	}
	switch {
	case opts.json:
		if err := sum.writeJSON(stdout); err != nil {
			return fail(err)
		}
	case opts.bench:
		if err := sum.writeText(stdout); err != nil {
			return fail(err)
		}
	}
	if w := stealWarning(sum.HostStealPct); w != "" {
		fmt.Fprintf(stderr, "tandem: %s\n", w)
	}
	if r := sum.Replay; r != nil {
		switch {
		case r.Verified:
			fmt.Fprintf(stderr, "tandem replay: %s: verified: %s (%d checkpoints)\n", opts.replayFile, verifiedWhat(opts.rec), r.Checkpoints)
		case opts.verify:
			fmt.Fprintf(stderr, "tandem replay: %s: %s\n", opts.replayFile, r.Error)
			return exitError
		default:
			fmt.Fprintf(stderr, "tandem replay: %s: warning: %s\n", opts.replayFile, r.Error)
		}
	}
	if opts.out != "" {
		if err := writeReport(opts.out, sum); err != nil {
			return fail(err)
		}
		fmt.Fprintf(stderr, "tandem: report in %s\n", opts.out)
	}
	return exitOK
}

func usage(w io.Writer, games []Game) {
	prog := filepath.Base(os.Args[0])
	var names []string
	for _, g := range games {
		names = append(names, infoOf(g).Name)
	}
	what := "play " + orList(names)
	if len(names) > 1 {
		what = "play " + names[0] + ", or -scene " + strings.Join(names[1:], " or ")
	}
	fmt.Fprintf(w, `usage: %[1]s [run|bench] [flags]
       %[1]s replay [flags] FILE

subcommands:
  run     %[2]s (the default subcommand);
          %[1]s run -h lists its flags; -record FILE records the run
  bench   run it under load and measure it: frame pacing, latency,
          tick jitter; -matrix compares the three loops, -pacing the
          ways of choosing each frame's moment; %[1]s bench -h
  replay  play a recording back in any -loop; -fast runs the sim alone
          as fast as it steps; -verify checks every checkpoint

Without a display, %[1]s starts its own Xvfb (-headless asks for it).

keys: the game's (by default arrows/WASD/d-pad move, space/up/mouse/A
jump or fire); P pauses, . steps while paused, [ and ] slow down and
speed up, F3 HUD, F11 fullscreen, F12 screenshot, Esc quits.
`, prog, what)
}
