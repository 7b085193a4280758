package tandem

import (
	"image"
	"image/color"

	"github.com/tandem-engine/tandem/levels"
	"github.com/tandem-engine/tandem/physics"
)

// The engine's tests run two small games of their own (the demo's games
// import this package, so its tests cannot import them): walker, which
// takes a level and walks a block over it by the input, and dots, the load
// game, which bounces -sprites squares around the arena.
var testGames = []Game{&walker{}, &dots{}}

// square returns a w x h image of colour c, shaded from full at the
// top-left corner to half at the bottom-right (so that a screenshot has
// more than a few colours to check).
func square(w, h int, c color.RGBA) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			k := 255 - 128*(x+y)/(w+h)
			img.SetRGBA(x, y, color.RGBA{uint8(int(c.R) * k / 255), uint8(int(c.G) * k / 255), uint8(int(c.B) * k / 255), c.A})
		}
	}
	return img
}

// walker walks a block over its level: Left and Right move it 4 px a
// tick, Jump lifts it 8 px while held; the camera follows it.
type walker struct {
	me    ID
	x, y  float32
	steps int64
}

func (g *walker) Info() Info {
	return Info{Name: "walker", Level: levels.Demo}
}

func (g *walker) Setup(s *Setup) error {
	*g = walker{}
	wall := s.Image("wall", square(16, 16, color.RGBA{90, 60, 40, 255}))
	block := s.Image("block", square(12, 12, color.RGBA{240, 200, 40, 255}))
	l := s.Level()
	s.Tiles(l, func(l *physics.Level, tx, ty int) Frame {
		if l.At(tx, ty) == physics.TileEmpty {
			return NoTile
		}
		return wall
	})
	s.PixelArt(360)
	g.x, g.y = float32(l.PlayerStart.X)+8, float32(l.PlayerStart.Y)+8
	g.me = s.World().Spawn(Sprite{X: g.x, Y: g.y, Frame: block, Layer: 1})
	s.World().CutCamera(Camera{X: g.x, Y: g.y})
	return nil
}

func (g *walker) Tick(w *World) {
	if w.Down(Left) {
		g.x -= 4
		g.steps++
	}
	if w.Down(Right) {
		g.x += 4
		g.steps++
	}
	if w.Down(Jump) {
		g.y -= 8
	}
	w.Move(g.me, g.x, g.y)
	w.SetCamera(Camera{X: g.x, Y: g.y})
}

func (g *walker) Counters(add func(string, int64)) { add("steps", g.steps) }

// dots bounces -sprites squares inside the arena, each at its own
// velocity, and spins them with -spin.
type dots struct {
	ids    []ID
	x, y   []float32
	vx, vy []float32
	w, h   float32
	spin   bool
}

func (g *dots) Info() Info { return Info{Name: "dots", Sprites: 100, Bench: true} }

func (g *dots) Setup(s *Setup) error {
	aw, ah := s.Arena()
	*g = dots{w: float32(aw), h: float32(ah), spin: s.Spin()}
	red := s.Scaled(s.Image("dot", square(8, 8, color.RGBA{220, 40, 40, 255})), s.SpriteSize())
	s.Bounds(0, 0, g.w, g.h)
	rng := physics.NewRNG(s.Seed())
	n := s.Sprites()
	s.World().Reserve(0, n)
	for range n {
		x, y := float32(rng.Float64())*g.w, float32(rng.Float64())*g.h
		g.x, g.y = append(g.x, x), append(g.y, y)
		g.vx, g.vy = append(g.vx, float32(rng.Float64()*8-4)), append(g.vy, float32(rng.Float64()*8-4))
		g.ids = append(g.ids, s.World().Spawn(Sprite{X: x, Y: y, Frame: red}))
	}
	s.World().CutCamera(Camera{X: g.w / 2, Y: g.h / 2})
	return nil
}

func (g *dots) Tick(w *World) {
	for i, id := range g.ids {
		g.x[i] += g.vx[i]
		g.y[i] += g.vy[i]
		if g.x[i] < 0 || g.x[i] > g.w {
			g.vx[i] = -g.vx[i]
		}
		if g.y[i] < 0 || g.y[i] > g.h {
			g.vy[i] = -g.vy[i]
		}
		s, _ := w.Get(id)
		s.X, s.Y = g.x[i], g.y[i]
		if g.spin {
			s.Angle += 0.05
		}
		w.Set(id, s)
	}
}
