package scene

import "github.com/tandem-engine/tandem/physics"

// The shoot-'em-up's sizes and speeds, in px and px/s.
const (
	shipRows    = 4
	shipsPerRow = 15
	// ShipHitbox is the side of a ship's square hitbox: a few pixels,
	// far thinner than a fast bullet's step in one tick (333 px at
	// 20,000 px/s and 60 Hz).
	ShipHitbox = 4
	// BulletSize is the side of a bullet's square box.
	BulletSize    = 2
	minBulletV    = 2_000
	maxBulletV    = 20_000
	minShipV      = 60
	maxShipV      = 240
	shipRowTop    = 60
	shipRowStride = 50
	turrets       = 16
)

// shooter is the shoot-'em-up's simulation (see [Shooter]): rows of
// ships, the turrets' and the gun's bullets, every bullet swept against
// every ship over the tick, and the entities in a [slotTable]. It knows
// nothing of the engine: a tick's input comes in as a [shooterInput].
type shooter struct {
	w, h  float64
	dt    float64
	tick  uint64
	rng   physics.RNG
	hits  uint64
	fired uint64
	full  uint64 // shots not fired because every bullet slot was in use

	ships   []ship
	bullets []bullet // in flight, in no particular order
	maxB    int      // bullets in flight at most
	perTick int      // turret shots per tick

	gunX  float64
	gun   uint32 // the gun's slot
	slots slotTable
	moved []physics.Vec // scratch: each ship's move this tick
	hit   []bool        // scratch: ships hit this tick
}

type ship struct {
	pos  physics.Vec // the hitbox's top-left corner
	vx   float64
	slot uint32
}

type bullet struct {
	x, y, vx, vy float64 // the box's top-left corner, px and px/s
	slot         uint32
}

// shooterInput is what the shooter reads of a tick's input.
type shooterInput struct {
	left, right bool    // move the gun
	fire        bool    // the gun fires while this is held
	stick       float32 // the left stick's x, -1 to 1
	hasPointer  bool
	pointerX    float32 // the pointer's x in the arena, if hasPointer
}

// newShooter builds the shoot-'em-up in a w x h arena stepped at hz, with
// room for bullets bullets in flight.
func newShooter(w, h float64, hz int, seed uint64, bullets int) *shooter {
	s := &shooter{w: w, h: h, dt: 1 / float64(hz), rng: physics.NewRNG(seed), gunX: w / 2}
	s.maxB = max(bullets, 1)
	s.slots = newSlotTable(shipRows*shipsPerRow + s.maxB + 1)
	s.ships = make([]ship, shipRows*shipsPerRow)
	for i := range s.ships {
		row := i / shipsPerRow
		x := float64(i%shipsPerRow) * (w - ShipHitbox) / shipsPerRow
		// float64(...) keeps a*b+c from fusing into an FMA on arm64:
		// the bits must be the same on every machine.
		v := minShipV + float64(s.rng.Float64()*(maxShipV-minShipV))
		if row%2 == 1 {
			v = -v
		}
		s.ships[i] = ship{pos: physics.Vec{X: x, Y: shipRowTop + float64(row*shipRowStride)}, vx: v,
			slot: s.slots.spawn(roleShip, 0, 0)}
	}
	s.gun = s.slots.spawn(roleGun, 0, 0)
	s.bullets = make([]bullet, 0, s.maxB)
	s.perTick = max(s.maxB/20, 1)
	s.moved, s.hit = make([]physics.Vec, len(s.ships)), make([]bool, len(s.ships))
	s.place()
	return s
}

// fire launches a bullet whose box's top-left corner is at (x, y), moving
// at (vx, vy) px/s, unless maxB are in flight.
func (s *shooter) fire(x, y, vx, vy float64) {
	if len(s.bullets) == s.maxB {
		s.full++
		return
	}
	k := s.slots.spawn(roleBullet, float32(x+BulletSize/2), float32(y+BulletSize/2))
	s.bullets = append(s.bullets, bullet{x: x, y: y, vx: vx, vy: vy, slot: k})
	s.fired++
}

// kill removes bullet k: the last takes its place in the list.
func (s *shooter) kill(k int) {
	s.slots.despawn(s.bullets[k].slot)
	last := len(s.bullets) - 1
	s.bullets[k] = s.bullets[last]
	s.bullets = s.bullets[:last]
}

// shoot fires the turrets' shots for this tick, up within about 27
// degrees either side at a random speed, and the gun's while fire is held.
func (s *shooter) shoot(fire bool) {
	const gunV = 6_000
	for range s.perTick {
		x := float64(s.rng.Float64()*float64(turrets)) * s.w / turrets
		v := minBulletV + float64(s.rng.Float64()*(maxBulletV-minBulletV))
		vx := float64((s.rng.Float64() - 0.5) * v)
		s.fire(x, s.h-20, vx, -v)
	}
	if fire {
		s.fire(s.gunX, s.h-30, 0, -gunV)
	}
}

// step is one tick: the gun moves, the shots are fired, every bullet is
// swept against every ship over the tick, then everything moves.
func (s *shooter) step(in shooterInput) {
	s.moveGun(in)
	s.shoot(in.fire)
	// Where each ship goes this tick: straight, bouncing off the arena's
	// sides at the end of the tick (so its path is the straight segment
	// from here to there).
	for i := range s.ships {
		sh := &s.ships[i]
		x := sh.pos.X + float64(sh.vx*s.dt)
		if x < 0 || x > s.w-ShipHitbox {
			x = min(max(x, 0), s.w-ShipHitbox)
			sh.vx = -sh.vx
		}
		s.moved[i] = physics.Vec{X: x - sh.pos.X}
		s.hit[i] = false
	}
	for k := 0; k < len(s.bullets); {
		b := &s.bullets[k]
		d := physics.Vec{X: float64(b.vx * s.dt), Y: float64(b.vy * s.dt)}
		box := physics.Box(physics.Vec{X: b.x, Y: b.y}, physics.Vec{X: BulletSize, Y: BulletSize})
		first, best := -1, 2.0
		for i := range s.ships {
			if s.hit[i] {
				continue
			}
			sh := &s.ships[i]
			t, ok := physics.Sweep(box, d, physics.Box(sh.pos, physics.Vec{X: ShipHitbox, Y: ShipHitbox}), s.moved[i])
			if ok && t < best {
				first, best = i, t
			}
		}
		if first >= 0 {
			s.hit[first] = true
			s.hits++
			s.kill(k) // the last bullet moved into k: look at k again
			continue
		}
		b.x += d.X
		b.y += d.Y
		if b.y < -BulletSize || b.x < -BulletSize || b.x > s.w {
			s.kill(k)
			continue
		}
		k++
	}
	for i := range s.ships {
		sh := &s.ships[i]
		sh.pos.X += s.moved[i].X
		if s.hit[i] {
			// A new ship somewhere along the row: a teleport.
			sh.pos.X = float64(s.rng.Float64() * (s.w - ShipHitbox))
			s.slots.teleport(sh.slot, float32(sh.pos.X+ShipHitbox/2), float32(sh.pos.Y+ShipHitbox/2))
		}
	}
	s.place()
	s.tick++
}

// place moves every entity to where the state says.
func (s *shooter) place() {
	const hb, bb = ShipHitbox / 2, BulletSize / 2
	for i := range s.ships {
		sh := &s.ships[i]
		s.slots.move(sh.slot, float32(sh.pos.X+hb), float32(sh.pos.Y+hb))
	}
	for k := range s.bullets {
		b := &s.bullets[k]
		s.slots.move(b.slot, float32(b.x+bb), float32(b.y+bb))
	}
	s.slots.move(s.gun, float32(s.gunX+bb), float32(s.h-24))
}

// moveGun moves the gun: with left and right, with the left stick (as
// far as it is pushed), and toward the pointer (the arena is the
// framebuffer, so the pointer's x is the arena's), at most gunSpeed.
func (s *shooter) moveGun(in shooterInput) {
	const gunSpeed = 900
	step := float64(gunSpeed * s.dt)
	var v float64
	if in.left {
		v--
	}
	if in.right {
		v++
	}
	v += float64(in.stick)
	x := s.gunX + float64(min(max(v, -1), 1)*step)
	if in.hasPointer && v == 0 {
		to := float64(in.pointerX) - BulletSize/2
		x = min(max(to, s.gunX-step), s.gunX+step)
	}
	s.gunX = min(max(x, 0), s.w-BulletSize)
}

// hash returns a hash of the exact bits of the whole state.
func (s *shooter) hash() uint64 {
	h := physics.NewHasher()
	h.Word(s.tick)
	h.Word(s.rng.State())
	h.Word(s.hits)
	h.Word(s.fired)
	h.Word(s.full)
	h.F64(s.gunX)
	for _, sh := range s.ships {
		h.F64(sh.pos.X)
		h.F64(sh.pos.Y)
		h.F64(sh.vx)
	}
	h.Word(uint64(len(s.bullets)))
	for _, b := range s.bullets {
		h.F64(b.x)
		h.F64(b.y)
		h.F64(b.vx)
		h.F64(b.vy)
	}
	s.slots.hash(h.Word)
	return h.Sum()
}
