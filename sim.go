package tandem

import (
	"fmt"
	"slices"

	"github.com/tandem-engine/tandem/audio"
	"github.com/tandem-engine/tandem/internal/app"
	"github.com/tandem-engine/tandem/physics"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

// SimConfig is what a [Sim] is built from: the parameters a game's
// [Setup] reads. The zero value of a field means the command line's
// default.
type SimConfig struct {
	Hz         int            // ticks per second (default 60)
	Seed       uint64         // default 1
	Sprites    int            // -sprites (default: the game's Info.Sprites)
	SpriteSize int            // -sprite-size (default 32)
	Spin       bool           // -spin
	Width      int            // the arena (default 1280 x 720)
	Height     int            //
	Level      *physics.Level // default: the game's Info.Level
}

// Sim is a game set up and ready to step, with no window: what the
// engine's loops drive on the sim thread, and what a test, a headless
// server or replay -fast steps directly, through [Sim.Steps], [Sim.Hash],
// [Sim.Counters] and [Sim.World]. A Sim belongs to one goroutine at a
// time.
type Sim struct {
	game   Game
	info   Info
	world  World
	setup  Setup
	hasher Hasher
	held   simthread.Buttons // what the last Steps held
}

// NewSim runs game's Setup with cfg and returns the sim, ready for its
// first tick. A zero field of cfg means its default. Setup's errors, and
// the names it could not find, come back here.
func NewSim(game Game, cfg SimConfig) (*Sim, error) {
	info := infoOf(game)
	d := app.Defaults()
	cfg.Hz, cfg.Seed, cfg.SpriteSize = or(cfg.Hz, d.World.Hz), or(cfg.Seed, d.World.Seed), or(cfg.SpriteSize, d.World.SpriteSize)
	cfg.Sprites = or(cfg.Sprites, info.Sprites)
	if cfg.Width == 0 || cfg.Height == 0 {
		cfg.Width, cfg.Height = d.Window.Width, d.Window.Height
	}
	if cfg.Level == nil && info.Level != nil {
		l, err := info.Level()
		if err != nil {
			return nil, err
		}
		cfg.Level = l
	}
	return newSim(game, cfg)
}

// newSim is NewSim with cfg as it is: the command line has given every
// field its final value (an explicit -sprites 0 is 0). Its ranges are the
// loop's, checked by the same function as Config's and the flags'.
func newSim(game Game, cfg SimConfig) (*Sim, error) {
	s := &Sim{game: game, info: infoOf(game)}
	if err := app.ValidateWorld(app.WorldOptions{Hz: cfg.Hz, Sprites: cfg.Sprites, SpriteSize: cfg.SpriteSize}); err != nil {
		return nil, fmt.Errorf("tandem: %s: %w", s.info.Name, err)
	}
	s.world.hz = cfg.Hz
	s.setup = Setup{hz: cfg.Hz, seed: cfg.Seed, sprites: cfg.Sprites, spriteSize: cfg.SpriteSize, spin: cfg.Spin,
		arenaW: cfg.Width, arenaH: cfg.Height, level: cfg.Level, world: &s.world,
		byName: map[string]Frame{}, bindings: map[Action][]string{}, clear: [4]float32{0.36, 0.58, 0.85, 1}}
	s.world.owned.Store(true)
	err := game.Setup(&s.setup)
	s.world.owned.Store(false)
	s.setup.done = true
	s.world.frames = len(s.setup.frames) + 1
	s.world.nsounds = len(s.setup.sounds)
	if err != nil && !slices.Contains(s.setup.errs, err) {
		// The game's own error; one a Setup method returned says itself
		// where it came from, as the errors it kept do.
		return nil, fmt.Errorf("tandem: %s: setup: %w", s.info.Name, err)
	}
	if err := s.setup.err(); err != nil {
		return nil, fmt.Errorf("%w (in %s's Setup)", err, s.info.Name)
	}
	if int(s.world.setupFrame) >= s.world.frames {
		return nil, fmt.Errorf("tandem: %s: Setup spawned a sprite of frame %d, past the %d frames it made", s.info.Name, s.world.setupFrame, s.world.frames-1)
	}
	s.hasher, _ = game.(Hasher)
	return s, nil
}

// step is one tick of the game with in.
func (s *Sim) step(in simthread.TickInput) {
	s.world.tick++
	s.world.in = in
	s.world.text.Reset()
	s.world.resetDraw()
	if s.world.tick > 1 {
		s.world.sounds.N = 0 // tick 1 plays the sounds Setup played too
	}
	s.world.owned.Store(true)
	s.game.Tick(&s.world)
	s.world.owned.Store(false)
}

// publish writes the camera and every entity into dst.
func (s *Sim) publish(dst *snapshot.Snapshot) { s.world.publish(dst) }

// Hash returns the game's [Hasher] hash when it has one, else the hash of
// its entities and camera: what recordings check.
func (s *Sim) Hash() uint64 {
	if s.hasher != nil {
		return s.hasher.StateHash()
	}
	h := physics.NewHasher()
	h.Word(s.world.tick)
	s.world.hash(h.Word)
	return h.Sum()
}

// Steps runs n ticks with the actions held, as a player would hold them:
// an action not held by the Steps before is pressed at the first of the
// n ticks, and one held before but not now is released there. It is for
// tests and tools that step a game without a window.
func (s *Sim) Steps(n int, held ...Action) {
	var down simthread.Buttons
	for _, a := range held {
		down |= a.bit()
	}
	for k := range n {
		in := simthread.TickInput{Down: down}
		if k == 0 {
			in.Pressed, in.Released = down&^s.held, s.held&^down
		}
		s.step(in)
	}
	if n > 0 {
		s.held = down
	}
}

// Loop returns s as simthread's loops drive it: Step with a tick's raw
// input, Publish into a snapshot, Hash. It is for a game's own tests that
// run it through package simthread/simtest, where the same input under
// other render rates, frame hitches and loops must give the same state.
func (s *Sim) Loop() simthread.Sim { return forLoop(s) }

// Sounds returns the sounds the game's Setup declared, decoded, in the
// order of their handles (the [Sound] k+1 is element k): for a test that
// plays them through package audio.
func (s *Sim) Sounds() []*audio.Sound { return s.setup.sounds }

// Tick returns the number of ticks stepped.
func (s *Sim) Tick() uint64 { return s.world.tick }

// World returns the game's world. Between steps only.
func (s *Sim) World() *World { return &s.world }

// Game returns the game the sim steps.
func (s *Sim) Game() Game { return s.game }

// Info returns the game's Info, its defaults filled in.
func (s *Sim) Info() Info { return s.info }

// Counters returns the game's own figures (see [Counter]), in the order
// the game gave them. Between steps only.
func (s *Sim) Counters() []Count {
	c, ok := s.game.(Counter)
	if !ok {
		return nil
	}
	var out []Count
	c.Counters(func(name string, v int64) { out = append(out, Count{name, v}) })
	return out
}

// Count is one figure of a game's own.
type Count struct {
	Name  string
	Value int64
}
