package scene

import (
	"github.com/tandem-engine/tandem"
	"github.com/tandem-engine/tandem/physics"
)

// Bunnymark is the bunnymark, the load test: -sprites bunnies (5,000
// by default) fall, bounce and spin in an empty arena the size of the
// window, on a [World] whose player stands still and is not drawn. It
// reads no input.
type Bunnymark struct {
	st      *stage
	bunnies bunnySprites
	click   tandem.Sound
}

var (
	_ tandem.Game      = (*Bunnymark)(nil)
	_ tandem.Describer = (*Bunnymark)(nil)
	_ tandem.Hasher    = (*Bunnymark)(nil)
)

// NewBunnymark returns the bunnymark, a *[Bunnymark].
func NewBunnymark() tandem.Game { return &Bunnymark{} }

// Info implements tandem.Describer: "bunnymark", 5,000 bunnies by
// default, no -level (the arena is the window), and the game tandem
// bench -matrix runs.
func (g *Bunnymark) Info() tandem.Info {
	return tandem.Info{Name: "bunnymark", Sprites: 5000, Bench: true}
}

// Setup implements tandem.Game: an arena level of about the window's size
// (64 px at least), the world on it and a sprite per bunny.
func (g *Bunnymark) Setup(s *tandem.Setup) error {
	if err := loadImages(s); err != nil {
		return err
	}
	aw, ah := s.Arena()
	level, err := arena(max(aw, 64), max(ah, 64))
	if err != nil {
		return err
	}
	st, err := newStage(level, s.Hz(), s.Seed(), s.Sprites(), true)
	if err != nil {
		return err
	}
	b := level.Bounds()
	s.Bounds(float32(b.Min.X), float32(b.Min.Y), float32(b.Max.X), float32(b.Max.Y))
	sfx, err := loadSounds(s)
	if err != nil {
		return err
	}
	*g = Bunnymark{st: st, bunnies: spawnBunnies(s, st.world.Bunnies()), click: sfx.click}
	aim(s.World(), st, false)
	return nil
}

// Tick implements tandem.Game: the world steps with no input and the
// bunnies follow it.
func (g *Bunnymark) Tick(w *tandem.World) {
	cut := g.st.step(physics.Controls{})
	g.bunnies.draw(w, g.st.world.Bunnies())
	aim(w, g.st, cut)
	// A click per wave: the bunnies are all spawned at Setup and let go at
	// the first tick, and a wave of them is counted every second after.
	if (w.Tick()-1)%uint64(w.Hz()) == 0 {
		w.Play(g.click, 0.6, 0)
	}
}

// StateHash implements tandem.Hasher: the world's hash with the camera's
// cuts, as recordings of the bunnymark have always checked it.
func (g *Bunnymark) StateHash() uint64 { return g.st.hash() }

// World returns the physics world. Between ticks only.
func (g *Bunnymark) World() *World { return g.st.world }
