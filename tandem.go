//go:build cgo

package tandem

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/internal/app"
	"github.com/tandem-engine/tandem/internal/cli"
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/internal/glcheck"
	"github.com/tandem-engine/tandem/window"
)

// GLFW (and so OpenGL through it) must be called from the process's main
// thread: macOS's Cocoa requires it, and X11 and the GL context are bound to
// the thread that created them. Go runs package initialisation and then
// main() on the main goroutine, on the main thread, but may move a
// goroutine between threads at any time unless it is locked; locking in
// init, before main starts, pins the main goroutine to the main thread for
// every program that imports tandem.
func init() { runtime.LockOSThread() }

// Main runs the standard command line for the games and exits the
// process with its exit code: run (the default), bench and replay. With
// more than one game, -scene NAME picks one (the first by default). A
// game's own flags, defined with the flag package before Main, are
// parsed with the engine's and shown in -h. It must be called from main,
// on the main thread (see the package's Threads note).
//
// stdout carries the summary (or -json's line) alone: what the program's
// Go code prints to os.Stdout during the command (a library's stray
// print, the game's own) goes to stderr.
func Main(games ...Game) {
	os.Exit(Command(os.Args[1:], cli.OwnStdout(), os.Stderr, games...))
}

// MainWith is Main with tools: the bench's charts, which link a plotting
// library that a game's program need not carry (the tandem launcher
// passes bench/charts').
func MainWith(tools Tools, games ...Game) {
	os.Exit(commandWith(tools, os.Args[1:], cli.OwnStdout(), os.Stderr, games...))
}

// Command is Main without the process: it runs the command line args
// (without the program's name) for the games, writes to stdout and
// stderr, and returns the exit code: 0, 1 when the run failed (no display,
// no OpenGL 4.1, a bad level, a replay that does not verify), 2 for a bad
// command line. Main thread only.
func Command(args []string, stdout, stderr io.Writer, games ...Game) int {
	return commandWith(Tools{}, args, stdout, stderr, games...)
}

func commandWith(tools Tools, args []string, stdout, stderr io.Writer, games ...Game) int {
	p := cli.Program{Name: filepath.Base(os.Args[0]), Games: adapt(games), Flags: flag.CommandLine,
		Charts: cli.Charts{Run: tools.RunCharts, Sweep: tools.SweepCharts}}
	return p.Run(args, stdout, stderr)
}

// Run runs game in a window until the window closes, Esc, Ctrl-C,
// cfg.Seconds, or ctx is done; then it stops the sim thread, finishes the
// recording, and writes the screenshot and the summary cfg asks for. Its
// errors can be told apart with errors.Is and errors.As: [ErrNoDisplay],
// [ErrNoOpenGL], a [*ConfigError], a [*SetupError] or an [*OutputError];
// a bad Config or output path, and what the game's Setup cannot do (it
// runs once without a window first), are reported before a window opens.
// Main thread only (see the package's Threads note).
func Run(ctx context.Context, game Game, cfg Config) error {
	stdout, stderr := cfg.Stdout, cfg.Stderr
	if stdout == nil {
		stdout = os.Stdout
	}
	if stderr == nil {
		stderr = os.Stderr
	}
	opts, err := cfg.options(ctx, game)
	if err != nil {
		return err
	}
	if cfg.Headless || os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return fmt.Errorf("%w (Config.Headless and a missing display need a private X server, which only tandem.Main starts)", ErrNoDisplay)
	}
	sum, err := app.Run(opts)
	switch {
	case errors.Is(err, window.ErrNoDisplay):
		return fmt.Errorf("%w: %v", ErrNoDisplay, err)
	case errors.Is(err, window.ErrNoContext), errors.Is(err, gl.ErrNoGL41):
		return fmt.Errorf("%w: %v", ErrNoOpenGL, err)
	case errors.Is(err, app.ErrDisplayLost):
		err = fmt.Errorf("%w: %v", ErrDisplayLost, err)
	case errors.Is(err, app.ErrSimStuck):
		err = fmt.Errorf("%w: %v", ErrSimStuck, err)
	case err != nil:
		return err
	}
	if cfg.JSON {
		if err := sum.WriteJSON(stdout); err != nil {
			return &OutputError{Field: "JSON", Path: "(Stdout)", Err: err}
		}
	}
	if w := app.StealWarning(sum.HostStealPct); w != "" {
		fmt.Fprintf(stderr, "tandem: %s\n", w)
	}
	return err
}

// options turns cfg into the loop's options, over the loop's defaults
// and through its one check of every field, then checks the output paths
// and loads the level, before anything runs.
func (cfg Config) options(ctx context.Context, game Game) (app.Options, error) {
	in := gameForLoop{game}.Info()
	o := app.Defaults()
	o.Game, o.Info, o.Scene, o.Ctx = gameForLoop{game}, in, in.Name, ctx
	var err error
	if o.Seconds, err = app.SecondsOf(cfg.Seconds); err != nil {
		return o, &ConfigError{Field: "Seconds", Value: cfg.Seconds, Want: "0 (until the window closes) or more seconds, under 292 years"}
	}
	w := &o.Window
	w.Title, w.Fullscreen, w.HUD, w.VSync = cfg.Title, cfg.Fullscreen, cfg.HUD, !cfg.NoVSync
	w.Width, w.Height = or(cfg.Width, w.Width), or(cfg.Height, w.Height)
	o.World.Hz, o.World.Seed = or(cfg.Hz, o.World.Hz), or(cfg.Seed, o.World.Seed)
	o.World.Sprites, o.World.LevelFile = or(cfg.Sprites, in.Sprites), cfg.Level
	o.Loop = app.Loop(or(cfg.Loop, Loop(o.Loop)))
	o.Pacing = cfg.pacing(o.Pacing)
	o.Output.Screenshot, o.Record = cfg.Screenshot, cfg.Record
	o.Audio = app.AudioOptions{Mute: cfg.Mute, AVLock: cfg.AVLock, Buffer: cfg.AudioBuffer}
	if err := o.Validate(); err != nil {
		return o, configError(err)
	}
	for _, f := range []struct{ field, path string }{{"Screenshot", cfg.Screenshot}, {"Record", cfg.Record}} {
		if f.path == "" {
			continue
		}
		if err := app.CheckOutput(f.path, f.field == "Screenshot"); err != nil {
			return o, &OutputError{Field: f.field, Path: f.path, Err: err}
		}
	}
	level, err := app.GameLevel(o)
	if err != nil {
		return o, &ConfigError{Field: "Level", Value: cfg.Level, Want: "a level file the game can load: " + err.Error()}
	}
	o.World.Level = level
	// The game is set up once without a window, so that what its Setup
	// cannot do (a missing file or name, a level it refuses, a bad flag
	// value, a shader that does not compile where a GL context can be had
	// before the window: internal/glcheck) is an error before one opens;
	// the run sets it up again on the window's framebuffer.
	sim, err := o.Game.NewSim(app.SimConfig(o, level, o.Window.Width, o.Window.Height))
	if err == nil {
		_, _, err = glcheck.Shaders(sim.Look().Draw.Shaders)
	}
	runtime.GC() // the trial sim's memory is not the run's peak
	if ue := (*engine.UsageError)(nil); errors.As(err, &ue) {
		err = ue.Err // the *SetupError around the game's *FlagError
	}
	return o, err
}

// pacing maps cfg's Pacing (and its deprecated fields) onto the loop's,
// over the defaults d. A zero CatchUp is the default; a negative one
// jumps at once, which the loop's options say with 0.
func (cfg Config) pacing(d app.PacingOptions) app.PacingOptions {
	p := cfg.Pacing
	d.Snap, d.DelayAuto, d.Delay, d.Extrapolate = p.NoInterp, !p.FixedDelay, p.Delay, p.Extrapolate
	d.FPSCap, d.EmulateHz, d.PresentHold = or(cfg.FPSCap, p.FPSCap), p.EmulateVSync, p.PresentHold || cfg.PresentHold
	switch {
	case p.CatchUp > 0:
		d.CatchUp = p.CatchUp
	case p.CatchUp < 0:
		d.CatchUp = 0
	}
	return d
}

// configError turns the loop's option error into a [*ConfigError].
func configError(err error) error {
	var oe *app.OptionError
	if !errors.As(err, &oe) {
		return err
	}
	return &ConfigError{Field: oe.Field, Value: oe.Value, Want: oe.Want, opt: oe}
}
