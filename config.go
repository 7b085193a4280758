package tandem

import (
	"io"
	"time"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/simthread"
)

// Config is how [Run] runs a game. The zero value of every field is its
// default.
type Config struct {
	Title         string  // the window's title (default: the game's name)
	Width, Height int     // the window, in screen coordinates (default 1280 x 720)
	Hz            int     // ticks per second (default 60)
	Seed          uint64  // the game's seed (default 1)
	Sprites       int     // how much load the game makes (default: its Info.Sprites)
	Seconds       float64 // stop after this long (default: when the window closes)
	Loop          Loop    // how the sim and the frames share threads (default Decoupled)
	NoVSync       bool    // do not wait for vertical sync
	Pacing        Pacing  // how each frame's moment and present are chosen
	Fullscreen    bool
	// Headless runs on a private X server even where there is a display:
	// only [Main] starts one (a game built with Run links no process
	// spawning); with Run, start the program under xvfb-run instead.
	Headless   bool
	HUD        bool   // show the HUD at start (F3 toggles it)
	Level      string // a level file, for a game that takes one
	Screenshot string // write the last frame to this PNG or JPEG at exit
	Record     string // record the run's input to this file (tandem replay plays it)
	JSON       bool   // write the one-line JSON summary to Stdout at exit
	Mute       bool   // play no sound
	// AVLock raises the picture's delay to the sound device's latency, so
	// that a tick's picture and its sound meet within a frame, at the
	// cost of input latency (docs/sound.md).
	AVLock bool
	// AudioBuffer is the sound device's buffer, which sets how soon a
	// sound is heard (0: the default, audio.DefaultBuffer, the least of
	// those measured on a 2-core machine); raise it on a machine whose
	// summary shows audio_underruns (docs/sound.md).
	AudioBuffer time.Duration
	// Stdout and Stderr default to the process's.
	Stdout, Stderr io.Writer

	// Deprecated: use Pacing.FPSCap.
	FPSCap int
	// Deprecated: use Pacing.PresentHold.
	PresentHold bool
}

// Loop is how the sim and the frames share threads.
type Loop string

// The loops (see docs/architecture.md).
const (
	// Decoupled runs the sim on its own thread; frames draw the world
	// interpolated between its two newest snapshots.
	Decoupled Loop = "decoupled"
	// Coupled is the classic single-thread loop: each frame runs the
	// ticks due, then draws.
	Coupled Loop = "coupled"
	// Pipelined runs the next frame's ticks on the sim thread while this
	// frame draws (Bevy's pipelined rendering).
	Pipelined Loop = "pipelined"
	// Threaded draws as Decoupled does, on a render thread of its own, so
	// that the main thread only waits for input and stamps each event
	// when it arrives, not when a frame's work lets it poll.
	Threaded Loop = "threaded"
)

// Pacing is how each frame chooses the moment it shows and when it is
// presented (see docs/pacing.md). The zero value is the default: the
// delay sized from how late snapshots arrive, no cap.
type Pacing struct {
	// FPSCap renders at most this many frames a second, due on a grid of
	// the monotonic clock (0: no cap). With NoVSync in the decoupled
	// loop the grid is the presents': each frame starts early enough to
	// finish and holds its swap to its deadline.
	FPSCap int
	// PresentHold, with NoVSync, holds each swap to a steady lead after
	// the moment it shows, so the picture moves as much as the presents
	// do, at some cost in frame rate.
	PresentHold bool
	// FixedDelay draws the world Delay in the past; without it the delay
	// is sized from how late snapshots arrive and each frame aims at its
	// predicted present.
	FixedDelay bool
	Delay      time.Duration // 0 to 100 ms, with FixedDelay
	// NoInterp draws the newest snapshot as it is.
	NoInterp bool
	// Extrapolate lets a late frame run up to this fraction of a tick
	// past the newest snapshot (0 to 1; 0: never).
	Extrapolate float64
	// CatchUp lets the picture run up to 1+CatchUp times as fast after a
	// stall until it is back on schedule (0: the default 0.25; negative:
	// jump at once).
	CatchUp float64
	// EmulateVSync swaps on a blank grid of this many Hz on the monotonic
	// clock, for a display without vsync (Xvfb); 0: off.
	EmulateVSync int
}

// or returns v, or def when v is the zero value.
func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// Tools are what [MainWith] adds to the standard command line: heavy
// tools a game's program links only when it asks for them.
type Tools struct {
	// RunCharts draws one bench run's charts from its records into dir
	// (bench/charts.Run); nil: bench -out writes no charts.
	RunCharts func(dir string, frames []bench.FrameRecord, ticks []simthread.TickRecord, title string) ([]string, error)
	// SweepCharts draws a -matrix sweep's charts from its results into
	// dir (bench/charts.Matrix); nil: none.
	SweepCharts func(dir string, results []bench.Result) ([]string, error)
}
