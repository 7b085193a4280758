// Package engine is the contract between tandem's public API and its
// frame loop: what the loop needs of a game, once the game has been set
// up. The root package adapts a public tandem.Game to [Game]; the loop
// (internal/app) and the command line (internal/cli) see only this. It
// needs no cgo, no GL and no window.
package engine

import (
	"image"

	"github.com/tandem-engine/tandem/audio"
	"github.com/tandem-engine/tandem/physics"
	"github.com/tandem-engine/tandem/simthread"
)

// Game is a game as the loop sees it.
type Game interface {
	// Info is what the command line needs before the game is set up.
	Info() Info
	// NewSim runs the game's Setup with cfg as it is (every field has its
	// final value) and returns the sim, ready for its first tick.
	NewSim(cfg SimConfig) (Sim, error)
}

// Info describes a game before it is set up; its defaults are filled in.
type Info struct {
	Name    string                         // the -scene name; never ""
	Sprites int                            // the default load (-sprites)
	Level   func() (*physics.Level, error) // the game's own level; nil: it takes none
	Bench   bool                           // the game bench -matrix runs by default
	Loads   []MatrixLoad                   // the game's own loads for bench -matrix
}

// MatrixLoad is a load of a game's own for bench -matrix: its name and
// the flags that make it (tandem.MatrixLoad).
type MatrixLoad struct {
	Name  string
	Flags []string
}

// SimConfig is what a sim is built from.
type SimConfig struct {
	Hz, Sprites   int
	Seed          uint64
	SpriteSize    int  // the size the game draws its load sprites at, px
	Spin          bool // the load sprites turn
	Width, Height int  // the arena, px
	Level         *physics.Level
}

// Sim is a set-up game: the loops step and publish it on the sim thread
// (simthread.Sim); the rest is read on the main thread, before the sim
// starts (Look, Slots) or after it stopped (Entities, Counters).
type Sim interface {
	simthread.Sim
	// Look is what Setup declared for drawing; fixed once Setup returned.
	Look() *Look
	// Slots is the number of sprite slots the world holds, live or
	// reserved: what a snapshot carries.
	Slots() int
	// Entities is the number of live entities.
	Entities() int
	// Counters are the game's own figures for the summary, in its order.
	Counters() []Count
	// Sounds are the sounds Setup declared: a snapshot's SoundEvent.Sound
	// indexes them. The loop opens the audio output with them.
	Sounds() []*audio.Sound
	// SoundsDropped is how many sound calls (plays, stops, music) found
	// their tick's snapshot.MaxSounds taken and did nothing.
	SoundsDropped() int64
}

// SpritesReader is implemented by a Sim that can tell whether its game
// read -sprites while it was set up: tandem bench -matrix runs its sprites
// axis only for a game that does.
type SpritesReader interface {
	ReadsSprites() bool
}

// Count is one figure of a game's own.
type Count struct {
	Name  string
	Value int64
}

// Look is what a game's Setup declared for drawing.
type Look struct {
	// Frames are the game's pictures: frame k+1 is Frames[k]; frame 0
	// is the engine's white pixel.
	Frames []FrameSource
	Tiles  TileGrid
	// Bounds keeps the camera's view inside MinX, MinY, MaxX, MaxY.
	Bounds    [4]float32
	HasBounds bool
	// Lines is the world's lines on the framebuffer's height for a
	// whole-number zoom (pixel art); 0: 1:1.
	Lines int
	Clear [4]float32 // the background, RGBA 0..1
	// Bindings are the game's own, by action number, as names Bindable
	// takes; an action not here keeps DefaultBindings.
	Bindings map[uint8][]string
	// Autoplay is the game's own way of playing itself under -autoplay:
	// the buttons held at a tick. It runs on the input thread, while the
	// sim runs; nil: the engine's default (run right and jump).
	Autoplay func(tick uint64) simthread.Buttons
	// Draw holds the game's fonts and shaders.
	Draw DrawLook
}

// FrameSource is where a frame comes from: an image, or another frame
// mirrored or scaled once the atlas is packed.
type FrameSource struct {
	Name   string      // the name the game gave the image, for errors; "" for a derived frame
	Img    image.Image // nil for a derived frame
	Of     uint16      // the frame it derives from
	Mirror bool
	Px     float32 // scale to this size on the longer side; 0: as is
}

// MaxImagePx is the longest side, in pixels, of an image a game may
// give: the atlas's 8192 px (gl.PackAtlas's limit) less the 2 px of
// padding on each side that the loop packs every image with.
const MaxImagePx = 8192 - 2*2

// TileGrid is a tile layer: W x H cells of TileSize px, each a frame or
// NoTile.
type TileGrid struct {
	W, H   int
	Frames []uint16
}

// NoTile marks an empty cell.
const NoTile uint16 = 0xFFFF

// UsageError is a setup error that is the command line's fault: a bad
// value of one of the game's own flags, which the game's Setup found. The
// command line prints Msg under the subcommand's name and exits 2, as for
// its own flags. Err is the whole error, for errors.As.
type UsageError struct {
	Msg string
	Err error
}

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }
