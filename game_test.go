package tandem

import (
	"fmt"
	"image"
	"slices"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/internal/mallocs"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

// layered spawns one sprite on each of layers 2, 0 and 1, in that order,
// and writes a line of text each tick.
type layered struct{ ids [3]ID }

func (g *layered) Setup(s *Setup) error {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	f := s.Image("px", img)
	m := s.Mirrored(f)
	big := s.Scaled(f, 64)
	if f != 1 || m != 2 || big != 3 || s.Image("px2", img) != 4 {
		return fmt.Errorf("frames %d %d %d: want 1, 2, 3 and 4 next", f, m, big)
	}
	w := s.World()
	for i, layer := range []uint8{2, 0, 1} {
		g.ids[i] = w.Spawn(Sprite{X: float32(i), Frame: f, Layer: layer, Scale: float32(i + 1)})
	}
	return nil
}

func (g *layered) Tick(w *World) {
	w.Move(g.ids[0], float32(w.Tick()), 0)
	if w.Tick()%2 == 1 {
		w.Text(10, 20, 0, "odd tick")
	}
}

func TestPublishLayersScaleText(t *testing.T) {
	sim, err := NewSim(&layered{}, SimConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var snap snapshot.Snapshot
	sim.step(simthread.TickInput{})
	sim.publish(&snap)
	sp := &snap.Sprites
	// Layer 0 first, then 1, then 2, whatever the spawn order; each
	// layer's slots (16 when a table first grows) keep their IDs.
	var order []float32
	for i := range sp.Len() {
		if sp.Tint[i] != 0 {
			order = append(order, sp.Scale[i])
		}
	}
	if len(order) != 3 || order[0] != 2 || order[1] != 3 || order[2] != 1 {
		t.Fatalf("visible sprites' scales in draw order %v: want layers 0, 1, 2 = scales 2, 3, 1", order)
	}
	if len(snap.Text.Lines) != 1 || string(snap.Text.Chars) != "odd tick" || snap.Text.Lines[0].Tint != White {
		t.Fatalf("text after tick 1: %+v", snap.Text)
	}
	sim.step(simthread.TickInput{})
	sim.publish(&snap)
	if len(snap.Text.Lines) != 0 {
		t.Fatalf("tick 2 drew no text, but the snapshot has %+v", snap.Text)
	}
	// Steady state: a tick and a publish allocate nothing. The count is
	// the whole process's, and the app runs of the tests before this one
	// may still be winding down goroutines: the quietest of five tries.
	n := mallocs.Fewest(5, func() {
		for range 100 {
			sim.step(simthread.TickInput{})
			sim.publish(&snap)
		}
	})
	if n != 0 {
		t.Fatalf("100 ticks and publishes allocated %d times", n)
	}
}

func TestSetupErrors(t *testing.T) {
	for _, tc := range []struct {
		setup func(*Setup) error
		want  string
	}{
		{func(s *Setup) error { s.Frame("hero"); return nil }, `no image called "hero": Setup has declared no images`},
		{func(s *Setup) error {
			s.Image("player", image.NewRGBA(image.Rect(0, 0, 2, 2)))
			s.Image("zebra", image.NewRGBA(image.Rect(0, 0, 2, 2)))
			s.Frame("coin")
			return nil
		}, `no image called "coin": the images are player, zebra`},
		{func(s *Setup) error {
			s.Sound("jump", beepWAV())
			s.Sound("coin", beepWAV())
			s.SoundNamed("jmup")
			return nil
		}, `no sound called "jmup": did you mean "jump"? the sounds are coin, jump`},
		{func(s *Setup) error { return &FlagError{Flag: "speed", Value: 0, Want: "1 to 20"} }, "-speed 0: want 1 to 20"},
		{func(s *Setup) error { return s.Bind(Jump, "Spcae") }, `no key or button called "Spcae"`},
		{func(s *Setup) error { return s.Bind(15, "Space") }, "past MaxAction"},
		{func(s *Setup) error { s.Image("none", nil); return nil }, `image "none" is empty`},
		{func(s *Setup) error { s.Scaled(0, 0); return nil }, "Scaled: 0 px"},
	} {
		_, err := NewSim(gameFunc(tc.setup), SimConfig{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
	if _, err := NewSim(gameFunc(func(*Setup) error { return nil }), SimConfig{Hz: 5000}); err == nil {
		t.Error("5000 Hz accepted")
	}
}

type gameFunc func(*Setup) error

func (f gameFunc) Setup(s *Setup) error { return f(s) }
func (f gameFunc) Tick(*World)          {}

func TestAnimationAt(t *testing.T) {
	a := Animation{4, 5, 6}
	for i, want := range map[int]Frame{0: 4, 2: 6, 3: 4, 7: 5, -1: 6} {
		if got := a.At(i); got != want {
			t.Errorf("At(%d) = %d, want %d", i, got, want)
		}
	}
	if (Animation{}).At(3) != 0 {
		t.Error("an empty animation is not frame 0")
	}
}

// recorder keeps what each tick saw of the Jump action.
type recorder struct{ pressed, released, down []bool }

func (r *recorder) Setup(*Setup) error { return nil }
func (r *recorder) Tick(w *World) {
	r.pressed = append(r.pressed, w.Pressed(Jump))
	r.released = append(r.released, w.Released(Jump))
	r.down = append(r.down, w.Down(Jump))
}

func TestStepsPressAndRelease(t *testing.T) {
	// Holding an action across two Steps calls presses it once; letting go
	// releases it once.
	r := &recorder{}
	sim, err := NewSim(r, SimConfig{})
	if err != nil {
		t.Fatal(err)
	}
	sim.Steps(2, Jump)
	sim.Steps(2, Jump)
	sim.Steps(2)
	want := []struct{ p, r, d bool }{{true, false, true}, {false, false, true}, {false, false, true}, {false, false, true}, {false, true, false}, {false, false, false}}
	for i, w := range want {
		if r.pressed[i] != w.p || r.released[i] != w.r || r.down[i] != w.d {
			t.Errorf("tick %d: pressed %v released %v down %v, want %+v", i+1, r.pressed[i], r.released[i], r.down[i], w)
		}
	}
}

func TestMisuseIsCaught(t *testing.T) {
	// A game's bugs are named where they happen: a frame Setup never made,
	// a layer past Layers, a Setup call after Setup returned, one of the
	// engine's keys bound to an action.
	var kept *Setup
	sim, err := NewSim(gameFunc(func(s *Setup) error {
		kept = s
		s.Image("px", image.NewRGBA(image.Rect(0, 0, 1, 1)))
		return nil
	}), SimConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		f    func()
		want string
	}{
		{"frame 2", func() { sim.World().Spawn(Sprite{Frame: 2}) }, "frame 2, past the 1 frames"},
		{"layer 8", func() { sim.World().Spawn(Sprite{Layer: Layers}) }, "layer 8"},
		{"late Setup", func() { kept.Background(image.Black.C) }, "Setup.Background called after"},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), tc.want) {
					t.Errorf("%s: panic %v, want %q", tc.name, r, tc.want)
				}
			}()
			tc.f()
		}()
	}
	if _, err := NewSim(gameFunc(func(s *Setup) error {
		s.Bind(Jump, "Escape") // the error is dropped: NewSim reports it
		return nil
	}), SimConfig{}); err == nil || !strings.Contains(err.Error(), "Escape is the engine's") {
		t.Errorf("binding Escape: %v", err)
	}
	if _, err := NewSim(gameFunc(func(s *Setup) error {
		s.World().Spawn(Sprite{Frame: 5})
		return nil
	}), SimConfig{}); err == nil || !strings.Contains(err.Error(), "frame 5") {
		t.Errorf("a Setup spawning frame 5 of 0: %v", err)
	}
}

// growing spawns a mover on layer 1, then, from tick 3, a sprite a tick on
// layer 0, whose table grows past its first 16 slots at tick 19.
type growing struct{ mover ID }

func (g *growing) Setup(s *Setup) error {
	g.mover = s.World().Spawn(Sprite{X: 0, Layer: 1})
	return nil
}

func (g *growing) Tick(w *World) {
	w.Move(g.mover, float32(w.Tick()), 0)
	if w.Tick() >= 3 {
		w.Spawn(Sprite{X: 5})
	}
}

func TestLayerGrowthKeepsBlending(t *testing.T) {
	// When layer 0's table doubles, layer 1's slots start further on in
	// the snapshot; its mover still blends from where it was, every tick.
	sim, err := NewSim(&growing{}, SimConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var snaps [2]snapshot.Snapshot
	sim.publish(&snaps[0])
	grew := false
	for k := 1; k <= 40; k++ {
		prev, curr := &snaps[(k-1)%2], &snaps[k%2]
		sim.step(simthread.TickInput{})
		sim.publish(curr)
		grew = grew || curr.Sprites.Len() != prev.Sprites.Len()
		i := slices.Index(curr.Sprites.ID, 1<<24)
		j, ok := snapshot.PrevSlot(prev, curr, i)
		if !ok || prev.Sprites.ID[j] != 1<<24 {
			t.Fatalf("tick %d: the layer-1 mover at slot %d does not blend (prev slot %d, %v)", k, i, j, ok)
		}
	}
	if !grew {
		t.Fatal("layer 0 never grew: the test tests nothing")
	}
}

// TestReadsSprites checks that a Sim knows whether its game read
// -sprites in Setup: tandem bench -matrix runs its sprites axis only for
// a game that does.
func TestReadsSprites(t *testing.T) {
	for _, reads := range []bool{false, true} {
		g := &spritesReader{read: reads}
		s, err := NewSim(g, SimConfig{Sprites: 50})
		if err != nil {
			t.Fatal(err)
		}
		if got := forLoop(s).ReadsSprites(); got != reads {
			t.Errorf("a game that reads -sprites %v: ReadsSprites %v", reads, got)
		}
	}
}

type spritesReader struct{ read bool }

func (g *spritesReader) Setup(s *Setup) error {
	if g.read {
		_ = s.Sprites()
	}
	return nil
}
func (g *spritesReader) Tick(*World) {}

// TestTextLastsOneTick checks World.Text as its doc says: text drawn in a
// tick is in that tick's snapshot, and gone from the next tick's unless
// that tick draws it again.
func TestTextLastsOneTick(t *testing.T) {
	g := &textGame{drawOn: map[uint64]string{1: "ready", 3: "go", 4: "go"}}
	sim, err := NewSim(g, SimConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var snap snapshot.Snapshot
	for tick := uint64(1); tick <= 5; tick++ {
		sim.Steps(1)
		sim.publish(&snap)
		got := ""
		for _, l := range snap.Text.Lines {
			got += string(snap.Text.Chars[l.From:l.To])
		}
		if want := g.drawOn[tick]; got != want {
			t.Errorf("tick %d: text %q, want %q", tick, got, want)
		}
	}
}

// textGame draws drawOn[tick] in the tick of that number, nothing in the
// others.
type textGame struct{ drawOn map[uint64]string }

func (g *textGame) Setup(*Setup) error { return nil }
func (g *textGame) Tick(w *World) {
	if s, ok := g.drawOn[w.Tick()]; ok {
		w.Text(8, 8, 0, s)
	}
}
