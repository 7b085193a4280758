package app

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/tandem-engine/tandem/audio"
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/physics"
	"github.com/tandem-engine/tandem/replay"
)

// Options are how the loop runs a game, grouped by concern. tandem.Run
// builds them from a Config, the command line from its flags, both over
// [Defaults] and through [Options.Validate]; every field has its final
// value (no zero means a default here).
type Options struct {
	Game  engine.Game
	Info  engine.Info // the game's
	Scene string      // its name
	// Ctx ends the run when it is done; nil: never.
	Ctx context.Context
	// Seconds stops the run after this long (after the warm-up); 0: when
	// the window closes.
	Seconds  time.Duration
	Autoplay bool // the default autoplay plays (run right, jump)
	Loop     Loop

	Window  WindowOptions
	World   WorldOptions
	Pacing  PacingOptions
	Load    LoadOptions
	Measure MeasureOptions
	Output  OutputOptions
	Audio   AudioOptions
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
	Snap        bool          // draw the newest snapshot as it is; false: blend the two newest
	DelayAuto   bool          // the jitter buffer sizes the delay and each frame aims at its present
	Delay       time.Duration // the fixed delay, when not DelayAuto
	Extrapolate float64       // how far past the newest a late frame may go, in ticks
	CatchUp     float64       // after a stall the picture runs up to 1+CatchUp as fast (0: jumps at once)
	FPSCap      int           // frames a second at most; 0: no cap
	EmulateHz   int           // swap on a blank grid of this rate (0: off)
	PresentHold bool          // hold each swap to a steady lead after its moment
}

// LoadOptions are the bench's load knobs.
type LoadOptions struct {
	SimCost, RenderCost time.Duration // busy work in every tick, every frame
	Hitches             []Hitch
	GCLoad              float64 // MB/s of garbage
}

// MeasureOptions are the bench's.
type MeasureOptions struct {
	Bench  bool          // the bench: its injected input, its text summary
	Warmup time.Duration // run before measuring
	Probe  bool          // draw the probe
	// ProbeShape draws the probe through the game's drawing instead of as
	// a quad: a keyed rectangle the sim publishes with a text label under
	// it, blended on the GPU between the two snapshots as a game's shapes
	// and text are, over a black band along the top (probecheck.go).
	ProbeShape bool
	// ProbeCheck reads the probe's rows back on every 8th frame of the
	// measured window, before its swap, and compares where the pixels put
	// the probe with where the frame's record says it is.
	ProbeCheck bool
	HostFloor  bool // time the machine's own unevenness after the run
	// RealInput presses a real key (F9) through the X server's XTest
	// extension at random moments, instead of the synthetic button the
	// bench pushes into the queue itself; where XTest is missing the
	// bench falls back to the synthetic one and says so.
	RealInput bool
}

// AudioOptions are the sound's (docs/sound.md).
type AudioOptions struct {
	Mute bool // play nothing; the summary's audio says muted
	// AVLock raises the renderer's delay to the sound device's latency,
	// so that a tick's picture and its sound meet within a frame.
	AVLock bool
	// OnCall starts each sound at the next buffer the device pulls, as
	// engines that play on call do, instead of on its tick's sample
	// (audio.Options.OnCall): the bench's comparison, audio_timing
	// "on-call".
	OnCall bool
	// Buffer is the sound device's buffer, which sets its latency. 0: the
	// default (audio.DefaultBuffer), the least of those measured on a
	// 2-core machine; a machine whose sound underruns needs more.
	Buffer time.Duration
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

// Hitch is a stall of one thread every so often: -hitch WHO:EVERY:DURATION.
type Hitch struct {
	Who      string // "sim" or "render"
	Every    time.Duration
	Duration time.Duration
}

func (h Hitch) String() string { return fmt.Sprintf("%s:%v:%v", h.Who, h.Every, h.Duration) }

// Defaults returns the options every run starts from, before a Config or
// the flags set theirs: the one place that holds them. Game, Info and
// Scene are the caller's; Sprites is the game's own (Info.Sprites) unless
// set.
func Defaults() Options {
	return Options{
		Window: WindowOptions{Width: 1280, Height: 720, VSync: true},
		World:  WorldOptions{Hz: 60, Seed: 1, SpriteSize: 32},
		Pacing: PacingOptions{DelayAuto: true, CatchUp: 0.25},
		Loop:   Decoupled,
		Output: OutputOptions{ShotDir: "."},
	}
}

// BenchDefaults are the bench's own defaults over [Defaults]: a measured
// 5 s after a 1 s warm-up, without vsync, with the probe.
func BenchDefaults() Options {
	o := Defaults()
	o.Seconds = 5 * time.Second
	o.Window.VSync = false
	o.Measure = MeasureOptions{Bench: true, Warmup: time.Second, Probe: true}
	return o
}

// SecondsOf is s seconds as a Duration: how -seconds, -warmup and
// Config.Seconds, given in seconds, are held. Not a number, or more than
// a Duration holds (292 years either way), is an error; a negative time
// is left to Validate.
func SecondsOf(s float64) (time.Duration, error) {
	if math.IsNaN(s) || math.Abs(s) >= float64(math.MaxInt64)/1e9 {
		return 0, fmt.Errorf("%v s: want a number of seconds, under 292 years", s)
	}
	return time.Duration(math.Round(s * 1e9)), nil
}

// OptionError is an option out of its range: it names the option as a
// Config field and as a flag, the value, and what it wants, in one
// message whichever way the option was given.
type OptionError struct {
	Field string // the Config field, e.g. "Pacing.FPSCap"
	Flag  string // the flag, e.g. "fps-cap"
	Value any
	Want  string
}

func (e *OptionError) Error() string {
	return fmt.Sprintf("-%s %v (Config.%s): want %s", e.Flag, e.Value, e.Field, e.Want)
}

// Validate returns the first option out of its range, as an
// [*OptionError]; it also settles what one option implies for another
// (an emulated vsync replaces the real one). Config, the flags and a
// replay's options all pass through it.
func (o *Options) Validate() error {
	bad := func(field, flag string, v any, want string) error {
		return &OptionError{Field: field, Flag: flag, Value: v, Want: want}
	}
	w, wo, p := o.Window, o.World, o.Pacing
	notNumber := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
	switch {
	case w.Width < 64 || w.Width > 16384:
		return bad("Width", "width", w.Width, "64 to 16384 px")
	case w.Height < 64 || w.Height > 16384:
		return bad("Height", "height", w.Height, "64 to 16384 px")
	case ValidateWorld(wo) != nil:
		return ValidateWorld(wo)
	case wo.LevelFile != "" && o.Info.Level == nil && o.Replay.Rec == nil:
		return bad("Level", "level", wo.LevelFile, fmt.Sprintf("no level: %s takes none", o.Scene))
	case o.Seconds < 0:
		return bad("Seconds", "seconds", o.Seconds.Seconds(), "0 (until the window closes) or more seconds")
	case o.Measure.Bench && o.Seconds == 0:
		return bad("Seconds", "seconds", o.Seconds.Seconds(), "a measured time above 0 for the bench")
	case o.Measure.Warmup < 0:
		return bad("Warmup", "warmup", o.Measure.Warmup.Seconds(), "0 or more seconds")
	case !slices.Contains(Loops, o.Loop):
		return bad("Loop", "loop", o.Loop, "decoupled, coupled, pipelined or threaded")
	case o.Audio.Buffer != 0 && (o.Audio.Buffer < audio.MinBuffer || o.Audio.Buffer > audio.MaxBuffer):
		return bad("AudioBuffer", "audio-buffer", o.Audio.Buffer, fmt.Sprintf("0 (the default, %v) or %v to %v", audio.DefaultBuffer, audio.MinBuffer, audio.MaxBuffer))
	case p.FPSCap < 0 || p.FPSCap > 10_000:
		return bad("Pacing.FPSCap", "fps-cap", p.FPSCap, "0 (no cap) to 10000")
	case p.EmulateHz < 0 || p.EmulateHz > 1000:
		return bad("Pacing.EmulateVSync", "emulate-vsync", p.EmulateHz, "0 (off) to 1000 Hz")
	case p.Delay < 0 || p.Delay > 100*time.Millisecond:
		return bad("Pacing.Delay", "interp-delay", p.Delay, "0 to 100 ms")
	case notNumber(p.Extrapolate) || p.Extrapolate < 0 || p.Extrapolate > 1:
		return bad("Pacing.Extrapolate", "extrapolate", p.Extrapolate, "0 to 1 tick")
	case notNumber(p.CatchUp) || p.CatchUp < 0 || p.CatchUp > 4:
		return bad("Pacing.CatchUp", "catch-up", p.CatchUp, "0 (jump at once) to 4")
	}
	return o.validateHold()
}

// ValidateWorld returns the first of the world's options out of its
// range, as Validate does: NewSim checks a sim's settings with it.
func ValidateWorld(wo WorldOptions) error {
	bad := func(field, flag string, v any, want string) error {
		return &OptionError{Field: field, Flag: flag, Value: v, Want: want}
	}
	switch {
	case wo.Hz < 1 || wo.Hz > 1000:
		return bad("Hz", "hz", wo.Hz, "1 to 1000 ticks a second")
	case wo.Sprites < 0 || wo.Sprites > 1_000_000:
		return bad("Sprites", "sprites", wo.Sprites, "0 to 1000000")
	case wo.SpriteSize < 1 || wo.SpriteSize > 512:
		return bad("SpriteSize", "sprite-size", wo.SpriteSize, "1 to 512 px")
	}
	return nil
}

// validateHold refuses a present hold where it would silently do
// nothing: it paces presents that nothing else paces, in the loops whose
// frames choose the moment they show.
func (o *Options) validateHold() error {
	p := o.Pacing
	if p.EmulateHz > 0 {
		o.Window.VSync = false // the emulated blanks pace the swaps
	}
	if !p.PresentHold {
		return nil
	}
	bad := func(want string) error {
		return &OptionError{Field: "Pacing.PresentHold", Flag: "present-hold", Value: true, Want: want}
	}
	switch {
	case p.EmulateHz > 0:
		return bad("no emulated vsync (-emulate-vsync, Pacing.EmulateVSync): the emulated blanks pace the swaps; drop one of them")
	case o.Window.VSync:
		return bad("vsync off (-vsync=false, Config.NoVSync): with vsync the blanks pace the presents")
	case o.Loop != Decoupled && o.Loop != Threaded:
		// The loops whose drivers pace with paceFree (driver.go): a
		// test holds the two to the same loops.
		return bad(fmt.Sprintf("the decoupled or threaded loop, not %s", o.Loop))
	}
	return nil
}
