package main

import (
	"testing"

	"github.com/tandem-engine/tandem"
	"github.com/tandem-engine/tandem/snapshot"
)

// TestShapesDraws checks what a tick of the example draws: every kind of
// shape, the four scripts and the score, and the shader's uniform.
func TestShapesDraws(t *testing.T) {
	sim, err := tandem.NewSim(&game{}, tandem.SimConfig{Hz: 60})
	if err != nil {
		t.Fatal(err)
	}
	sim.Steps(30)
	var snap snapshot.Snapshot
	sim.Loop().Publish(&snap)
	d := &snap.Draw
	kinds := map[uint8]int{}
	for _, s := range d.Shapes {
		kinds[s.Kind]++
	}
	for k, want := range map[uint8]int{snapshot.ShapeCircle: 2, snapshot.ShapeEllipse: 2, snapshot.ShapeRect: 6,
		snapshot.ShapeArc: 2, snapshot.ShapePolygon: 2, snapshot.ShapeLine: 5} {
		if kinds[k] != want {
			t.Errorf("%d shapes of kind %d, want %d", kinds[k], k, want)
		}
	}
	if len(d.Texts) != 6 {
		t.Fatalf("%d texts, want the ship's name, four scripts and the score", len(d.Texts))
	}
	score := d.Texts[5]
	if got := string(d.Chars[score.From:score.To]); got != "得分 5" || score.Flags != snapshot.ShapeScreen {
		t.Errorf("the score reads %q (flags %d)", got, score.Flags)
	}
	if len(d.Uniforms) != 1 {
		t.Errorf("uniforms %v, want u_pulse", d.Uniforms)
	}
}
