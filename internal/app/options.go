package app

import (
	"context"
	"fmt"
	"time"

	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/physics"
	"github.com/tandem-engine/tandem/replay"
)

// Options are how the loop runs a game, grouped by concern. tandem.Run
// builds them from a Config, the command line from its flags; every
// field has its final value (no zero means a default here).
type Options struct {
	Game  engine.Game
	Info  engine.Info // the game's
	Scene string      // its name
	// Ctx ends the run when it is done; nil: never.
	Ctx context.Context
	// Seconds stops the run after this long (after the warm-up); 0: when
	// the window closes.
	Seconds  float64
	Autoplay bool // the default autoplay plays (run right, jump)
	Loop     Loop

	Window  WindowOptions
	World   WorldOptions
	Pacing  PacingOptions
	Load    LoadOptions
	Measure MeasureOptions
	Output  OutputOptions
	// Record is the file the run's input is recorded to; "": none.
	Record string
	Replay ReplayOptions
	// Signals are Ctrl-C and SIGTERM, watched from before the run's start
	// (the command line starts Xvfb first); nil: watched from the loop.
	Signals *Signals
	// Last writes the summary when a stop's grace ran out with the render
	// thread stuck in a frame, from the watchdog, just before the process
	// exits with code 1 (the command line prints it as it would have);
	// nil: no summary then.
	Last func(*Summary)
}

// WindowOptions are the window's.
type WindowOptions struct {
	Title         string // "": the game's name
	Width, Height int    // screen coordinates
	VSync         bool
	Fullscreen    bool
	HUD           bool // shown at start (F3 toggles it)
}

// WorldOptions are what the game is set up with.
type WorldOptions struct {
	Hz         int
	Seed       uint64
	Sprites    int
	SpriteSize int
	Spin       bool
	LevelFile  string         // the level's file; "": the game's own
	Level      *physics.Level // loaded before the run; nil: loaded at its start
	// ArenaW, ArenaH is the arena a replay was recorded in (0: the
	// framebuffer's).
	ArenaW, ArenaH int
	// GameFlags are the game's own flags as NAME=VALUE, for a
	// recording to hold (a replay sets them from it).
	GameFlags []string
}

// PacingOptions choose each frame's moment and pace its present (see
// docs/pacing.md).
type PacingOptions struct {
	Interp        bool    // blend the two newest snapshots; false: draw the newest
	DelayAuto     bool    // the jitter buffer sizes the delay and each frame aims at its present
	InterpDelayMs float64 // the fixed delay, ms, when not DelayAuto
	Extrapolate   float64 // how far past the newest a late frame may go, in ticks
	CatchUp       float64 // after a stall the picture runs up to 1+CatchUp as fast
	FPSCap        int     // frames a second at most; 0: no cap
	EmulateHz     int     // swap on a blank grid of this rate (0: off)
	PresentHold   bool    // hold each swap to a steady lead after its moment
}

// LoadOptions are the bench's load knobs.
type LoadOptions struct {
	SimCost, RenderCost time.Duration // busy work in every tick, every frame
	Hitches             []Hitch
	GCLoad              float64 // MB/s of garbage
}

// MeasureOptions are the bench's.
type MeasureOptions struct {
	Bench     bool    // the bench: its injected input, its text summary
	Warmup    float64 // seconds run before measuring
	Probe     bool    // draw the probe
	HostFloor bool    // time the machine's own unevenness after the run
	// RealInput presses a real key (F9) through the X server's XTest
	// extension at random moments, instead of the synthetic button the
	// bench pushes into the queue itself; where XTest is missing the
	// bench falls back to the synthetic one and says so.
	RealInput bool
}

// OutputOptions are what the run writes.
type OutputOptions struct {
	Screenshot string // the last frame, at exit; "": none
	ShotDir    string // where F12 writes
}

// ReplayOptions are a replay's.
type ReplayOptions struct {
	File string            // the recording's name
	Rec  *replay.Recording // nil: not a replay
}

// Loop is a loop architecture.
type Loop string

// The loops.
const (
	Decoupled Loop = "decoupled" // the sim on its own thread
	Coupled   Loop = "coupled"   // the classic single-thread loop
	Pipelined Loop = "pipelined" // the sim runs the next frame's ticks while this one draws
	// Threaded draws as Decoupled does, on a render thread of its own:
	// the main thread keeps the window and stamps input as it arrives.
	Threaded Loop = "threaded"
)

// Loops are the loop architectures, in the order reports list them.
var Loops = []Loop{Coupled, Decoupled, Pipelined, Threaded}

// ownsSchedule reports whether frames choose the moment they show from
// the sim's own schedule: the loops whose sim runs free on its thread.
func (l Loop) ownsSchedule() bool { return l == Decoupled || l == Threaded }

// Hitch is a stall of one thread every so often: -hitch WHO:EVERY:DURATION.
type Hitch struct {
	Who      string // "sim" or "render"
	Every    time.Duration
	Duration time.Duration
}

func (h Hitch) String() string { return fmt.Sprintf("%s:%v:%v", h.Who, h.Every, h.Duration) }
