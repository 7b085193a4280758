package tandem

import (
	"strconv"
	"strings"
	"testing"

	"golang.org/x/image/font/gofont/gobold"

	"github.com/tandem-engine/tandem/internal/mallocs"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

// drawer draws a bar and a name on a moving ship, a row of shapes, a
// score on screen and sets a shader's uniform, every tick.
type drawer struct {
	ship   ID
	font   Font
	sh     Shader
	digits []byte
	noDraw bool // the same game drawing nothing: its hashes must not change
}

const testShader = "#version 410 core\nuniform sampler2D u_layer;\nuniform float u_glow;\n uniform vec2 u_dir;\nuniform float u_time;\nin vec2 v_uv;\nout vec4 o_color;\nvoid main() { o_color = texture(u_layer, v_uv) * u_glow; }\n"

func (g *drawer) Setup(s *Setup) error {
	var err error
	if g.font, err = s.Font("gobold.ttf", gobold.TTF); err != nil {
		return err
	}
	if g.sh, err = s.Shader("glow", testShader); err != nil {
		return err
	}
	s.LayerShader(2, g.sh)
	g.ship = s.World().Spawn(Sprite{X: 100, Y: 50, Layer: 1})
	g.digits = make([]byte, 0, 16)
	return nil
}

func (g *drawer) Tick(w *World) {
	x := float32(100 + w.Tick())
	if w.Tick() == 5 {
		w.Teleport(g.ship, 500, 50)
	} else {
		w.Move(g.ship, x, 50)
	}
	if g.noDraw {
		return
	}
	// Drawn before the ship moves in a later tick: On resolves at publish.
	w.Rect(-10, -20, 20, 4, Style{On: g.ship, Key: 1, Color: 0xFF00FF00})
	w.Print(0, 10, "ship", TextStyle{On: g.ship, Align: AlignCenter})
	w.Circle(x, 200, 10, Style{Key: 7})
	w.Circle(x, 300, 10, Style{})
	w.Polyline([]float32{0, 0, 10, 0, 10, 10}, Style{Key: 3, Layer: 4, Screen: true})
	w.Polygon(0, 0, []float32{0, 0, 10, 0, 0, 10}, Style{Width: 2})
	g.digits = strconv.AppendUint(g.digits[:0], w.Tick(), 10)
	w.PrintBytes(10, 10, g.digits, TextStyle{Font: g.font, Size: 24, Screen: true})
	w.Uniform(g.sh, "u_glow", float32(w.Tick()))
	w.Uniform(g.sh, "u_dir", 1, 2)
}

func TestDrawPublishes(t *testing.T) {
	g := &drawer{}
	sim, err := NewSim(g, SimConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var snap snapshot.Snapshot
	sim.step(simthread.TickInput{})
	sim.publish(&snap)
	d := &snap.Draw
	if len(d.Shapes) != 6 || len(d.Texts) != 2 {
		t.Fatalf("%d shapes and %d texts, want 6 (a rect, two circles, two segments, a polygon) and 2", len(d.Shapes), len(d.Texts))
	}
	bar := d.Shapes[0]
	if bar.X != 101-10 || bar.Y != 50-20 || bar.Layer != 0 || bar.Tint != 0xFF00FF00 || bar.Key == 0 {
		t.Errorf("the bar on the ship: %+v, want at (91, 30), its key set", bar)
	}
	if d.Shapes[2].Key != 0 || d.Shapes[1].Key == 0 {
		t.Errorf("circle keys %x and %x: want set for Key 7, 0 for Key 0 off any entity", d.Shapes[1].Key, d.Shapes[2].Key)
	}
	if d.Shapes[3].Key == d.Shapes[4].Key || d.Shapes[3].Flags != snapshot.ShapeScreen || d.Shapes[3].Width != 1 {
		t.Errorf("polyline segments %+v and %+v: want distinct keys, on screen, 1 px wide", d.Shapes[3], d.Shapes[4])
	}
	if p := d.Shapes[5]; p.Kind != snapshot.ShapePolygon || p.Data&255 != 3 || len(d.Points) != 6 || p.E != 10 || p.F != 10 {
		t.Errorf("polygon %+v with points %v", p, d.Points)
	}
	if name := d.Texts[0]; name.X != 101 || name.Y != 60 || string(d.Chars[name.From:name.To]) != "ship" || name.Align != snapshot.AlignCenter {
		t.Errorf("the name on the ship: %+v", name)
	}
	if score := d.Texts[1]; string(d.Chars[score.From:score.To]) != "1" || score.Font != uint8(g.font) || score.Size != 24 {
		t.Errorf("the score: %+v", score)
	}
	if len(d.Uniforms) != 3 || d.Uniforms[0] != 1 || d.Uniforms[1] != 1 || d.Uniforms[2] != 2 {
		t.Errorf("uniforms %v, want u_glow 1 then u_dir 1, 2", d.Uniforms)
	}
	// The ship's shapes snap when it teleports: their generation changes.
	gen := bar.Gen
	for range 4 {
		sim.step(simthread.TickInput{})
		sim.publish(&snap)
	}
	if snap.Draw.Shapes[0].Gen == gen || snap.Draw.Shapes[0].Key != bar.Key {
		t.Errorf("after the teleport the bar's gen is %d (was %d), key %x (was %x): want a new gen, the same key",
			snap.Draw.Shapes[0].Gen, gen, snap.Draw.Shapes[0].Key, bar.Key)
	}
	// Steady state: a tick that draws, and its publish, allocate nothing.
	n := mallocs.Fewest(5, func() {
		for range 100 {
			sim.step(simthread.TickInput{})
			sim.publish(&snap)
		}
	})
	if n != 0 {
		t.Fatalf("100 ticks that draw and their publishes allocated %d times", n)
	}
}

// TestDrawIsNotState checks that drawing changes no hash: the same game
// drawing and not drawing reaches the same state hashes.
func TestDrawIsNotState(t *testing.T) {
	a, err := NewSim(&drawer{}, SimConfig{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewSim(&drawer{noDraw: true}, SimConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		a.Steps(1)
		b.Steps(1)
		if a.Hash() != b.Hash() {
			t.Fatalf("tick %d: hash %x drawing, %x not", i+1, a.Hash(), b.Hash())
		}
	}
}

type setupOnly func(*Setup) error

func (f setupOnly) Setup(s *Setup) error { return f(s) }
func (f setupOnly) Tick(*World)          {}

func TestDrawSetupErrors(t *testing.T) {
	for _, tc := range []struct {
		setup func(*Setup) error
		want  string
	}{
		{func(s *Setup) error { _, err := s.Font("bad.ttf", []byte("not a font")); return err }, "tandem: Font bad.ttf:"},
		{func(s *Setup) error { _, err := s.Shader("crt", "void main() {}"); return err }, `Shader crt: line 1: the source must start with "#version 410 core"`},
		{func(s *Setup) error { s.LayerShader(0, 3); return nil }, "LayerShader: shader 3, which Setup.Shader did not return"},
		{func(s *Setup) error { s.Offscreen(8); return nil }, "Offscreen: layer 8"},
	} {
		_, err := NewSim(setupOnly(tc.setup), SimConfig{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one with %q", err, tc.want)
		}
	}
}

func TestUniformMistakesPanic(t *testing.T) {
	g := &drawer{}
	sim, err := NewSim(g, SimConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		call func(w *World)
		want string
	}{
		{"unknown name", func(w *World) { w.Uniform(g.sh, "u_glw", 1) }, "u_dir (2), u_glow (1)"},
		{"wrong count", func(w *World) { w.Uniform(g.sh, "u_dir", 1) }, "with 1 values"},
		{"engine's", func(w *World) { w.Uniform(g.sh, "u_time", 1) }, "u_dir (2), u_glow (1)"},
		{"font", func(w *World) { w.Print(0, 0, "x", TextStyle{Font: 9}) }, "font 9, which Setup did not load"},
		{"layer", func(w *World) { w.Circle(0, 0, 1, Style{Layer: 8}) }, "layer 8"},
		{"polygon", func(w *World) { w.Polygon(0, 0, []float32{0, 0, 1, 1}, Style{}) }, "3 to 255 corners"},
	} {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, tc.want) {
					t.Errorf("%s: panic %v, want one with %q", tc.name, r, tc.want)
				}
			}()
			tc.call(sim.World())
		}()
	}
}
