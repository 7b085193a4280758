package tandem

import (
	"errors"
	"fmt"
)

// The machine problems [Run] reports, to test with errors.Is.
var (
	// ErrNoDisplay: there is no display to open a window on.
	ErrNoDisplay = errors.New("tandem: no display: set DISPLAY, or run under xvfb-run (tandem.Main starts its own Xvfb)")
	// ErrNoOpenGL: the display gives no OpenGL 4.1 core context.
	ErrNoOpenGL = errors.New("tandem: no OpenGL 4.1 core context: " + noOpenGLHint)
	// ErrDisplayLost: the display went away during the run (the X server
	// died); the summary and the recording were written up to there.
	ErrDisplayLost = errors.New("tandem: the display went away during the run")
	// ErrSimStuck: the sim was inside a tick that never ended when the
	// run stopped (a Tick that hangs); the summary (its sim_stuck_at_tick)
	// and the recording, cut there, were written.
	ErrSimStuck = errors.New("tandem: the sim was stuck in a tick that never ended")
	// ErrNoCgo: the program was built without cgo, so it has no window.
	ErrNoCgo = errors.New("tandem: this program was built without cgo (CGO_ENABLED=0, or no C compiler was found), " +
		"so it has no window and no renderer: build it with cgo (on Debian: apt-get install gcc, then go build again); " +
		"NewSim steps a game without a window")
)

// ConfigError is a Config field [Run] cannot take: it names the field,
// the value and what it wants.
type ConfigError struct {
	Field string // e.g. "Hz", "Pacing.FPSCap"
	Value any
	Want  string
	opt   error // the loop's check, which says it as the flags do
}

func (e *ConfigError) Error() string {
	if e.opt != nil {
		return "tandem: " + e.opt.Error()
	}
	return fmt.Sprintf("tandem: Config.%s %v: want %s", e.Field, e.Value, e.Want)
}

func (e *ConfigError) Unwrap() error { return e.opt }

// SetupError is a game's mistake in its Setup (an unknown image, a bad
// binding, an error it returned), found before a window opens.
type SetupError struct {
	Game string // the game's name
	Err  error
}

func (e *SetupError) Error() string { return e.Err.Error() }
func (e *SetupError) Unwrap() error { return e.Err }

// FlagError is a bad value of one of the game's own flags, which its
// Setup returns: [Main] then prints it as it prints its own flags' errors
// ("catch run: -speed 0: want 1 to 20 px a tick") and exits 2, before any
// display opens. Setup runs before a window opens, so a check there
// costs the player nothing.
type FlagError struct {
	Flag  string // the flag's name, without the dash
	Value any    // the value given
	Want  string // what the flag takes, e.g. "1 to 20 px a tick"
}

func (e *FlagError) Error() string { return fmt.Sprintf("-%s %v: want %s", e.Flag, e.Value, e.Want) }

// OutputError is an output file that cannot be written: its path and
// why. Run checks every output path before it opens a window.
type OutputError struct {
	Field string // the Config field naming it, e.g. "Screenshot"
	Path  string
	Err   error
}

func (e *OutputError) Error() string {
	return fmt.Sprintf("tandem: Config.%s %s: %v", e.Field, e.Path, e.Err)
}
func (e *OutputError) Unwrap() error { return e.Err }
