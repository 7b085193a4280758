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
func Main(games ...Game) {
	os.Exit(Command(os.Args[1:], os.Stdout, os.Stderr, games...))
}

// Command is Main without the process: it runs the command line args
// (without the program's name) for the games, writes to stdout and
// stderr, and returns the exit code: 0, 1 when the run failed (no display,
// no OpenGL 4.1, a bad level, a replay that does not verify), 2 for a bad
// command line. Main thread only.
func Command(args []string, stdout, stderr io.Writer, games ...Game) int {
	p := cli.Program{Name: filepath.Base(os.Args[0]), Games: adapt(games), Flags: flag.CommandLine, Charts: cli.ChartsFor}
	return p.Run(args, stdout, stderr)
}

// Run runs game in a window until the window closes, Esc, Ctrl-C,
// cfg.Seconds, or ctx is done; then it stops the sim thread, finishes the
// recording, and writes the screenshot and the summary cfg asks for. Its
// errors can be told apart with errors.Is and errors.As: [ErrNoDisplay],
// [ErrNoOpenGL], a [*ConfigError], a [*SetupError] or an [*OutputError];
// a bad Config or output path is reported before a window opens. Main
// thread only (see the package's Threads note).
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

// options turns cfg into the loop's options, checking every field and
// output path before anything runs.
func (cfg Config) options(ctx context.Context, game Game) (app.Options, error) {
	in := gameForLoop{game}.Info()
	o := app.Options{Game: gameForLoop{game}, Info: in, Scene: in.Name, Ctx: ctx, Seconds: cfg.Seconds}
	o.Window = app.WindowOptions{Title: cfg.Title, Width: or(cfg.Width, 1280), Height: or(cfg.Height, 720),
		VSync: !cfg.NoVSync, Fullscreen: cfg.Fullscreen, HUD: cfg.HUD}
	o.World = app.WorldOptions{Hz: or(cfg.Hz, 60), Seed: cfg.Seed, Sprites: or(cfg.Sprites, in.Sprites), SpriteSize: 32,
		LevelFile: cfg.Level}
	if o.World.Seed == 0 {
		o.World.Seed = 1
	}
	o.Loop = app.Loop(or(cfg.Loop, Decoupled))
	p := cfg.Pacing
	if cfg.FPSCap != 0 {
		p.FPSCap = cfg.FPSCap
	}
	p.PresentHold = p.PresentHold || cfg.PresentHold
	catchUp := p.CatchUp
	switch {
	case catchUp == 0:
		catchUp = 0.25
	case catchUp < 0:
		catchUp = 0
	}
	o.Pacing = app.PacingOptions{Interp: !p.NoInterp, DelayAuto: !p.FixedDelay, InterpDelayMs: float64(p.Delay) / 1e6,
		Extrapolate: p.Extrapolate, CatchUp: catchUp, FPSCap: p.FPSCap, EmulateHz: p.EmulateVSync, PresentHold: p.PresentHold}
	if o.Pacing.EmulateHz > 0 {
		o.Window.VSync = false
	}
	o.Output = app.OutputOptions{Screenshot: cfg.Screenshot, ShotDir: "."}
	o.Record = cfg.Record
	if err := check(o, in.Level != nil); err != nil {
		return o, err
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
	// A level file is tried once without a window, so that a level the
	// game refuses (a start with no room) is an error before one opens.
	if level != nil && cfg.Level != "" {
		if _, err := o.Game.NewSim(app.SimConfig(o, level, o.Window.Width, o.Window.Height)); err != nil {
			return o, err
		}
	}
	return o, nil
}

// check reports the first option out of range.
func check(o app.Options, takesLevel bool) error {
	bad := func(field string, v any, want string) error { return &ConfigError{Field: field, Value: v, Want: want} }
	switch p := o.Pacing; {
	case o.Window.Width < 64 || o.Window.Width > 16384:
		return bad("Width", o.Window.Width, "64 to 16384")
	case o.Window.Height < 64 || o.Window.Height > 16384:
		return bad("Height", o.Window.Height, "64 to 16384")
	case o.World.Hz < 1 || o.World.Hz > 1000:
		return bad("Hz", o.World.Hz, "1 to 1000 ticks a second")
	case o.World.Sprites < 0 || o.World.Sprites > 1_000_000:
		return bad("Sprites", o.World.Sprites, "0 to 1000000")
	case o.Seconds < 0 || o.Seconds != o.Seconds:
		return bad("Seconds", o.Seconds, "0 (until the window closes) or more")
	case !validLoop(o.Loop):
		return bad("Loop", o.Loop, "Decoupled, Coupled, Pipelined or Threaded")
	case p.FPSCap < 0 || p.FPSCap > 10_000:
		return bad("Pacing.FPSCap", p.FPSCap, "0 (no cap) to 10000")
	case p.EmulateHz < 0 || p.EmulateHz > 1000:
		return bad("Pacing.EmulateVSync", p.EmulateHz, "0 (off) to 1000 Hz")
	case p.InterpDelayMs < 0 || p.InterpDelayMs > 100:
		return bad("Pacing.Delay", p.InterpDelayMs, "0 to 100 ms")
	case p.Extrapolate < 0 || p.Extrapolate > 1:
		return bad("Pacing.Extrapolate", p.Extrapolate, "0 to 1 tick")
	case p.CatchUp > 4:
		return bad("Pacing.CatchUp", p.CatchUp, "up to 4")
	case p.PresentHold && p.EmulateHz > 0:
		return bad("Pacing.PresentHold", true, "no EmulateVSync: the emulated blanks pace the swaps")
	case p.PresentHold && o.Window.VSync:
		return bad("Pacing.PresentHold", true, "NoVSync (with vsync the blanks pace the presents)")
	case p.PresentHold && o.Loop != app.Decoupled && o.Loop != app.Threaded:
		return bad("Pacing.PresentHold", true, "the Decoupled or Threaded loop")
	case o.World.LevelFile != "" && !takesLevel:
		return bad("Level", o.World.LevelFile, "no level: this game takes none")
	}
	return nil
}

func validLoop(l app.Loop) bool {
	for _, v := range app.Loops {
		if l == v {
			return true
		}
	}
	return false
}

// or returns v, or def when v is the zero value.
func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}
