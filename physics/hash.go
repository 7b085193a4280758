package physics

import "math"

// hasher is a word-at-a-time FNV-1a-style hash with an extra xorshift per
// word. Each word step h = xs((h ^ w) * prime) is a bijection of h for a
// fixed w, so changing any single word of the input always changes the
// result; the SplitMix64 finaliser then spreads the bits.
type hasher uint64

const (
	hashOffset = 14695981039346656037
	hashPrime  = 1099511628211
)

func (h *hasher) word(w uint64) {
	x := (uint64(*h) ^ w) * hashPrime
	*h = hasher(x ^ x>>32)
}

func (h *hasher) f64(v float64) { h.word(math.Float64bits(v)) }

func (h *hasher) pair32(a, b float32) {
	h.word(uint64(math.Float32bits(a)) | uint64(math.Float32bits(b))<<32)
}

func (h *hasher) sum() uint64 { return mix64(uint64(*h)) }

// Hash returns a 64-bit hash of the whole simulation state, over the exact
// bits (math.Float64bits / Float32bits) of every float. Two worlds with
// equal hashes are, with overwhelming probability, bit-identical, which is
// how replays and cross-machine runs are checked. The order is fixed:
// tick; world RNG state; player (position, size, velocity, flags, facing,
// air ticks, ticks since jump press, run phase, generation); coins left;
// each coin in index order (position, collected, generation); bunny count
// and bunny RNG state; then three lanes over the bunnies in index order
// (X and Y; VX and VY; Angle and Spin), each hashed alone and folded in
// in that order. The level and Config are not hashed: they are inputs.
// Hash reads every bunny, about 2 ns each.
func (w *World) Hash() uint64 {
	h := hasher(hashOffset)
	h.word(w.tick)
	h.word(w.rng.State())
	p := &w.player
	h.f64(p.body.Pos.X)
	h.f64(p.body.Pos.Y)
	h.f64(p.body.Size.X)
	h.f64(p.body.Size.Y)
	h.f64(p.body.Vel.X)
	h.f64(p.body.Vel.Y)
	h.word(uint64(p.body.Flags) | uint64(uint8(p.facing))<<8)
	h.word(uint64(p.airTicks) | uint64(p.sinceJump)<<32)
	h.f64(p.runPhase)
	h.word(uint64(p.generation))
	h.word(uint64(w.left))
	for i := range w.coins {
		c := &w.coins[i]
		h.f64(c.Pos.X)
		h.f64(c.Pos.Y)
		var col uint64
		if c.Collected {
			col = 1
		}
		h.word(col | uint64(c.Generation)<<1)
	}
	b := w.bunnies
	h.word(uint64(b.Len()))
	h.word(b.rng.State())
	// Three independent lanes (positions, velocities, angles) so the
	// multiplies overlap; each lane's result then goes through h.
	n := b.Len()
	xs, ys, vxs, vys, as, ss := b.X[:n], b.Y[:n], b.VX[:n], b.VY[:n], b.Angle[:n], b.Spin[:n]
	hp, hv, ha := hasher(hashOffset), hasher(hashOffset+1), hasher(hashOffset+2)
	for i := range xs {
		hp.pair32(xs[i], ys[i])
		hv.pair32(vxs[i], vys[i])
		ha.pair32(as[i], ss[i])
	}
	h.word(uint64(hp))
	h.word(uint64(hv))
	h.word(uint64(ha))
	return h.sum()
}
