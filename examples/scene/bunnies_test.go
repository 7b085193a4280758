package scene

import (
	"github.com/tandem-engine/tandem/physics"
	"math"
	"testing"
)

func TestBunniesStayInBounds(t *testing.T) {
	bounds := physics.AABB{Min: physics.Vec{X: 0, Y: 0}, Max: physics.Vec{X: 3200 - BunnySize, Y: 960 - BunnySize}}
	b := NewBunnies(5000, 11, bounds)
	if b.Len() != 5000 {
		t.Fatalf("Len = %d", b.Len())
	}
	bounced := 0
	for range 600 {
		before := make([]float32, b.Len())
		copy(before, b.VY)
		b.Step(float32(1.0/60), 1800, bounds)
		for i := range b.Len() {
			x, y := float64(b.X[i]), float64(b.Y[i])
			if !(x >= bounds.Min.X && x <= bounds.Max.X && y >= bounds.Min.Y && y <= bounds.Max.Y) {
				t.Fatalf("bunny %d at (%v, %v) left %v", i, x, y, bounds)
			}
			if a := b.Angle[i]; !(a >= -math.Pi-0.1 && a <= math.Pi+0.1) {
				t.Fatalf("bunny %d angle %v", i, a)
			}
			if y == bounds.Max.Y && b.VY[i] < 0 {
				bounced++
			}
		}
	}
	if bounced == 0 {
		t.Error("no bunny ever bounced off the floor")
	}
}

func TestBunniesDeterministic(t *testing.T) {
	bounds := physics.AABB{Max: physics.Vec{X: 1000, Y: 700}}
	a := NewBunnies(1000, 5, bounds)
	b := NewBunnies(1000, 5, bounds)
	c := NewBunnies(1000, 6, bounds)
	for range 300 {
		a.Step(1.0/60, 1800, bounds)
		b.Step(1.0/60, 1800, bounds)
		c.Step(1.0/60, 1800, bounds)
	}
	same := func(p, q *Bunnies) bool {
		for i := range p.Len() {
			if math.Float32bits(p.X[i]) != math.Float32bits(q.X[i]) ||
				math.Float32bits(p.Y[i]) != math.Float32bits(q.Y[i]) ||
				math.Float32bits(p.VY[i]) != math.Float32bits(q.VY[i]) {
				return false
			}
		}
		return p.RNGState() == q.RNGState()
	}
	if !same(a, b) {
		t.Error("same seed, different bunnies")
	}
	if same(a, c) {
		t.Error("different seeds, same bunnies")
	}
}

func TestBunniesStepAllocs(t *testing.T) {
	bounds := physics.AABB{Max: physics.Vec{X: 1000, Y: 700}}
	b := NewBunnies(10000, 5, bounds)
	if n := testing.AllocsPerRun(100, func() { b.Step(1.0/60, 1800, bounds) }); n != 0 {
		t.Errorf("Bunnies.Step allocates %v times, want 0", n)
	}
}

func BenchmarkBunniesStep100k(b *testing.B) {
	const n = 100000
	bounds := physics.AABB{Max: physics.Vec{X: 3200 - BunnySize, Y: 960 - BunnySize}}
	bs := NewBunnies(n, 1, bounds)
	b.ReportAllocs()
	for b.Loop() {
		bs.Step(1.0/60, 1800, bounds)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/body")
}
