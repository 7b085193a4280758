package scene

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tandem-engine/tandem/physics"
	"github.com/tandem-engine/tandem/simthread"
)

func TestShmupNoTunnelling(t *testing.T) {
	// One still ship, no turrets, bullets fired one at a time at up to
	// 20,000 px/s from random places and directions: a bullet hits exactly
	// when its straight path over the tick crosses the ship's 4 px
	// hitbox, which a check of the two ends alone would mostly miss.
	const hz = 60
	rng := rand.New(rand.NewPCG(5, 6))
	hits, crossings, endsOverlap := 0, 0, 0
	for range 5000 {
		s := newShooter(1280, 720, hz, 1, 4, Frames{})
		s.perTick = 0
		s.ships = s.ships[:1]
		s.moved, s.hit = s.moved[:1], s.hit[:1]
		s.ships[0] = ship{pos: physics.Vec{X: 640, Y: 300}}
		v := 2_000 + rng.Float64()*18_000
		a := rng.Float64() * 2 * math.Pi
		vx, vy := v*math.Cos(a), v*math.Sin(a)
		// Start somewhere within a tick's flight of the ship.
		x := 641 - vx/hz*rng.Float64() + rng.NormFloat64()*2
		y := 301 - vy/hz*rng.Float64() + rng.NormFloat64()*2
		start := physics.Box(physics.Vec{X: x, Y: y}, physics.Vec{X: BulletSize, Y: BulletSize})
		hitbox := physics.Box(s.ships[0].pos, physics.Vec{X: ShipHitbox, Y: ShipHitbox})
		if start.Overlaps(hitbox) {
			continue
		}
		s.fire(x, y, vx, vy)
		d := physics.Vec{X: float64(vx / hz), Y: float64(vy / hz)}
		// Whether the path crosses: the boxes touch at one of 10,000
		// moments of the tick.
		crosses := false
		for k := 0; k <= 10_000 && !crosses; k++ {
			crosses = closedOverlap(start.Add(d.Mul(float64(k)/10_000)), hitbox)
		}
		if start.Add(d).Overlaps(hitbox) {
			endsOverlap++
		}
		s.Step(simthread.TickInput{})
		got := s.Hits() == 1
		if crosses && !got {
			t.Fatalf("a bullet from (%.1f, %.1f) at (%.0f, %.0f) px/s crossed the ship and did not hit", x, y, vx, vy)
		}
		if crosses {
			crossings++
		}
		if got {
			hits++
		}
	}
	if crossings < 500 {
		t.Fatalf("only %d of the bullets crossed the ship: the test aims badly", crossings)
	}
	if endsOverlap*4 > crossings {
		t.Fatalf("%d of %d crossings end inside the ship: the test does not exercise tunnelling", endsOverlap, crossings)
	}
	// A hit the sampling missed can only be a graze between two samples.
	if hits > crossings+crossings/100 {
		t.Fatalf("%d hits for %d crossings", hits, crossings)
	}
}

func closedOverlap(a, b physics.AABB) bool {
	return a.Min.X <= b.Max.X && b.Min.X <= a.Max.X && a.Min.Y <= b.Max.Y && b.Min.Y <= a.Max.Y
}
