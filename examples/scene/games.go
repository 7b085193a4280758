package scene

import (
	"fmt"

	"github.com/tandem-engine/tandem"
	"github.com/tandem-engine/tandem/examples/assets"
)

// The layers the games draw on: the load behind the pickups behind the
// player, and in the shooter the ships behind the gun behind the bullets,
// which leave the gun over it.
const (
	layerBunnies = 0
	layerCoins   = 1
	layerPlayer  = 2

	layerShips   = 0
	layerGun     = 1
	layerBullets = 2
)

// loadImages gives s the demo's sprites (examples/assets), each a frame
// named by its file name: "player_idle0", "coin3", "ship", ...
func loadImages(s *tandem.Setup) error {
	return s.Images(assets.FS, "png/*.png")
}

// sounds are the demo's sounds (examples/assets/wav, synthesised by its
// internal/sfx).
type sounds struct {
	click, coin, hit, jump, land, music, shot tandem.Sound
}

// loadSounds gives s the demo's sounds and returns them.
func loadSounds(s *tandem.Setup) (sounds, error) {
	if err := s.Sounds(assets.FS, "wav/*.wav"); err != nil {
		return sounds{}, err
	}
	return sounds{click: s.SoundNamed("click"), coin: s.SoundNamed("coin"), hit: s.SoundNamed("hit"),
		jump: s.SoundNamed("jump"), land: s.SoundNamed("land"), music: s.SoundNamed("music"), shot: s.SoundNamed("shot")}, nil
}

// panOf returns the pan of a sound at world x for a view centred on camX
// showing halfW world pixels either side: -1 at the left edge, 1 at the
// right.
func panOf(x, camX, halfW float32) float32 {
	return max(-1, min(1, (x-camX)/halfW))
}

// bunnySprites draws a [World]'s bunnies, one entity each on layer 0, in
// four colours drawn -sprite-size pixels on their longer side: upright,
// like the classic bunnymark's (which software rasterizers draw faster as
// axis-aligned rectangles), unless -spin, though the physics spins them
// either way.
type bunnySprites struct {
	ids    []tandem.ID // by bunny
	frames [4]tandem.Frame
	spin   bool
}

// spawnBunnies spawns b's bunnies in s's world.
func spawnBunnies(s *tandem.Setup, b *Bunnies) bunnySprites {
	bs := bunnySprites{ids: make([]tandem.ID, b.Len()), spin: s.Spin()}
	for i := range bs.frames {
		bs.frames[i] = s.Scaled(s.Frame(fmt.Sprintf("bunny%d", i)), s.SpriteSize())
	}
	w := s.World()
	w.Reserve(layerBunnies, len(bs.ids))
	for k := range bs.ids {
		bs.ids[k] = w.Spawn(bs.sprite(b, k))
	}
	return bs
}

// sprite returns how bunny k of b looks: its box's centre.
func (bs *bunnySprites) sprite(b *Bunnies, k int) tandem.Sprite {
	const half = float32(BunnySize) / 2
	sp := tandem.Sprite{X: b.X[k] + half, Y: b.Y[k] + half, Frame: bs.frames[k&3], Layer: layerBunnies}
	if bs.spin {
		sp.Angle = b.Angle[k]
	}
	return sp
}

// draw moves every bunny to where b has it; they bounce, but never jump,
// so they are always blended.
func (bs *bunnySprites) draw(w *tandem.World, b *Bunnies) {
	if bs.spin {
		for k, id := range bs.ids {
			w.Set(id, bs.sprite(b, k))
		}
		return
	}
	const half = float32(BunnySize) / 2
	xs, ys := b.X[:len(bs.ids)], b.Y[:len(bs.ids)]
	for k, id := range bs.ids {
		w.Move(id, xs[k]+half, ys[k]+half)
	}
}

// aim points w's camera where st's is: a cut when the stage cut.
func aim(w *tandem.World, st *stage, cut bool) {
	c := tandem.Camera{X: float32(st.camX), Y: float32(st.camY)}
	if cut {
		w.CutCamera(c)
		return
	}
	w.SetCamera(c)
}
