package physics

import (
	"fmt"
	"math"
	"math/big"
	"testing"
)

// mathInput returns a float32 argument for the deterministic math's tests:
// any bits (every magnitude, subnormals, ±Inf and NaNs), the range games
// use, neighbours of multiples of π/2 (where reduction cancels most), and
// the special values. It uses only the RNG and exact or explicitly rounded
// operations, so the golden test makes the same inputs on every machine.
func mathInput(r *RNG) float32 {
	switch r.Uint64() % 8 {
	case 0, 1:
		return math.Float32frombits(uint32(r.Uint64()))
	case 2, 3: // [-16, 16): a few turns either way
		return float32(float32(r.Float32()*32) - 16)
	case 4: // 2^-27 to 2^33, either sign: positions, speeds, angles
		b := uint32(r.Uint64())
		return math.Float32frombits(b&(1<<31|1<<23-1) | uint32(100+r.Intn(60))<<23)
	case 5: // within 4 ulps of k·π/2, k < 2^20
		k := r.Intn(1 << 20)
		base := math.Float32bits(float32(float64(float64(k) * (math.Pi / 2))))
		return math.Float32frombits(base + uint32(r.Intn(9)) - 4)
	case 6: // tiny and subnormal
		b := uint32(r.Uint64())
		return math.Float32frombits(b & (1<<31 | 1<<27 - 1))
	}
	return specialInputs[r.Intn(len(specialInputs))]
}

// mathPair draws the i-th pair of two-argument inputs: independent for
// odd i, and for even i the second the first times a factor in [-2, 2),
// so that every angle and ratio occurs.
func mathPair(r *RNG, i int) (x, y float32) {
	x, y = mathInput(r), mathInput(r)
	if i%2 == 0 {
		y = float32(x * float32(float32(r.Float32()*4)-2))
	}
	return x, y
}

var specialInputs = []float32{
	0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
	math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32,
	1, -1, 0.5, math.Pi / 4, math.Pi / 2, math.Pi, -math.Pi, 2 * math.Pi, 1 << 24, 1e30, -1e-30,
}

// ulps returns how far got is from the exact value want, in float32 ulps
// at want.
func ulps(got float32, want float64) float64 {
	_, e := math.Frexp(want)
	ulp := max(math.Ldexp(1, e-24), math.SmallestNonzeroFloat32)
	return math.Abs(float64(got)-want) / ulp
}

// same reports whether got has the bits of want, except that any NaN want
// must come out as the canonical NaN.
func same(got, want float32) bool {
	if want != want {
		return math.Float32bits(got) == canonicalNaN
	}
	return math.Float32bits(got) == math.Float32bits(want)
}

// checkAgainst compares f with ref (computed in float64) at x: NaN exactly
// where ref is NaN, ±Inf exactly where ref rounds to it, and the error in
// ulps elsewhere, which it returns.
func checkAgainst(t *testing.T, name string, x float32, got float32, want float64) float64 {
	t.Helper()
	if w32 := float32(want); w32 != w32 || math.IsInf(float64(w32), 0) { // NaN, or beyond float32's range
		if !same(got, float32(want)) {
			t.Fatalf("%s(%g) = %g (%#x), want %g", name, x, got, math.Float32bits(got), want)
		}
		return 0
	}
	return ulps(got, want)
}

func mathCount() int {
	if testing.Short() || raceEnabled {
		return 100_000 // make test runs the million without -race
	}
	return 1_000_000
}

// TestSinCosAccuracy checks Sin and Cos against math.Sin and math.Cos in
// float64 at a million arguments of every kind: within 0.501 float32 ulps
// (that is, correctly rounded but for values within a hair of a midpoint),
// NaN exactly for ±Inf and NaN, odd and even bit for bit, and never beyond
// [-1, 1]. Run over every float32 once, the largest error was 0.50006 ulps
// for Sin and 0.50002 for Cos, and 3 of the 2^32 results differed from
// float32(math.Sin) or float32(math.Cos).
func TestSinCosAccuracy(t *testing.T) {
	r := NewRNG(1)
	var worstS, worstC float64
	var atS, atC float32
	differ := 0
	n := mathCount()
	for range n {
		x := mathInput(&r)
		s, c := Sin(x), Cos(x)
		if e := checkAgainst(t, "Sin", x, s, math.Sin(float64(x))); e > worstS {
			worstS, atS = e, x
		}
		if e := checkAgainst(t, "Cos", x, c, math.Cos(float64(x))); e > worstC {
			worstC, atC = e, x
		}
		if !same(s, float32(math.Sin(float64(x)))) || !same(c, float32(math.Cos(float64(x)))) {
			differ++
		}
		if s < -1 || s > 1 || c < -1 || c > 1 {
			t.Fatalf("Sin(%g), Cos(%g) = %g, %g: beyond [-1, 1]", x, x, s, c)
		}
		if !same(Sin(-x), -s) || !same(Cos(-x), c) {
			t.Fatalf("x = %g: Sin(-x) = %g, Cos(-x) = %g; want %g, %g", x, Sin(-x), Cos(-x), -s, c)
		}
	}
	t.Logf("%d arguments: Sin within %.6f ulps (at %g), Cos within %.6f ulps (at %g); %d differ from float32(math.Sin/Cos)",
		n, worstS, atS, worstC, atC, differ)
	if worstS > 0.501 || worstC > 0.501 {
		t.Errorf("Sin error %.6f ulps at %g, Cos %.6f at %g: want at most 0.501", worstS, atS, worstC, atC)
	}
	if differ > n/10000 {
		t.Errorf("%d of %d results differ from float32(math.Sin/Cos): far more than near-midpoint cases explain", differ, n)
	}
	negZero := float32(math.Copysign(0, -1))
	if !same(Sin(negZero), negZero) || !same(Sin(0), 0) || Cos(negZero) != 1 {
		t.Errorf("Sin(-0), Sin(0), Cos(-0) = %g, %g, %g; want -0, 0, 1", Sin(negZero), Sin(0), Cos(negZero))
	}
}

// TestAtan2Accuracy checks Atan2 against math.Atan2 in float64 at a
// million pairs (independent, and of similar size so that every angle
// occurs), and its special cases bit for bit against float32(math.Atan2).
func TestAtan2Accuracy(t *testing.T) {
	r := NewRNG(2)
	var worst float64
	var atY, atX float32
	differ := 0
	n := mathCount()
	for i := range n {
		x, y := mathPair(&r, i)
		got, want := Atan2(y, x), math.Atan2(float64(y), float64(x))
		if e := checkAgainst(t, "Atan2", y, got, want); e > worst {
			worst, atY, atX = e, y, x
		}
		if !same(got, float32(want)) {
			differ++
		}
	}
	t.Logf("%d pairs: Atan2 within %.6f ulps (at %g, %g); %d differ from float32(math.Atan2)", n, worst, atY, atX, differ)
	if worst > 0.501 {
		t.Errorf("Atan2(%g, %g) is %.6f ulps off: want at most 0.501", atY, atX, worst)
	}
	for _, y := range specialInputs {
		for _, x := range specialInputs {
			if got, want := Atan2(y, x), float32(math.Atan2(float64(y), float64(x))); !same(got, want) &&
				ulps(got, math.Atan2(float64(y), float64(x))) > 0.501 {
				t.Errorf("Atan2(%g, %g) = %g, want %g", y, x, got, want)
			}
		}
	}
}

// TestSqrtCorrectlyRounded checks that Sqrt(x) is the float32 nearest the
// exact root: the square of each midpoint next to the result, exact in
// float64, must bracket x.
func TestSqrtCorrectlyRounded(t *testing.T) {
	r := NewRNG(3)
	for range mathCount() {
		x := mathInput(&r)
		got := Sqrt(x)
		switch {
		case x != x || x < 0:
			if math.Float32bits(got) != canonicalNaN {
				t.Fatalf("Sqrt(%g) = %g (%#x), want the canonical NaN", x, got, math.Float32bits(got))
			}
			continue
		case x == 0 || math.IsInf(float64(x), 1):
			if !same(got, x) {
				t.Fatalf("Sqrt(%g) = %g", x, got)
			}
			continue
		}
		g := float64(got)
		down := float64(math.Nextafter32(got, 0))
		up := float64(math.Nextafter32(got, float32(math.Inf(1))))
		lo, hi := (g+down)/2, (g+up)/2 // exact: 25 bits
		if !(lo*lo < float64(x) && float64(x) < hi*hi) {
			t.Fatalf("Sqrt(%g) = %g is not the nearest float32 to the root", x, got)
		}
	}
}

// TestHypotAccuracy checks Hypot against math.Hypot in float64 at a
// million pairs, and its special cases bit for bit against
// float32(math.Hypot).
func TestHypotAccuracy(t *testing.T) {
	r := NewRNG(4)
	var worst float64
	var atX, atY float32
	differ := 0
	n := mathCount()
	for i := range n {
		x, y := mathPair(&r, i)
		got, want := Hypot(x, y), math.Hypot(float64(x), float64(y))
		if e := checkAgainst(t, "Hypot", x, got, want); e > worst {
			worst, atX, atY = e, x, y
		}
		if !same(got, float32(want)) {
			differ++
		}
		if !same(Hypot(y, x), got) || !same(Hypot(-x, y), got) {
			t.Fatalf("Hypot(%g, %g) = %g but Hypot(%g, %g) = %g and Hypot(%g, %g) = %g",
				x, y, got, y, x, Hypot(y, x), -x, y, Hypot(-x, y))
		}
	}
	t.Logf("%d pairs: Hypot within %.6f ulps (at %g, %g); %d differ from float32(math.Hypot)", n, worst, atX, atY, differ)
	if worst > 0.501 {
		t.Errorf("Hypot(%g, %g) is %.6f ulps off: want at most 0.501", atX, atY, worst)
	}
	for _, x := range specialInputs {
		for _, y := range specialInputs {
			if got, want := Hypot(x, y), float32(math.Hypot(float64(x), float64(y))); !same(got, want) {
				t.Errorf("Hypot(%g, %g) = %g, want %g", x, y, got, want)
			}
		}
	}
}

// TestTwoOverPiBits recomputes the table of 2/π that Sin and Cos reduce
// with, from Machin's formula π = 16·atan(1/5) - 4·atan(1/239) in 600-bit
// integers.
func TestTwoOverPiBits(t *testing.T) {
	const prec = 600
	atanInv := func(x int64) *big.Int { // atan(1/x)·2^prec
		one := new(big.Int).Lsh(big.NewInt(1), prec)
		term := new(big.Int).Quo(one, big.NewInt(x))
		sum := new(big.Int).Set(term)
		for k := int64(1); term.Sign() != 0; k++ {
			term.Quo(term, big.NewInt(x*x))
			d := new(big.Int).Quo(term, big.NewInt(2*k+1))
			if k%2 == 1 {
				sum.Sub(sum, d)
			} else {
				sum.Add(sum, d)
			}
		}
		return sum
	}
	pi := new(big.Int).Mul(atanInv(5), big.NewInt(16))
	pi.Sub(pi, new(big.Int).Mul(atanInv(239), big.NewInt(4)))
	// The first 256 bits after the point of 2/π: floor(2^(256+1+prec)/π·2^prec).
	v := new(big.Int).Quo(new(big.Int).Lsh(big.NewInt(1), 256+1+prec), pi)
	want := fmt.Sprintf("%064x", v)
	got := fmt.Sprintf("%016x%016x%016x%016x", twoOverPi[1], twoOverPi[2], twoOverPi[3], twoOverPi[4])
	if twoOverPi[0] != 0 || got != want {
		t.Fatalf("twoOverPi = %x, want 0 then %s", twoOverPi, want)
	}
}

// goldenMath holds, for each function, the hash of its results' bits over
// the inputs of TestDeterministicMathGoldenHash ("inputs" hashes the
// arguments themselves, "kernels" the float64 values inside Sin, Cos and
// Atan2 before they are rounded to float32). They were computed on amd64 and must come out the
// same under every GOARCH; the test runs under qemu-aarch64 to prove it.
var goldenMath = map[string]uint64{
	"inputs":  0x5be03c52b1477008,
	"Sin":     0x600e901e6536e1e4,
	"Cos":     0x5937ffb3655b83b7,
	"Atan2":   0xd896dd0898eaf736,
	"Sqrt":    0x1b0e80f03ef5541e,
	"Hypot":   0xddbbfa74f5d59cb,
	"kernels": 0xa5d41fb3d5ec42fd,
}

// TestDeterministicMathGoldenHash hashes the exact bits of Sin, Cos,
// Atan2, Sqrt and Hypot at 100,000 pairs of arguments of every kind, and
// of the float64 kernels inside them, and compares them with hashes
// recorded on amd64, so that running this test
// under another GOARCH (make's arm64 run uses qemu-aarch64) proves the
// results bit-identical there. A change of a function that changes its
// bits must update goldenMath on purpose, and the game hashes recorded
// with it.
func TestDeterministicMathGoldenHash(t *testing.T) {
	hs := map[string]*Hasher{}
	h := func(name string) *Hasher {
		if hs[name] == nil {
			nh := NewHasher()
			hs[name] = &nh
		}
		return hs[name]
	}
	r := NewRNG(20240601)
	for range 100_000 {
		x, y := mathInput(&r), mathInput(&r)
		h("inputs").Pair32(x, y)
		h("Sin").Pair32(Sin(x), Sin(y))
		h("Cos").Pair32(Cos(x), Cos(y))
		h("Atan2").Pair32(Atan2(y, x), Atan2(x, y))
		h("Sqrt").Pair32(Sqrt(x), Sqrt(float32(math.Abs(float64(y)))))
		h("Hypot").Pair32(Hypot(x, y), Hypot(x, float32(y*0.5)))
		// The float64 kernels before the rounding to float32, which hides
		// nearly every difference of one float64 ulp (a fused
		// multiply-add makes such differences).
		k := h("kernels")
		for _, v := range []float32{x, y} {
			if q, r, ok := reduce(v); ok {
				k.Word(uint64(q))
				k.F64(r)
				k.F64(sinKernel(r))
				k.F64(cosKernel(r))
			}
		}
		if ax, ay := math.Abs(float64(x)), math.Abs(float64(y)); ax > 0 && ay > 0 && !math.IsInf(ax+ay, 0) {
			k.F64(atanUnit(min(ax, ay) / max(ax, ay)))
		}
	}
	got := map[string]uint64{}
	for name, hh := range hs {
		got[name] = hh.Sum()
	}
	for name, g := range got {
		if g != goldenMath[name] {
			t.Errorf("physics: detmath_test.go: %s hash %#x, golden %#x (inputs %s): this machine computes different bits",
				name, g, goldenMath[name], map[bool]string{true: "the same", false: "differ too"}[got["inputs"] == goldenMath["inputs"]])
		}
	}
	if t.Failed() {
		t.Logf("hashes here: %#v", got)
	}
}

func ExampleAtan2() {
	// Aim from the gun at (100, 200) to a target at (160, 140): y grows
	// down, so the target is up and to the right.
	dx, dy := float32(160-100), float32(140-200)
	angle := Atan2(dy, dx)
	const speed = 300
	vx, vy := float32(speed*Cos(angle)), float32(speed*Sin(angle))
	fmt.Printf("angle %.4f rad, velocity (%.2f, %.2f), distance %.3f\n", angle, vx, vy, Hypot(dx, dy))
	// Output:
	// angle -0.7854 rad, velocity (212.13, -212.13), distance 84.853
}
