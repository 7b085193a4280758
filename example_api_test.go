package tandem_test

import (
	"fmt"
	"image"

	"github.com/tandem-engine/tandem"
)

// ball is a game in a dozen lines: a ball that rolls right while Right
// is held, and the camera on it.
type ball struct{ id tandem.ID }

func (g *ball) Setup(s *tandem.Setup) error {
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for i := range img.Pix {
		img.Pix[i] = 0xFF
	}
	f := s.Image("ball", img)
	g.id = s.World().Spawn(tandem.Sprite{X: 100, Y: 100, Frame: f, Tint: 0xFF2020FF})
	return nil
}

func (g *ball) Tick(w *tandem.World) {
	b, _ := w.Get(g.id)
	if w.Down(tandem.Right) {
		b.X += 240 * float32(w.Dt()) // 4 px a tick at 60 Hz
		b.Angle += 0.25
	}
	w.Set(g.id, b)
	w.SetCamera(tandem.Camera{X: b.X, Y: b.Y})
}

// A game stepped without a window, as a test or a server would: a second
// of sim time with Right held, then half a second with nothing held.
func ExampleNewSim() {
	sim, err := tandem.NewSim(&ball{}, tandem.SimConfig{Hz: 60})
	if err != nil {
		fmt.Println(err)
		return
	}
	sim.Steps(60, tandem.Right)
	sim.Steps(30)
	b, _ := sim.World().Get((sim.Game().(*ball)).id)
	fmt.Printf("tick %d: ball at x=%.0f, camera at x=%.0f\n", sim.Tick(), b.X, sim.World().Camera().X)
	// Output:
	// tick 90: ball at x=340, camera at x=340
}

// Entities that teleport are drawn at their new place at once; entities
// that move are blended from where they were. The engine tracks which is
// which, so a game just says what happened.
func ExampleWorld_Teleport() {
	sim, err := tandem.NewSim(&ball{}, tandem.SimConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	w := sim.World()
	id := sim.Game().(*ball).id
	w.Teleport(id, 0, 0)
	s, ok := w.Get(id)
	fmt.Println(s.X, s.Y, ok, w.Entities())
	w.Despawn(id)
	fmt.Println(w.Alive(id), w.Entities())
	// Output:
	// 0 0 true 1
	// false 0
}

// Setup's errors name what is wrong: here, a name misspelt, beside the
// names Setup has.
func ExampleSetup_Frame() {
	_, err := tandem.NewSim(gameFunc(func(s *tandem.Setup) error {
		s.Image("hero", image.NewRGBA(image.Rect(0, 0, 8, 8)))
		s.Image("coin", image.NewRGBA(image.Rect(0, 0, 4, 4)))
		s.Frame("heor")
		return nil
	}), tandem.SimConfig{})
	fmt.Println(err)
	// Output:
	// tandem: no image called "heor": did you mean "hero"? the images are coin, hero (in game's Setup)
}

// gameFunc is a game that only sets up.
type gameFunc func(*tandem.Setup) error

func (f gameFunc) Setup(s *tandem.Setup) error { return f(s) }
func (f gameFunc) Tick(*tandem.World)          {}
