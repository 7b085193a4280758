package scene

import (
	"testing"

	"github.com/tandem-engine/tandem"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

// TestShooterEffectsAreNotState checks that the shooter's lasers and CRT
// flash draw (a line for every bullet in flight, the flash's uniform)
// and change nothing else: the same input reaches the same hashes with
// and without them.
func TestShooterEffectsAreNotState(t *testing.T) {
	cfg := tandem.SimConfig{Hz: 60, Seed: 3, Sprites: 200}
	plain := newSim(t, NewShooter(), cfg)
	fx := &Shooter{Lasers: true, CRT: true}
	drawn := newSim(t, fx, cfg)
	var snap snapshot.Snapshot
	lines := 0
	for tick := range 120 {
		in := simthread.TickInput{Down: buttons(tandem.Jump)}
		plain.Step(in)
		drawn.Step(in)
		drawn.Publish(&snap)
		if plain.Hash() != drawn.Hash() {
			t.Fatalf("tick %d: hash %x plain, %x with the effects", tick+1, plain.Hash(), drawn.Hash())
		}
		lines = 0
		for _, s := range snap.Draw.Shapes {
			if s.Kind == snapshot.ShapeLine {
				lines++
			}
		}
		if lines != len(fx.sim.bullets) {
			t.Fatalf("tick %d: %d lines for %d bullets", tick+1, lines, len(fx.sim.bullets))
		}
	}
	if lines == 0 || len(snap.Draw.Uniforms) != 1 {
		t.Errorf("%d lines and uniforms %v at the end, want bullets' lines and the flash", lines, snap.Draw.Uniforms)
	}
}

// TestPlatformerShowsCoins checks the platformer's coin count on screen.
func TestPlatformerShowsCoins(t *testing.T) {
	s := newSim(t, NewPlatformer(), tandem.SimConfig{Hz: 60, Seed: 3})
	var snap snapshot.Snapshot
	s.Step(simthread.TickInput{})
	s.Publish(&snap)
	d := &snap.Draw
	if len(d.Texts) != 1 || d.Texts[0].Flags != snapshot.ShapeScreen || d.Texts[0].Font != 1 {
		t.Fatalf("texts %+v, want one on screen in the game's font", d.Texts)
	}
	got := string(d.Chars[d.Texts[0].From:d.Texts[0].To])
	if got != "coins 0 / 172" {
		t.Errorf("the count reads %q", got)
	}
}
