package physics

// RNG is a small deterministic pseudo-random generator (SplitMix64: a
// 64-bit counter run through a strong mixer). It is a plain value whose
// whole state is one uint64, so it can be copied, hashed and compared; the
// same seed gives the same sequence on every machine. The zero RNG is
// valid (seed 0).
type RNG struct{ state uint64 }

// NewRNG returns an RNG seeded with seed.
func NewRNG(seed uint64) RNG { return RNG{state: seed} }

// State returns the generator's whole state; NewRNG(r.State()) continues
// r's sequence.
func (r *RNG) State() uint64 { return r.state }

// Uint64 returns the next 64 pseudo-random bits.
func (r *RNG) Uint64() uint64 {
	r.state += 0x9e3779b97f4a7c15
	return mix64(r.state)
}

// mix64 is the SplitMix64 finaliser: a bijection with full avalanche.
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Float64 returns a number in [0, 1) with 53 random bits.
func (r *RNG) Float64() float64 { return float64(float64(r.Uint64()>>11) * 0x1p-53) }

// Float32 returns a number in [0, 1) with 24 random bits.
func (r *RNG) Float32() float32 { return float32(float32(r.Uint64()>>40) * 0x1p-24) }

// Intn returns a number in [0, n). It panics if n <= 0.
func (r *RNG) Intn(n int) int {
	if n <= 0 {
		panic("physics: RNG.Intn: n <= 0")
	}
	// Rejection sampling keeps the result exactly uniform.
	un := uint64(n)
	limit := -un % un // 2^64 mod n
	for {
		v := r.Uint64()
		if v >= limit {
			return int(v % un)
		}
	}
}

// Range returns a float64 in [lo, hi).
func (r *RNG) Range(lo, hi float64) float64 {
	return lo + float64(r.Float64()*float64(hi-lo))
}
