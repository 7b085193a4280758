package scene

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tandem-engine/tandem/entity"
	"github.com/tandem-engine/tandem/physics"
)

func TestShooterNoTunnelling(t *testing.T) {
	// One still ship, no turrets, bullets fired one at a time at up to
	// 20,000 px/s from random places and directions: a bullet hits exactly
	// when its straight path over the tick crosses the ship's 4 px
	// hitbox, which a check of the two ends alone would mostly miss.
	const hz = 60
	rng := rand.New(rand.NewPCG(5, 6))
	hits, crossings, endsOverlap := 0, 0, 0
	for range 5000 {
		s := newShooter(1280, 720, hz, 1, 4)
		s.perTick = 0
		s.ships = s.ships[:1]
		s.moved, s.hit = s.moved[:1], s.hit[:1]
		s.ships[0].pos, s.ships[0].vx = physics.Vec{X: 640, Y: 300}, 0
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
		s.step(shooterInput{})
		got := s.hits == 1
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

// TestSlotTableHashesLikeEntityTable: random spawns, moves, teleports and
// despawns, past the first capacity so that both grow, give the slot
// table the same slots and the same hash words as an entity.Table, after
// every operation: recordings of the shooter hashed the entity table.
func TestSlotTableHashesLikeEntityTable(t *testing.T) {
	const white = 0xFFFFFFFF
	rng := rand.New(rand.NewPCG(7, 8))
	for _, capacity := range []int{0, 5, 61} {
		e := entity.NewTable(capacity)
		s := newSlotTable(capacity)
		var ids []entity.ID
		var slots []uint32
		var ew, sw []uint64
		for op := range 3000 {
			x, y := float32(rng.NormFloat64()*500), float32(rng.NormFloat64()*500)
			switch n := len(ids); {
			case n == 0 || rng.IntN(3) == 0 && n < 100:
				ids = append(ids, e.Spawn(entity.Sprite{X: x, Y: y, Frame: 9, Tint: white}))
				slots = append(slots, s.spawn(roleBullet, x, y))
			case rng.IntN(3) == 0:
				k := rng.IntN(n)
				e.Despawn(ids[k])
				s.despawn(slots[k])
				ids, slots = slices.Delete(ids, k, k+1), slices.Delete(slots, k, k+1)
			case rng.IntN(4) == 0:
				k := rng.IntN(n)
				e.Teleport(ids[k], x, y)
				s.teleport(slots[k], x, y)
			default:
				k := rng.IntN(n)
				e.Move(ids[k], x, y)
				s.move(slots[k], x, y)
			}
			ew, sw = ew[:0], sw[:0]
			e.Hash(func(w uint64) { ew = append(ew, w) })
			s.hash(func(w uint64) { sw = append(sw, w) })
			if !slices.Equal(ew, sw) {
				t.Fatalf("capacity %d, operation %d: the slot table hashes %d words, the entity table %d, or different ones", capacity, op, len(sw), len(ew))
			}
		}
		if e.Slots() <= capacity {
			t.Errorf("capacity %d: the tables never grew (%d slots)", capacity, e.Slots())
		}
	}
}
