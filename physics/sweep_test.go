package physics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// closedTouch reports whether a and b overlap or touch, within eps.
func closedTouch(a, b AABB, eps float64) bool {
	return a.Min.X <= b.Max.X+eps && b.Min.X <= a.Max.X+eps && a.Min.Y <= b.Max.Y+eps && b.Min.Y <= a.Max.Y+eps
}

func TestSweepNoTunnelling(t *testing.T) {
	// Bullets of 1 to 4 px at up to 20,000 px/s (333 px a 60 Hz tick)
	// against ships of 2 to 8 px moving at up to 600 px/s, from every
	// direction. Wherever the two boxes, sampled at 4096 moments of the
	// tick, touch, Sweep reports a hit no later than that moment; wherever
	// Sweep reports a hit, the boxes touch at its moment; and it is
	// symmetric in the two boxes.
	const tick = 1.0 / 60
	rng := rand.New(rand.NewPCG(11, 12))
	vec := func(speed float64) Vec {
		a := rng.Float64() * 2 * math.Pi
		s := rng.Float64() * speed * tick
		return Vec{s * math.Cos(a), s * math.Sin(a)}
	}
	hits := 0
	for i := range 20_000 {
		ship := Box(Vec{rng.Float64()*40 - 20, rng.Float64()*40 - 20}, Vec{2 + rng.Float64()*6, 2 + rng.Float64()*6})
		dShip := vec(600)
		// Aim most bullets at the ship so that many hit.
		dBullet := vec(20_000)
		c := ship.Center().Add(dShip.Mul(rng.Float64()))
		start := c.Sub(dBullet.Mul(rng.Float64())).Add(Vec{rng.NormFloat64() * 3, rng.NormFloat64() * 3})
		bullet := Box(start, Vec{1 + rng.Float64()*3, 1 + rng.Float64()*3})
		th, hit := Sweep(bullet, dBullet, ship, dShip)
		if th2, hit2 := Sweep(ship, dShip, bullet, dBullet); hit2 != hit || (hit && math.Abs(th2-th) > 1e-12) {
			t.Fatalf("case %d: not symmetric: %v at %v, swapped %v at %v", i, hit, th, hit2, th2)
		}
		at := func(s float64) (AABB, AABB) { return bullet.Add(dBullet.Mul(s)), ship.Add(dShip.Mul(s)) }
		if hit {
			hits++
			if th < 0 || th > 1 {
				t.Fatalf("case %d: hit at t = %v, outside the tick", i, th)
			}
			if b, s := at(th); !closedTouch(b, s, 1e-9) {
				t.Fatalf("case %d: hit at t = %v but the boxes %v and %v do not touch there", i, th, b, s)
			}
		}
		for k := 0; k <= 4096; k++ {
			s := float64(k) / 4096
			if b, sh := at(s); closedTouch(b, sh, 0) {
				if !hit || th > s+1e-12 {
					t.Fatalf("case %d: the boxes touch at t = %v; Sweep says %v at %v", i, s, hit, th)
				}
				break
			}
		}
	}
	if hits < 2000 {
		t.Fatalf("only %d of 20000 cases hit: the test aims badly", hits)
	}
}

func TestSweepThroughThinShip(t *testing.T) {
	// A 1 px bullet at 20,000 px/s crosses a 2 px ship between two ticks:
	// at neither end does it overlap the ship, and it still hits.
	ship := Box(Vec{100, 0}, Vec{2, 2})
	bullet := Box(Vec{0, 0.5}, Vec{1, 1})
	d := Vec{20_000.0 / 60, 0}
	if bullet.Overlaps(ship) || bullet.Add(d).Overlaps(ship) {
		t.Fatal("the test's bullet overlaps at an end of the tick")
	}
	th, hit := Sweep(bullet, d, ship, Vec{})
	if want := 99 / d.X; !hit || math.Abs(th-want) > 1e-12 {
		t.Fatalf("Sweep = %v, %v; want a hit at %v", th, hit, want)
	}
	// Just past the ship's edge it misses.
	if _, hit := Sweep(Box(Vec{0, 2.001}, Vec{1, 1}), d, ship, Vec{}); hit {
		t.Fatal("a bullet passing below the ship hit it")
	}
	for _, bad := range []Vec{{math.NaN(), 0}, {math.Inf(1), 0}} {
		if _, hit := Sweep(bullet, bad, ship, Vec{}); hit {
			t.Fatalf("a %v move hit", bad)
		}
	}
}

// A bullet 2 px wide at 20,000 px/s and a ship 4 px wide at 120 px/s, one
// 60 Hz tick: at neither end of the tick do they overlap, and the sweep
// finds when they meet.
func ExampleSweep() {
	bullet := Box(Vec{X: 0, Y: 10}, Vec{X: 2, Y: 2})
	ship := Box(Vec{X: 150, Y: 9}, Vec{X: 4, Y: 4})
	dBullet := Vec{X: 20_000.0 / 60}
	dShip := Vec{X: -120.0 / 60}
	fmt.Println("overlap at the start:", bullet.Overlaps(ship), "at the end:", bullet.Add(dBullet).Overlaps(ship.Add(dShip)))
	t, hit := Sweep(bullet, dBullet, ship, dShip)
	fmt.Printf("hit %v at %.4f of the tick, x = %.2f\n", hit, t, bullet.Min.X+t*dBullet.X)
	// Output:
	// overlap at the start: false at the end: false
	// hit true at 0.4414 of the tick, x = 147.12
}
