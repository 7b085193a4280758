// Command drawbench is the load of docs/results/2026-11-26-drawing.md:
// what a game draws besides sprites, at a size that costs, to time
// against the same in another engine. -mode picks it:
//
//   - circles: -n anti-aliased circles, 6 to 14 px across, moving and
//     bouncing (blended between ticks by key);
//   - lines: -n anti-aliased lines 2 px wide, 15 to 35 px long, moving
//     and turning;
//   - text: 50 lines of 40 digits (2,000 glyphs, Go Regular 14 px) that
//     change every tick;
//   - shader: a full-screen shader (scanlines, vignette, a pulse) over a
//     frame of -n circles (0: the background alone); none: the same
//     frame without it.
//
// go run ./examples/drawbench -mode circles -n 10000 -vsync=false -seconds 5 -json
package main

import (
	"flag"
	"fmt"

	"github.com/tandem-engine/tandem"
	"github.com/tandem-engine/tandem/physics"
)

var (
	mode = flag.String("mode", "circles", "circles, lines, text, shader or none")
	n    = flag.Int("n", 10000, "circles or lines (in the shader and none modes, circles under the shader)")
)

const screen = `#version 410 core
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

type bench struct {
	w, h           float32
	x, y, vx, vy   []float32
	r              []float32
	color          []uint32
	sh             tandem.Shader
	digits         []byte
	rng            physics.RNG
	drawText, line bool
}

func (b *bench) Info() tandem.Info { return tandem.Info{Name: "drawbench"} }

func (b *bench) Setup(s *tandem.Setup) error {
	aw, ah := s.Arena()
	b.w, b.h = float32(aw), float32(ah)
	b.rng = physics.NewRNG(s.Seed())
	count := *n
	switch *mode {
	case "circles":
	case "lines":
		b.line = true
	case "text":
		b.drawText, count = true, 0
		b.digits = make([]byte, 50*40)
	case "shader":
		sh, err := s.Shader("screen", screen)
		if err != nil {
			return err
		}
		b.sh = sh
		s.ScreenShader(sh)
	case "none":
	default:
		return fmt.Errorf("drawbench: -mode %q: want circles, lines, text, shader or none", *mode)
	}
	s.World().SetCamera(tandem.Camera{X: b.w / 2, Y: b.h / 2})
	for range count {
		b.x = append(b.x, float32(b.rng.Float64())*b.w)
		b.y = append(b.y, float32(b.rng.Float64())*b.h)
		b.vx = append(b.vx, float32(b.rng.Float64()*400-200))
		b.vy = append(b.vy, float32(b.rng.Float64()*400-200))
		b.r = append(b.r, 3+float32(b.rng.Float64()*4))
		b.color = append(b.color, 0xFF000000|uint32(b.rng.Uint64()&0xFFFFFF))
	}
	return nil
}

func (b *bench) Tick(w *tandem.World) {
	dt := float32(w.Dt())
	for i := range b.x {
		x, y := b.x[i]+float32(b.vx[i]*dt), b.y[i]+float32(b.vy[i]*dt)
		if x < 0 || x > b.w {
			b.vx[i] = -b.vx[i]
		}
		if y < 0 || y > b.h {
			b.vy[i] = -b.vy[i]
		}
		b.x[i], b.y[i] = x, y
		st := tandem.Style{Key: uint32(i + 1), Color: b.color[i]}
		if b.line {
			a := float32(float32(i)+float32(w.Tick())*0.05) * 0.1
			l := 5 * b.r[i]
			st.Width = 2
			w.Line(x, y, x+float32(l*physics.Cos(a)), y+float32(l*physics.Sin(a)), st)
			continue
		}
		w.Circle(x, y, b.r[i], st)
	}
	if b.drawText {
		t := w.Tick()
		for i := range b.digits {
			b.digits[i] = '0' + byte((uint64(i)*7+t)%10)
		}
		for l := range 50 {
			w.PrintBytes(8, float32(8+l*14), b.digits[l*40:(l+1)*40], tandem.TextStyle{Size: 14, Screen: true})
		}
	}
	if b.sh != 0 {
		w.Uniform(b.sh, "u_pulse", float32(physics.Sin(float32(w.Tick())*0.1)*0.5)+0.5)
	}
}

func main() { tandem.Main(&bench{}) }
