package physics

import "math"

// Hasher is a word-at-a-time FNV-1a-style hash with an extra xorshift per
// word. Each word step h = xs((h ^ w) * prime) is a bijection of h for a
// fixed w, so changing any single word of the input always changes the
// result; the SplitMix64 finaliser then spreads the bits. Games hash their
// own state with it, over the exact bits of every float.
type Hasher uint64

// NewHasher returns a hasher at its starting value.
func NewHasher() Hasher { return Hasher(hashOffset) }

const (
	hashOffset = 14695981039346656037
	hashPrime  = 1099511628211
)

// Word hashes in one 64-bit word.
func (h *Hasher) Word(w uint64) {
	x := (uint64(*h) ^ w) * hashPrime
	*h = Hasher(x ^ x>>32)
}

// F64 hashes in the exact bits of v.
func (h *Hasher) F64(v float64) { h.Word(math.Float64bits(v)) }

// Pair32 hashes in the exact bits of a and b, as one word.
func (h *Hasher) Pair32(a, b float32) {
	h.Word(uint64(math.Float32bits(a)) | uint64(math.Float32bits(b))<<32)
}

// Sum returns the hash of the words so far.
func (h *Hasher) Sum() uint64 { return mix64(uint64(*h)) }

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
	h := NewHasher()
	h.Word(w.tick)
	h.Word(w.rng.State())
	p := &w.player
	h.F64(p.body.Pos.X)
	h.F64(p.body.Pos.Y)
	h.F64(p.body.Size.X)
	h.F64(p.body.Size.Y)
	h.F64(p.body.Vel.X)
	h.F64(p.body.Vel.Y)
	h.Word(uint64(p.body.Flags) | uint64(uint8(p.facing))<<8)
	h.Word(uint64(p.airTicks) | uint64(p.sinceJump)<<32)
	h.F64(p.runPhase)
	h.Word(uint64(p.generation))
	h.Word(uint64(w.left))
	for i := range w.coins {
		c := &w.coins[i]
		h.F64(c.Pos.X)
		h.F64(c.Pos.Y)
		var col uint64
		if c.Collected {
			col = 1
		}
		h.Word(col | uint64(c.Generation)<<1)
	}
	b := w.bunnies
	h.Word(uint64(b.Len()))
	h.Word(b.rng.State())
	// Three independent lanes (positions, velocities, angles) so the
	// multiplies overlap; each lane's result then goes through h.
	n := b.Len()
	xs, ys, vxs, vys, as, ss := b.X[:n], b.Y[:n], b.VX[:n], b.VY[:n], b.Angle[:n], b.Spin[:n]
	hp, hv, ha := NewHasher(), Hasher(hashOffset+1), Hasher(hashOffset+2)
	for i := range xs {
		hp.Pair32(xs[i], ys[i])
		hv.Pair32(vxs[i], vys[i])
		ha.Pair32(as[i], ss[i])
	}
	h.Word(uint64(hp))
	h.Word(uint64(hv))
	h.Word(uint64(ha))
	return h.Sum()
}
