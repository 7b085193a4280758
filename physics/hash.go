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
