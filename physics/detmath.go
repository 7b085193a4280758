package physics

import (
	"math"
	"math/bits"
)

// Deterministic float32 math: the same bits on every GOARCH. See the
// package comment for why math.Sin and friends are not used in a step, and
// detmath_test.go for the measured accuracy and the golden hash that runs
// under arm64.
//
// Everything is computed in float64 from the exactly converted float32
// arguments, with every product explicitly rounded (float64(a*b) + c),
// and rounded to float32 once at the end. The float64 kernels are accurate
// to a few float64 ulps, about 2^-50, so the float32 result is the
// correctly rounded one except when the exact value lies within about
// 2^-26 float32 ulps of a rounding midpoint.

// canonicalNaN is the one NaN the functions here return. amd64 and arm64
// make NaNs with different bits (amd64's default NaN has the sign bit set,
// arm64's does not), so every NaN result is produced by returning this
// value rather than by arithmetic.
const canonicalNaN = 0x7fc00000

func nan32() float32 { return math.Float32frombits(canonicalNaN) }

// Sin returns the sine of x (in radians), the same bits on every machine.
// Tried at every float32 x, huge ones included (the reduction carries 2/π
// to 256 bits), it is within 0.50006 float32 ulps of math.Sin in float64.
// Sin(±0) = ±0; Sin(±Inf) and Sin(NaN) are NaN.
func Sin(x float32) float32 {
	if x == 0 {
		return x // the kernel would turn -0 into +0
	}
	q, r, ok := reduce(x)
	if !ok {
		return nan32()
	}
	var s float64
	switch q {
	case 0:
		s = sinKernel(r)
	case 1:
		s = cosKernel(r)
	case 2:
		s = -sinKernel(r)
	default:
		s = -cosKernel(r)
	}
	return float32(s)
}

// Cos returns the cosine of x (in radians), the same bits on every
// machine, within 0.50002 float32 ulps of math.Cos at every float32 x.
// Cos(±Inf) and Cos(NaN) are NaN.
func Cos(x float32) float32 {
	q, r, ok := reduce(x)
	if !ok {
		return nan32()
	}
	var c float64
	switch q {
	case 0:
		c = cosKernel(r)
	case 1:
		c = -sinKernel(r)
	case 2:
		c = -cosKernel(r)
	default:
		c = sinKernel(r)
	}
	return float32(c)
}

// Atan2 returns the angle of the point (x, y) from the +x axis, in
// [-π, π] (rounded to float32, so ±π comes out as ±3.1415927, just above
// π), the same bits on every machine, within 0.5000005 float32 ulps of
// math.Atan2 at a million pairs of every kind. Its special cases are those of math.Atan2 (signed zeros
// choose between 0 and ±π; infinities give multiples of π/4); a NaN
// argument gives NaN. With y growing down, as in this package, a positive
// angle turns clockwise on screen.
func Atan2(y, x float32) float32 {
	yd, xd := float64(y), float64(x)
	switch {
	case y != y || x != x:
		return nan32()
	case y == 0:
		if x > 0 || (x == 0 && !math.Signbit(xd)) {
			return float32(math.Copysign(0, yd))
		}
		return float32(math.Copysign(math.Pi, yd))
	case x == 0:
		return float32(math.Copysign(math.Pi/2, yd))
	case math.IsInf(xd, 0):
		a := 0.0
		if math.IsInf(yd, 0) {
			a = math.Pi / 4
		}
		if x < 0 {
			a = math.Pi - a
		}
		return float32(math.Copysign(a, yd))
	case math.IsInf(yd, 0):
		return float32(math.Copysign(math.Pi/2, yd))
	}
	// Finite and non-zero. The ratio cannot overflow or underflow: float32
	// magnitudes lie within 2^±150 and float64 reaches 2^±1022.
	ay, ax := math.Abs(yd), math.Abs(xd)
	var a float64
	if ay <= ax {
		a = atanUnit(ay / ax)
	} else {
		a = math.Pi/2 - atanUnit(ax/ay)
	}
	if x < 0 {
		a = math.Pi - a
	}
	return float32(math.Copysign(a, yd))
}

// Sqrt returns the square root of x, correctly rounded, the same bits on
// every machine. It may use math.Sqrt because IEEE 754 requires square
// root to be correctly rounded and every Go port honours that (the
// SQRTSD and FSQRTD instructions and the software fallback alike), unlike
// math.Sin, whose approximation differs between ports; rounding the
// float64 root to float32 loses nothing, since float64 carries more than
// 2*24+2 bits (a double rounding of a square root is then harmless).
// Sqrt(-0) = -0, Sqrt(+Inf) = +Inf; a negative x or NaN gives NaN.
func Sqrt(x float32) float32 {
	if x != x || x < 0 {
		return nan32()
	}
	return float32(math.Sqrt(float64(x)))
}

// Hypot returns sqrt(x*x + y*y) without overflow or underflow, the same
// bits on every machine, within 0.5000005 float32 ulps of math.Hypot at a
// million pairs of every kind.
// No scaling is needed: the squares of float32 values are exact in
// float64 and lie far inside its range. Hypot(±Inf, y) and Hypot(x, ±Inf)
// are +Inf even if the other is NaN (as in math.Hypot); otherwise a NaN
// argument gives NaN.
func Hypot(x, y float32) float32 {
	xd, yd := float64(x), float64(y)
	switch {
	case math.IsInf(xd, 0) || math.IsInf(yd, 0):
		return float32(math.Inf(1))
	case x != x || y != y:
		return nan32()
	}
	return float32(math.Sqrt(float64(xd*xd) + float64(yd*yd)))
}

// twoOverPi holds the bits of 2/π after the binary point, 64 to a word,
// behind one word of zeros (the bits before the point, so that a window
// may start before it). 256 bits cover every float32: see reduce.
// TestTwoOverPiBits recomputes them from Machin's formula.
var twoOverPi = [5]uint64{
	0,
	0xa2f9836e4e441529,
	0xfc2757d1f534ddc0,
	0xdb6295993c439041,
	0xfe5163abdebbc561,
}

// reduce returns q and r with x = (4k+q)·π/2 + r for some integer k, q in
// 0..3 and |r| <= π/4 (up to rounding); ok is false for ±Inf and NaN.
//
// It is Payne and Hanek's reduction done in integers, so it is exact up to
// the 256 bits of 2/π and the same on every machine: x = m·2^e with m the
// 24-bit significand, and x·2/π mod 4 needs only the bits of 2/π whose
// weight times m·2^e is below 4, 128 of them starting two places above
// 2^-e. The integer part mod 4 is the quadrant; the fraction, rounded to
// the nearest quadrant and times π/2, is r. The fraction keeps 126 bits
// and is off by less than 2^-102, and no float32 comes closer than 1.6e-9
// (2^-29) to a multiple of π/2 (tried all), so r keeps a full float64's
// relative precision.
func reduce(x float32) (q uint32, r float64, ok bool) {
	b := math.Float32bits(x)
	neg := b>>31 != 0
	b &^= 1 << 31
	exp := int(b >> 23)
	switch {
	case exp == 0xff:
		return 0, 0, false
	case math.Float32frombits(b) < math.Pi/4:
		return 0, float64(x), true // also ±0 and subnormals, signs kept
	}
	m := uint64(b&(1<<23-1) | 1<<23)
	// x = m·2^e2 with e2 = exp-150 in -24..104. The window holds the bits of
	// 2/π from 2^-(e2-1) down, 128 of them; bit i after the point is at
	// index i+63 of twoOverPi.
	g := uint(exp - 150 - 2 + 64) // 38..166
	k, sh := g/64, g%64
	hi := twoOverPi[k]<<sh | twoOverPi[k+1]>>(64-sh)
	lo := twoOverPi[k+1]<<sh | twoOverPi[k+2]>>(64-sh)
	// m·window·2^-126 mod 4: the bits of m·window from 2^0 to 2^127.
	p1, w0 := bits.Mul64(m, lo)
	w1 := p1 + m*hi
	q = uint32(w1 >> 62)
	t, u := w1<<2|w0>>62, w0<<2 // the fraction, in units of 2^-128
	fracNeg := t>>63 != 0
	if fracNeg { // nearer the next quadrant: take fraction - 1
		q++
		t = ^t
		u = -u
		if u == 0 {
			t++
		}
	}
	shift := 0
	if t == 0 {
		t, u, shift = u, 0, 64
	}
	if t != 0 {
		lz := bits.LeadingZeros64(t)
		t = t<<lz | u>>(64-lz)
		f := float64(t>>11) * math.Float64frombits(uint64(1023-53-lz-shift)<<52) // exact
		r = float64(f * (math.Pi / 2))
	}
	if fracNeg {
		r = -r
	}
	if neg {
		q, r = -q, -r
	}
	return q & 3, r, true
}

// horner evaluates c[0]·z^(n-1) + c[1]·z^(n-2) + ... + c[n-1] by
// Horner's rule, every product rounded to float64 before its sum, so that
// no compiler fuses the two.
func horner(z float64, c []float64) float64 {
	p := c[0]
	for _, k := range c[1:] {
		p = float64(p*z) + k
	}
	return p
}

// sinCoeffs are the Taylor series of sin(r)/r - 1 in r², divided by -r²:
// (-1)^n/(2n+1)! from 1/17! down to 1/3!, rounded by the compiler.
var sinCoeffs = []float64{
	-1.0 / 355687428096000, 1.0 / 1307674368000, -1.0 / 6227020800, 1.0 / 39916800,
	-1.0 / 362880, 1.0 / 5040, -1.0 / 120, 1.0 / 6,
}

// sinKernel returns sin(r) for |r| <= π/4 (a little beyond is fine): its
// Taylor series to r^17, whose remainder there is below 2^-53 relative.
func sinKernel(r float64) float64 {
	z := float64(r * r)
	return r - float64(float64(r*z)*horner(z, sinCoeffs))
}

// cosCoeffs are the Taylor series of (cos(r) - 1)/r² in r²: from -1/18!
// down to -1/2!.
var cosCoeffs = []float64{
	-1.0 / 6402373705728000, 1.0 / 20922789888000, -1.0 / 87178291200, 1.0 / 479001600,
	-1.0 / 3628800, 1.0 / 40320, -1.0 / 720, 1.0 / 24, -1.0 / 2,
}

// cosKernel returns cos(r) for |r| <= π/4: its Taylor series to r^18.
func cosKernel(r float64) float64 {
	z := float64(r * r)
	return 1 + float64(z*horner(z, cosCoeffs))
}

// atanCoeffs are the series of (atan(v) - v)/v³ in v²: from -1/23 down
// to -1/3.
var atanCoeffs = []float64{
	-1.0 / 23, 1.0 / 21, -1.0 / 19, 1.0 / 17, -1.0 / 15, 1.0 / 13,
	-1.0 / 11, 1.0 / 9, -1.0 / 7, 1.0 / 5, -1.0 / 3,
}

// atanUnit returns atan(t) for t in [0, 1]. Above tan(π/8) it uses
// atan(t) = π/4 + atan((t-1)/(t+1)), then one halving,
// atan(u) = 2·atan(u/(1+sqrt(1+u²))), leaves |v| <= tan(π/16) < 0.2, where
// the series v - v³/3 + v⁵/5 - ... to v^23 is accurate below 2^-53.
func atanUnit(t float64) float64 {
	base, u := 0.0, t
	if t > math.Sqrt2-1 {
		base, u = math.Pi/4, (t-1)/(t+1)
	}
	v := u / (1 + math.Sqrt(1+float64(u*u)))
	z := float64(v * v)
	a := v + float64(float64(v*z)*horner(z, atanCoeffs))
	return base + 2*a
}
