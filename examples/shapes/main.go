// Command shapes shows what a game draws besides sprites: every shape,
// filled and outlined, text in Latin, Greek, Cyrillic and CJK, text and a
// health bar on a moving entity, a score on screen, and a screen shader
// (a CRT's scanlines and vignette, pulsing from the tick) that -plain
// turns off: go run ./examples/shapes.
package main

import (
	_ "embed"
	"flag"
	"strconv"

	"github.com/tandem-engine/tandem"
	"github.com/tandem-engine/tandem/physics"
)

//go:embed droid-cjk-subset.ttf
var cjkFont []byte

var plain = flag.Bool("plain", false, "draw without the screen shader")

// crt darkens every other line, bends the picture's edges into a
// vignette and brightens it with u_pulse, which the ticks set.
const crt = `#version 410 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_layer;
uniform vec2 u_size;
uniform float u_pulse;

void main() {
	vec4 c = texture(u_layer, v_uv);
	float scan = 0.8 + 0.2 * step(1.0, mod(v_uv.y * u_size.y, 2.0));
	vec2 d = v_uv - 0.5;
	float vignette = 1.0 - dot(d, d) * 1.2;
	o_color = vec4(c.rgb * scan * vignette * (1.0 + 0.15 * u_pulse), c.a);
}
`

type game struct {
	cjk    tandem.Font
	crt    tandem.Shader
	ship   tandem.ID
	score  int
	digits []byte
}

func (g *game) Setup(s *tandem.Setup) error {
	var err error
	if g.cjk, err = s.Font("droid-cjk-subset.ttf", cjkFont); err != nil {
		return err
	}
	if !*plain {
		if g.crt, err = s.Shader("crt", crt); err != nil {
			return err
		}
		s.ScreenShader(g.crt)
	}
	s.Background(colorOf(0x20, 0x24, 0x30))
	g.ship = s.World().Spawn(tandem.Sprite{X: 0, Y: 200, Scale: 24, Tint: 0xFF40C0FF, Layer: 1})
	g.digits = make([]byte, 0, 32)
	return nil
}

func (g *game) Tick(w *tandem.World) {
	t := float32(w.Tick()) / float32(w.Hz())
	// The ship circles the middle; its bar and name ride on it.
	w.Move(g.ship, 300*physics.Cos(t), 200+float32(60*physics.Sin(2*t)))
	hp := 0.5 + float32(0.5*physics.Sin(t))
	on := tandem.Style{On: g.ship, Layer: 1}
	on.Color = 0xFF202020
	w.Rect(-30, -34, 60, 8, on)
	on.Color, on.Key = 0xFF30D050, 1
	w.Rect(-30, -34, 60*hp, 8, on)
	w.Print(0, 20, "ship", tandem.TextStyle{On: g.ship, Align: tandem.AlignCenter, Size: 14, Layer: 1})

	// A row of every shape, filled above and outlined below, turning.
	a := float32(t * 1.5) // rounded: a feeds sums (no fused multiply-add)
	row := []struct{ y, width float32 }{{-220, 0}, {-120, 3}}
	for i, r := range row {
		st := tandem.Style{Width: r.width, Key: uint32(10 * (i + 1))}
		st.Color = 0xFF4060FF
		w.Circle(-520, r.y, 40, st)
		st.Key++
		st.Color = 0xFF40FF80
		w.Ellipse(-400, r.y, 55, 30+float32(10*physics.Sin(a)), st)
		st.Key++
		st.Color = 0xFFFFA040
		w.Rect(-320, r.y-35, 90, 70, st)
		st.Key++
		st.Color = 0xFFFFFFFF
		w.RoundRect(-200, r.y-35, 90, 70, 18, st)
		st.Key++
		st.Color = 0xFF60E0FF
		w.Arc(-20, r.y, 40, a, a+4, st)
		st.Key++
		st.Color = 0xFFFF60C0
		hex := [12]float32{}
		for k := range 6 {
			ang := a + float32(float32(k)*1.0471976)
			hex[2*k], hex[2*k+1] = 40*physics.Cos(ang), 40*physics.Sin(ang)
		}
		w.Polygon(100, r.y, hex[:], st)
		st.Key++
	}
	line := tandem.Style{Width: 4, Color: 0xFFFFFF60, Key: 30}
	w.Line(200, -250, 200+float32(100*physics.Cos(a)), -250+float32(100*physics.Sin(a)), line)
	zig := [10]float32{}
	for k := range 5 {
		zig[2*k] = 340 + float32(float32(k)*50)
		zig[2*k+1] = -150 + float32(30*physics.Sin(a+float32(k)))
	}
	line.Key, line.Color, line.Width = 40, 0xFF80FFFF, 3
	w.Polyline(zig[:], line)

	// Text in three scripts and CJK from the game's own font.
	w.Print(-560, -20, "Latin: Ça été l'œuvre d'un naïf", tandem.TextStyle{Size: 28})
	w.Print(-560, 20, "Ελληνικά: Καλημέρα κόσμε", tandem.TextStyle{Size: 28, Color: 0xFFC0E0FF})
	w.Print(-560, 60, "Кириллица: Привет, мир", tandem.TextStyle{Size: 28, Color: 0xFFFFE0C0})
	w.Print(-560, 100, "中文: 你好世界 · 日本語 漢字", tandem.TextStyle{Size: 28, Font: g.cjk, Color: 0xFFC0FFC0})

	// The score, on screen, in the CJK font's "得分" and the default digits.
	g.score = int(w.Tick() / 6)
	g.digits = append(append(g.digits[:0], "得分 "...), strconv.Itoa(g.score)...)
	w.PrintBytes(24, 16, g.digits, tandem.TextStyle{Font: g.cjk, Size: 32, Screen: true})
	if g.crt != 0 {
		w.Uniform(g.crt, "u_pulse", float32(physics.Sin(t*4)*0.5)+0.5)
	}
}

func (g *game) Info() tandem.Info { return tandem.Info{Name: "shapes"} }

func main() { tandem.Main(&game{}) }

type rgb struct{ r, g, b uint8 }

func (c rgb) RGBA() (r, g, b, a uint32) {
	return uint32(c.r) * 0x101, uint32(c.g) * 0x101, uint32(c.b) * 0x101, 0xFFFF
}

func colorOf(r, g, b uint8) rgb { return rgb{r, g, b} }
