package tandem_test

import (
	"fmt"
	"strconv"

	"golang.org/x/image/font/gofont/gobold"

	"github.com/tandem-engine/tandem"
)

// hero draws what most games need besides sprites: a health bar that
// rides on the player, a score on screen in a font of its own, and the
// whole frame through a shader whose glow rises while Jump is held.
type hero struct {
	player tandem.ID
	font   tandem.Font
	glow   tandem.Shader
	hp     float32
	score  int64
	buf    []byte
}

// glowShader brightens the frame by u_glow.
const glowShader = `#version 410 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_layer;
uniform float u_glow;

void main() {
	vec4 c = texture(u_layer, v_uv);
	o_color = vec4(c.rgb * (1.0 + u_glow), c.a);
}
`

func (g *hero) Setup(s *tandem.Setup) error {
	var err error
	if g.font, err = s.Font("Go Bold", gobold.TTF); err != nil {
		return err
	}
	if g.glow, err = s.Shader("glow", glowShader); err != nil {
		return err
	}
	s.ScreenShader(g.glow)
	g.player = s.World().Spawn(tandem.Sprite{Scale: 24, Tint: 0xFF40C0FF})
	g.hp, g.buf = 1, make([]byte, 0, 16)
	return nil
}

func (g *hero) Tick(w *tandem.World) {
	g.hp = max(g.hp-0.01, 0)
	g.score += 10
	// The bar: 32 px at full health, over the player's head, blended as
	// the player moves (On), grey behind green.
	w.Rect(-16, -24, 32, 4, tandem.Style{On: g.player, Color: 0xFF404040})
	w.Rect(-16, -24, 32*g.hp, 4, tandem.Style{On: g.player, Key: 1, Color: 0xFF00C000})
	// The score, top left of the screen, formatted without allocating.
	g.buf = strconv.AppendInt(g.buf[:0], g.score, 10)
	w.PrintBytes(16, 16, g.buf, tandem.TextStyle{Font: g.font, Size: 32, Screen: true})
	glow := float32(0)
	if w.Down(tandem.Jump) {
		glow = 0.5
	}
	w.Uniform(g.glow, "u_glow", glow)
}

// A bar, a score and a shader, stepped without a window: what is drawn
// is output, so the state hash is that of the entities alone.
func ExampleWorld_Print() {
	sim, err := tandem.NewSim(&hero{}, tandem.SimConfig{Hz: 60})
	if err != nil {
		fmt.Println(err)
		return
	}
	sim.Steps(60, tandem.Jump)
	fmt.Println(sim.Tick(), sim.World().Entities())
	// Output: 60 1
}
