package scene

import (
	"strings"

	"github.com/tandem-engine/tandem/physics"
)

// stage is what the platformer and the bunnymark play: a [World] and the
// camera, stepped with it so that it is deterministic and hashed with it.
// It knows nothing of drawing; the games draw it (see platformer.go).
type stage struct {
	world *World
	// fixed keeps the camera on the level's centre (the bunnymark's);
	// otherwise it follows the player.
	fixed      bool
	camX, camY float64
	camGen     uint32 // counts the camera's cuts
	playerGen  uint32 // the player's generation when the camera last looked
}

// newStage builds a world on level with hz, seed and bunnies (the rest
// DefaultWorldConfig's) and puts the camera on its target.
func newStage(level *physics.Level, hz int, seed uint64, bunnies int, fixed bool) (*stage, error) {
	cfg := DefaultWorldConfig()
	cfg.Hz, cfg.Seed, cfg.Bunnies = hz, seed, bunnies
	w, err := NewWorld(level, cfg)
	if err != nil {
		return nil, err
	}
	st := &stage{world: w, fixed: fixed}
	st.camX, st.camY = st.target()
	st.playerGen = w.Player().Generation()
	return st, nil
}

// step advances the world by one tick with the player's controls c, then
// the camera, and reports whether the camera cut: the player's generation
// changed (a respawn), so neither the player nor the view may be blended
// across this tick.
func (st *stage) step(c physics.Controls) (cut bool) {
	st.world.Step(c)
	return st.stepCamera()
}

// target returns where the camera wants to be: the player's centre, a
// little ahead of where it faces, or the level's centre when fixed.
func (st *stage) target() (x, y float64) {
	if st.fixed {
		b := st.world.Level().Bounds()
		return (b.Min.X + b.Max.X) / 2, (b.Min.Y + b.Max.Y) / 2
	}
	p := st.world.Player()
	box := p.Box()
	// Each product rounded before the sum: no fused multiply-add (see
	// physics's package comment), so the camera is the same everywhere.
	return float64((box.Min.X+box.Max.X)/2) + float64(float64(p.Facing())*24), (box.Min.Y + box.Max.Y) / 2
}

// stepCamera eases the camera toward its target, a fixed fraction per
// tick, and cuts to it when the player's generation changes.
func (st *stage) stepCamera() (cut bool) {
	tx, ty := st.target()
	if gen := st.world.Player().Generation(); gen != st.playerGen {
		st.playerGen = gen
		st.camGen++
		st.camX, st.camY = tx, ty
		return true
	}
	const ease = 0.15
	st.camX = float64((tx-st.camX)*ease) + st.camX
	st.camY = float64((ty-st.camY)*ease) + st.camY
	return false
}

// hash returns the world's state hash with the camera's cuts and the
// player's generation folded in (not the camera's position, which never
// was): recordings check this value, so it must not change.
func (st *stage) hash() uint64 {
	return st.world.Hash() ^ mix(uint64(st.camGen)<<32^uint64(st.playerGen))
}

// mix scrambles x's bits (MurmurHash3's finalizer, first half).
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}

// arena returns an empty level of about w x h pixels with a floor, for the
// bunnymark: the bunnies bounce inside its bounds.
func arena(w, h int) (*physics.Level, error) {
	tw, th := max(w/physics.TileSize, 8), max(h/physics.TileSize, 8)
	var b strings.Builder
	for y := range th {
		for x := range tw {
			switch {
			case y == th-1:
				b.WriteByte('#')
			case y == th-2 && x == 1:
				b.WriteByte('P')
			default:
				b.WriteByte('.')
			}
		}
		b.WriteByte('\n')
	}
	return physics.ParseLevel("bunnymark arena", strings.NewReader(b.String()))
}
