package tandem

import (
	"errors"
	"slices"

	"github.com/tandem-engine/tandem/audio"
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

// gameForLoop adapts a public Game to the loop's engine.Game: the one
// place the loop and the command line learn of a game's Setup.
type gameForLoop struct{ game Game }

var _ engine.Game = gameForLoop{}

// adapt returns games as the loop sees them.
func adapt(games []Game) []engine.Game {
	out := make([]engine.Game, len(games))
	for i, g := range games {
		out[i] = gameForLoop{g}
	}
	return out
}

func (g gameForLoop) Info() engine.Info {
	in := infoOf(g.game)
	loads := make([]engine.MatrixLoad, len(in.Loads))
	for i, l := range in.Loads {
		loads[i] = engine.MatrixLoad{Name: l.Name, Flags: slices.Clone(l.Flags)}
	}
	return engine.Info{Name: in.Name, Sprites: in.Sprites, Level: in.Level, Bench: in.Bench, Loads: loads}
}

func (g gameForLoop) NewSim(cfg engine.SimConfig) (engine.Sim, error) {
	s, err := newSim(g.game, SimConfig{Hz: cfg.Hz, Seed: cfg.Seed, Sprites: cfg.Sprites, SpriteSize: cfg.SpriteSize,
		Spin: cfg.Spin, Width: cfg.Width, Height: cfg.Height, Level: cfg.Level})
	if err != nil {
		err = &SetupError{Game: infoOf(g.game).Name, Err: err}
		if fe := (*FlagError)(nil); errors.As(err, &fe) {
			return nil, &engine.UsageError{Msg: fe.Error(), Err: err}
		}
		return nil, err
	}
	s.world.guarded = true // the loop runs it: its sim thread owns the world
	return forLoop(s), nil
}

// forLoop returns s as the loop sees it.
func forLoop(s *Sim) *simForLoop { return &simForLoop{Sim: s, look: s.setup.look()} }

// simForLoop is a Sim as the loop sees it.
type simForLoop struct {
	*Sim
	look *engine.Look
}

var (
	_ engine.Sim           = (*simForLoop)(nil)
	_ engine.SpritesReader = (*simForLoop)(nil)
)

func (s *simForLoop) Step(in simthread.TickInput)    { s.Sim.step(in) }
func (s *simForLoop) Publish(dst *snapshot.Snapshot) { s.Sim.publish(dst) }
func (s *simForLoop) Look() *engine.Look             { return s.look }
func (s *simForLoop) Slots() int                     { return s.world.slots() }
func (s *simForLoop) Entities() int                  { return s.world.Entities() }
func (s *simForLoop) ReadsSprites() bool             { return s.setup.readSprites }
func (s *simForLoop) Sounds() []*audio.Sound         { return s.setup.sounds }
func (s *simForLoop) SoundsDropped() int64           { return s.world.soundsDropped }

func (s *simForLoop) Counters() []engine.Count {
	var out []engine.Count
	for _, c := range s.Sim.Counters() {
		out = append(out, engine.Count{Name: c.Name, Value: c.Value})
	}
	return out
}

// look is what Setup declared for drawing, once it has returned.
func (s *Setup) look() *engine.Look {
	l := &engine.Look{
		Frames:    make([]engine.FrameSource, len(s.frames)),
		Tiles:     engine.TileGrid{W: s.tiles.w, H: s.tiles.h, Frames: s.tiles.frames},
		Bounds:    s.bounds,
		HasBounds: s.hasBound,
		Lines:     s.lines,
		Clear:     s.clear,
		Bindings:  make(map[uint8][]string, len(s.bindings)),
	}
	for i, f := range s.frames {
		l.Frames[i] = engine.FrameSource{Name: f.name, Img: f.img, Of: uint16(f.of), Mirror: f.mirror, Px: f.px}
	}
	for a, names := range s.bindings {
		l.Bindings[uint8(a)] = names
	}
	var err error
	if l.Draw, err = s.drawLook(); err != nil {
		panic(err) // the engine's own font, embedded: a build that cannot parse it is broken
	}
	if play := s.autoplay; play != nil {
		l.Autoplay = func(tick uint64) simthread.Buttons { return simthread.Buttons(play(tick)) }
	}
	return l
}

// The loop's numbers for what the API names.
var (
	_ [0]struct{} = [engine.NoTile - uint16(NoTile)]struct{}{}
	_ [0]struct{} = [uint8(Left) - engine.ActionLeft]struct{}{}
	_ [0]struct{} = [uint8(Right) - engine.ActionRight]struct{}{}
	_ [0]struct{} = [uint8(Jump) - engine.ActionJump]struct{}{}
	// Every action's bit fits Actions.
	_ Actions = 1 << MaxAction
)
