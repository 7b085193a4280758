package tandem

import "io"

// Config is how [Run] runs a game: the command line's most used flags as
// fields (the zero value of each is the flag's default), and Args for any
// other flag of tandem run, as on the command line.
type Config struct {
	Title         string  // the window's title (default: the game's name)
	Width, Height int     // the window, in screen coordinates (default 1280 x 720)
	Hz            int     // ticks per second (default 60)
	Seed          uint64  // the game's seed (default 1)
	Sprites       int     // -sprites (default: the game's Info.Sprites)
	Seconds       float64 // stop after this long (default: when the window closes)
	Loop          string  // "decoupled" (default), "coupled" or "pipelined"
	NoVSync       bool    // do not wait for vertical sync
	// FPSCap renders at most this many frames a second, due on a 1/FPSCap
	// s grid of the monotonic clock (-fps-cap; 0: no cap). With NoVSync
	// in the decoupled loop the grid is the presents': each frame starts
	// early enough to finish and holds its swap to its deadline; otherwise
	// frames start on the grid.
	FPSCap int
	// PresentHold, with NoVSync, holds each frame's swap to a steady lead
	// after the moment it shows, so the picture moves as much as the
	// presents do, at the cost of some frame rate (-present-hold; with
	// vsync the blanks pace the presents instead). Under FPSCap the lead
	// the cap's period allows is held anyway, at no cost.
	PresentHold bool
	Fullscreen  bool
	Headless    bool   // run on tandem's own Xvfb even when a display exists
	HUD         bool   // show the HUD at start (F3 toggles it)
	Level       string // -level: a level file, for a game that takes one
	Screenshot  string // write the last frame to this PNG or JPEG at exit
	Record      string // record the run's input to this file (tandem replay plays it)
	JSON        bool   // write the one-line JSON summary to Stdout at exit
	// Args are more flags of tandem run, e.g. []string{"-interp-delay", "2"}.
	Args []string
	// Stdout and Stderr default to the process's.
	Stdout, Stderr io.Writer
}
