package tandem

import (
	"fmt"
	"image/color"

	"github.com/tandem-engine/tandem/audio"
	"github.com/tandem-engine/tandem/entity"
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/physics"
	"github.com/tandem-engine/tandem/simthread"
)

// Game is what a game supplies: its world's setup and its logic per tick.
// The engine owns everything else: the window, the threads, the loop,
// publishing, interpolation, drawing, input, the HUD and the command line.
//
// Setup runs on the main thread before the sim starts: it is handed a
// [Setup], which holds nothing that draws, so it can also run where there
// is no window (tandem replay -fast, a test). [Main] and [Run] set the
// game up once without a window first, so that its errors (a missing
// file, an unknown name, a bad flag value: see [FlagError]) come before a
// display opens, then again for the run: Setup must build the game's
// state afresh each time, not add to what a call before left. Tick runs
// on the sim thread once per fixed tick: it is handed a [World], which
// holds the entities, the tick's input and the camera, and nothing that
// can touch OpenGL or the window.
type Game interface {
	Setup(s *Setup) error
	Tick(w *World)
}

// Info is what the command line needs to know of a game before it is set
// up.
type Info struct {
	// Name is the value of -scene that picks the game when [Main] is given
	// several, and the "scene" of the JSON summary and of a recording.
	// Default "game".
	Name string
	// Sprites is -sprites' value when the flag is not given: how much load
	// the game makes by default.
	Sprites int
	// Level loads the game's level when -level is not given. A game
	// without it takes no -level.
	Level func() (*physics.Level, error)
	// Bench marks the game tandem bench -matrix runs when -scene does not
	// name one: the one made for load (the demo's bunnymark).
	Bench bool
	// Loads are loads of the game's own that tandem bench -matrix runs
	// besides its synthetic ones: each is a cell of its own, run by every
	// loop with no -simcost or -rendercost, and judged under its name in
	// the report's "## Which loop" ("Load: game: horde"). See [MatrixLoad].
	Loads []MatrixLoad
}

// MatrixLoad is a load of a game's own for tandem bench -matrix: Name
// labels its cells (load=NAME: letters, digits and '_'), and Flags make it,
// as a command line gives them: the game's own flags (registered on
// flag.CommandLine before [Main], as any game flag) and the engine's world
// flags such as -sprites. A game with a -enemies flag declares
//
//	func (g *Shooter) Info() tandem.Info {
//		return tandem.Info{Name: "shooter", Loads: []tandem.MatrixLoad{
//			{Name: "horde", Flags: []string{"-enemies", "400"}},
//		}}
//	}
//
// and the matrix checks every load's flags before its first run.
type MatrixLoad struct {
	Name  string
	Flags []string
}

// Describer is implemented by a game that gives its [Info].
type Describer interface {
	Info() Info
}

// Hasher is implemented by a game that keeps state outside its entities
// (a physics world, a score, a random generator). StateHash returns a hash
// of the exact bits of the whole state: recordings check it every second
// of sim time, and a replay that reaches a different hash fails. Without
// it the engine hashes the entities and the camera, which is the whole
// state of a game that keeps everything in them.
type Hasher interface {
	StateHash() uint64
}

// Counter is implemented by a game with figures of its own for the JSON
// summary (a score, hits, coins left). Counters runs once after the sim
// thread has stopped and calls add for each figure; the names become JSON
// fields, so keep them lowercase_with_underscores and stable.
type Counter interface {
	Counters(add func(name string, value int64))
}

// infoOf returns g's Info with its defaults filled in.
func infoOf(g Game) Info {
	var in Info
	if d, ok := g.(Describer); ok {
		in = d.Info()
	}
	if in.Name == "" {
		in.Name = "game"
	}
	return in
}

// Action is one of a game's buttons: what the player means (jump, fire),
// bound to keys, mouse and gamepad buttons with [Setup.Bind]. A tick sees
// which actions are down and which were pressed or released since the
// tick before. Left, Right and Jump (0 to 2) have default bindings;
// FirstFreeAction to MaxAction have none until the game binds them.
type Action uint8

// The actions bound by default, the ones the demo games use: arrows or
// WASD or the d-pad or the left stick move, space, up, W, Z, the left
// mouse button or the pad's A and B jump (or fire). A game that binds an
// action itself replaces that action's defaults.
const (
	Left Action = iota
	Right
	Jump
)

// FirstFreeAction is the first action with no default binding: a game's
// own actions are FirstFreeAction, FirstFreeAction+1, ... up to MaxAction.
const FirstFreeAction Action = Jump + 1

// MaxAction is the highest action a game may bind.
const MaxAction Action = 14

func (a Action) bit() simthread.Buttons { return 1 << a }

// Actions is a set of actions: what a game's autoplay holds at a tick.
type Actions uint16

// Hold returns the set of actions as.
func Hold(as ...Action) Actions {
	var s Actions
	for _, a := range as {
		s |= Actions(a.bit())
	}
	return s
}

// Has reports whether a is in s.
func (s Actions) Has(a Action) bool { return s&Actions(a.bit()) != 0 }

// Autoplay gives the game its own way of playing itself: with -autoplay,
// play(tick) says which actions are held at each tick (tick counts as
// [World.Tick] does, from 1), and the engine presses and releases them as
// a player would, through the same stamped input as the keys, recorded by
// -record and played back by replay like a person's. Without it
// -autoplay runs right and jumps.
//
// play runs on the input thread while the sim runs: it must depend on
// the tick alone (and on what the game fixed in Setup), never on the
// world, which the sim thread is changing. It is asked about once a frame
// for the next tick to run, so a game whose frames are slower than its
// ticks sees some ticks skipped, as a player's hands would.
func (s *Setup) Autoplay(play func(tick uint64) Actions) {
	s.live("Autoplay")
	s.autoplay = play
}

// Frame is a picture a sprite can show: an image the game gave [Setup],
// or one derived from one (mirrored, scaled). The zero Frame is a plain
// white pixel, tinted by the sprite's Tint.
type Frame uint16

// Animation is a sequence of frames.
type Animation []Frame

// At returns the frame for step i of the animation, wrapping: a sprite
// that shows anim.At(int(w.Tick()/8)) changes frame every 8 ticks.
func (a Animation) At(i int) Frame {
	if len(a) == 0 {
		return 0
	}
	i %= len(a)
	if i < 0 {
		i += len(a)
	}
	return a[i]
}

// Sprite is how an entity looks in one tick: its centre in world pixels
// (y grows down), its rotation in radians (clockwise on screen), its scale
// (0 and 1 both draw the frame at its own size), its frame, its tint
// (RGBA8, R in the low byte; 0 and [White] draw the frame as it is) and
// its layer (0 to [Layers]-1: higher layers draw over lower ones; within
// a layer, the entity spawned first draws first). Position, rotation and
// scale are interpolated between ticks; frame and tint change at the tick.
type Sprite struct {
	X, Y  float32
	Angle float32
	Scale float32
	Frame Frame
	Tint  uint32
	Layer uint8
}

// White is the tint that draws a frame as it is.
const White uint32 = 0xFFFFFFFF

// Layers is the number of draw layers.
const Layers = 8

// ID names one entity from Spawn to Despawn. The zero ID is never an
// entity; a despawned entity's ID stays dead even when its slot is reused.
type ID struct {
	e     entity.ID
	layer uint8
}

// Camera is what the view centres on, in world pixels, and its zoom (0
// means 1). The renderer interpolates it like a sprite; a cut (see
// [World.CutCamera]) is not blended.
type Camera struct {
	X, Y, Zoom float32
}

// Setup is what a game's Setup is handed: the run's parameters (tick
// rate, seed, the arena's size, the level), and the calls that declare the
// game's pictures, bindings and tile layer. It holds nothing that draws:
// the engine packs the images into its atlas after Setup returns. Main
// thread only, during Setup.
type Setup struct {
	hz, sprites, spriteSize int
	seed                    uint64
	arenaW, arenaH          int
	level                   *physics.Level
	spin                    bool
	world                   *World
	readSprites             bool // the game asked for Sprites: tandem bench -matrix varies it
	autoplay                func(tick uint64) Actions

	frames   []frameSource // frame k+1 is frames[k]; frame 0 is white
	imagePx  int64         // the images' area with their padding: at most atlasPx
	byName   map[string]Frame
	bindings map[Action][]string // names bindable takes
	tiles    tileGrid
	bounds   [4]float32
	hasBound bool
	lines    int // the world's lines for a whole-number zoom; 0: 1:1
	clear    [4]float32
	errs     []error
	done     bool // Setup has returned: the engine owns what it declared

	sounds      []*audio.Sound // Sound k+1 is sounds[k]
	soundByName map[string]Sound

	drawSetup // fonts and shaders (text.go, shader.go)
}

// live panics when a Setup method is called after the game's Setup
// returned: the engine has taken what Setup declared (the render thread
// reads some of it), so a later change would be lost or race.
func (s *Setup) live(call string) {
	if s.done {
		panic("tandem: Setup." + call + " called after the game's Setup returned: keep Setup calls inside Setup")
	}
}

type tileGrid struct {
	w, h   int
	frames []uint16
}

// Hz returns the tick rate: ticks per second of sim time.
func (s *Setup) Hz() int { return s.hz }

// Seed returns the run's random seed (-seed): the game seeds its own
// generators from it, so that a recording replays.
func (s *Setup) Seed() uint64 { return s.seed }

// Sprites returns -sprites: how much load the game should make (the demo's
// bouncing bunnies, the shooter's bullets); [Info].Sprites when the flag is
// not given. A game that never calls it ignores -sprites, and tandem
// bench -matrix runs its sprites axis at one value only, saying so.
func (s *Setup) Sprites() int {
	s.readSprites = true
	return s.sprites
}

// SpriteSize returns -sprite-size: the size, in pixels, the game should
// draw its load sprites at (see [Setup.Scaled]). It is a drawing choice:
// recordings do not store it, so it must not change the game's state.
func (s *Setup) SpriteSize() int { return s.spriteSize }

// Spin reports -spin: whether the game's load sprites should be drawn
// turning. Like SpriteSize it is a drawing choice that recordings do not
// store.
func (s *Setup) Spin() bool { return s.spin }

// Arena returns the size of the play area in pixels: the window's
// framebuffer (or, in a replay, the recording's), for games that fill the
// screen.
func (s *Setup) Arena() (w, h int) { return s.arenaW, s.arenaH }

// Level returns the level -level named, or the one [Info].Level loads
// when none was given; nil for a game without levels.
func (s *Setup) Level() *physics.Level { return s.level }

// World returns the world the game's ticks will see, to spawn the first
// entities and place the camera before the first tick.
func (s *Setup) World() *World { return s.world }

// Bind binds action to inputs, by name, whatever the case ("space" is
// Space). Every name it takes:
//   - keys: A to Z, 0 to 9, F1 to F12, Space, Enter, Tab, Backspace,
//     Left, Right, Up, Down, LeftShift, RightShift, LeftControl,
//     RightControl, LeftAlt, RightAlt, Comma, Slash, Minus, Equal;
//   - mouse buttons: MouseLeft, MouseRight, MouseMiddle;
//   - gamepad buttons: PadA, PadB, PadX, PadY, PadLeft, PadRight, PadUp,
//     PadDown, PadStart, PadBack, PadLeftBumper, PadRightBumper, and the
//     left stick pushed StickLeft or StickRight.
//
// It replaces the action's default bindings, and takes its inputs from
// any other action's defaults. The engine's own keys (Escape, P, Period,
// the brackets, F3, F11, F12) are not the game's to bind. An unknown or
// taken name is an error naming it; Setup's caller reports it too if the
// game drops it.
func (s *Setup) Bind(action Action, inputs ...string) error {
	s.live("Bind")
	if action > MaxAction {
		return s.fail(fmt.Errorf("tandem: Bind: action %d is past MaxAction (%d)", action, MaxAction))
	}
	names := make([]string, len(inputs))
	for i, in := range inputs {
		name, ok := engine.Bindable(in)
		if !ok {
			return s.fail(fmt.Errorf("tandem: Bind: no key or button called %q (e.g. Space, A, Left, MouseLeft, PadA, StickLeft; see Bind's doc for every name)", in))
		}
		if engine.EngineKeys[name] {
			return s.fail(fmt.Errorf("tandem: Bind: %s is the engine's (quit, pause, step, time scale, HUD, fullscreen, screenshot): bind another key", name))
		}
		names[i] = name
	}
	s.bindings[action] = names
	return nil
}

// NoTile is the legend's answer for a cell drawn empty.
const NoTile Frame = 0xFFFF

// Tiles makes level the tile layer, drawn behind the sprites (only the
// cells in view), and its bounds the camera's limits. legend says what
// each cell shows: a frame, or NoTile. Call it once.
func (s *Setup) Tiles(level *physics.Level, legend func(level *physics.Level, tx, ty int) Frame) {
	s.live("Tiles")
	if level == nil {
		s.errs = append(s.errs, fmt.Errorf("tandem: Tiles: no level (a game that takes -level gets one from Setup.Level)"))
		return
	}
	g := tileGrid{w: level.W, h: level.H, frames: make([]uint16, level.W*level.H)}
	for ty := range level.H {
		for tx := range level.W {
			f := legend(level, tx, ty)
			if f != NoTile && int(f) > len(s.frames) {
				s.errs = append(s.errs, fmt.Errorf("tandem: Tiles: the legend gives frame %d for cell %d:%d, which Setup has not made", f, tx, ty))
				return
			}
			g.frames[ty*level.W+tx] = uint16(f)
		}
	}
	s.tiles = g
	b := level.Bounds()
	s.Bounds(float32(b.Min.X), float32(b.Min.Y), float32(b.Max.X), float32(b.Max.Y))
}

// Bounds keeps the camera's view inside the rectangle from (minX, minY)
// to (maxX, maxY) in world pixels (centred where the view is larger).
func (s *Setup) Bounds(minX, minY, maxX, maxY float32) {
	s.live("Bounds")
	s.bounds, s.hasBound = [4]float32{minX, minY, maxX, maxY}, true
}

// PixelArt draws the world at a whole-number zoom that shows about lines
// world pixels on the framebuffer's height (2x in a 720-line window for
// 360), so that pixel art stays sharp at any window size.
func (s *Setup) PixelArt(lines int) {
	s.live("PixelArt")
	s.lines = lines
}

// Background sets the colour drawn behind everything (default a sky
// blue).
func (s *Setup) Background(c color.Color) {
	s.live("Background")
	r, g, b, a := c.RGBA()
	s.clear = [4]float32{float32(r) / 0xFFFF, float32(g) / 0xFFFF, float32(b) / 0xFFFF, float32(a) / 0xFFFF}
}

// fail records err for Setup's caller and returns it.
func (s *Setup) fail(err error) error {
	s.errs = append(s.errs, err)
	return err
}

func (s *Setup) err() error {
	if len(s.errs) > 0 {
		return s.errs[0]
	}
	return nil
}
