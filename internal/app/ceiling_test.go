//go:build cgo

package app

import (
	"math"
	"slices"
	"testing"
)

// TestCeilingMotion steps the ceiling's quads as its frames do: upright
// quads keep two numbers each; turning ones three, their angles turning
// each at its own rate and staying within [-π, π], as the bunnymark's do.
func TestCeilingMotion(t *testing.T) {
	const n = 200
	up, m := newCeilingMotion(n, 1000, 600, false), newCeilingMotion(n, 1000, 600, true)
	if len(up.xy) != 2*n || up.a != nil || len(m.xy) != 2*n || len(m.a) != n || len(m.spin) != n {
		t.Fatalf("%d quads: upright %d corners' numbers and %d angles; turning %d and %d", n, len(up.xy), len(up.a), len(m.xy), len(m.a))
	}
	if !slices.Equal(up.xy, m.xy) {
		t.Error("the turning quads start elsewhere than the upright ones: the spin's draws moved the corners'")
	}
	first := slices.Clone(m.a)
	for range 600 { // ten seconds of 60 FPS: every quad turns past ±π
		m.step(1.0 / 60)
	}
	moved := 0
	for i := range n {
		x, y, a := m.xy[2*i], m.xy[2*i+1], m.a[i]
		if a < -math.Pi || a > math.Pi {
			t.Errorf("quad %d: angle %v, outside [-π, π]", i, a)
		}
		if x < 0 || x > 1000 || y < 0 || y > 600 {
			t.Errorf("quad %d: corner (%v, %v), outside the window", i, x, y)
		}
		if spin := m.spin[i]; spin < -ceilingSpin || spin >= ceilingSpin {
			t.Errorf("quad %d: spin %v rad/s, outside [-%d, %d)", i, spin, ceilingSpin, ceilingSpin)
		}
		if a != first[i] {
			moved++
		}
	}
	if moved < n*9/10 {
		t.Errorf("%d of %d quads turned in ten seconds", moved, n)
	}
}

func TestTurn(t *testing.T) {
	for _, c := range []struct{ a, d, want float32 }{
		{0, 0.5, 0.5},
		{3, 0.5, 3.5 - 2*math.Pi},
		{-3, -0.5, -3.5 + 2*math.Pi},
		{math.Pi, 0, math.Pi},
	} {
		if got := turn(c.a, c.d); math.Abs(float64(got-c.want)) > 1e-6 {
			t.Errorf("turn(%v, %v) = %v, want %v", c.a, c.d, got, c.want)
		}
	}
}
