package scene

import (
	"github.com/tandem-engine/tandem/entity"
	"github.com/tandem-engine/tandem/physics"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

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

// Shmup is the shoot-'em-up: rows of small ships cross the arena while
// turrets along the bottom fire bullets at 2,000 to 20,000 px/s, and the
// player's gun joins in: it follows the pointer, the left stick or Left
// and Right, and Jump (space, the left mouse button, pad A) fires. Every bullet is swept
// against every ship over the tick with [physics.Sweep], both moving, so
// no bullet passes through a ship between two ticks at any speed; a hit
// removes the bullet and puts a new ship at a random place in the row (a
// teleport: its generation changes). Hits are counted in the sim, so
// the count depends on the input and the tick count alone: the same at any
// render rate, in every loop, on every machine.
//
// Threads: like [Game], whose shooter it is.
type Shmup struct {
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

	gunX   float64
	gun    entity.ID
	frames Frames
	// ents keeps what is drawn in stable snapshot slots, with the
	// generations that tell the renderer what not to blend.
	ents  *entity.Table
	moved []physics.Vec // scratch: each ship's move this tick
	hit   []bool        // scratch: ships hit this tick
}

type ship struct {
	pos physics.Vec // the hitbox's top-left corner
	vx  float64
	id  entity.ID
}

type bullet struct {
	x, y, vx, vy float64 // the box's top-left corner, px and px/s
	id           entity.ID
}

// newShooter builds the shoot-'em-up in a w x h arena with room for
// bullets bullets in flight.
func newShooter(w, h float64, hz int, seed uint64, bullets int, frames Frames) *Shmup {
	s := &Shmup{w: w, h: h, dt: 1 / float64(hz), rng: physics.NewRNG(seed), frames: frames, gunX: w / 2}
	s.maxB = max(bullets, 1)
	s.ents = entity.NewTable(shipRows*shipsPerRow + s.maxB + 1)
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
		sh := ship{pos: physics.Vec{X: x, Y: shipRowTop + float64(row*shipRowStride)}, vx: v}
		sh.id = s.ents.Spawn(entity.Sprite{Frame: frames.Ship, Tint: snapshot.White})
		s.ships[i] = sh
	}
	s.gun = s.ents.Spawn(entity.Sprite{Frame: frames.Gun, Tint: snapshot.White})
	s.bullets = make([]bullet, 0, s.maxB)
	s.perTick = max(s.maxB/20, 1)
	s.moved, s.hit = make([]physics.Vec, len(s.ships)), make([]bool, len(s.ships))
	s.place()
	return s
}

// Hits returns the number of ships hit so far.
func (s *Shmup) Hits() uint64 { return s.hits }

// Fired returns the number of bullets fired so far.
func (s *Shmup) Fired() uint64 { return s.fired }

// fire launches a bullet whose box's top-left corner is at (x, y), moving
// at (vx, vy) px/s, unless maxB are in flight.
func (s *Shmup) fire(x, y, vx, vy float64) {
	if len(s.bullets) == s.maxB {
		s.full++
		return
	}
	id := s.ents.Spawn(entity.Sprite{X: float32(x + BulletSize/2), Y: float32(y + BulletSize/2), Frame: s.frames.Bullet, Tint: snapshot.White})
	s.bullets = append(s.bullets, bullet{x: x, y: y, vx: vx, vy: vy, id: id})
	s.fired++
}

// kill removes bullet k: the last takes its place in the list (its
// entity keeps its slot).
func (s *Shmup) kill(k int) {
	s.ents.Despawn(s.bullets[k].id)
	last := len(s.bullets) - 1
	s.bullets[k] = s.bullets[last]
	s.bullets = s.bullets[:last]
}

// shoot fires the turrets' shots for this tick, and the gun's while Jump
// is held: up, within about 27 degrees either side, at a random speed.
func (s *Shmup) shoot(in simthread.TickInput) {
	const gunV = 6_000
	fire := func(x float64) {
		v := minBulletV + float64(s.rng.Float64()*(maxBulletV-minBulletV))
		vx := float64((s.rng.Float64() - 0.5) * v)
		s.fire(x, s.h-20, vx, -v)
	}
	for range s.perTick {
		fire(float64(s.rng.Float64()*float64(turrets)) * s.w / turrets)
	}
	if in.Down&ButtonJump != 0 {
		s.fire(s.gunX, s.h-30, 0, -gunV)
	}
}

// Step implements the shooter's tick: input, shots, then every bullet
// swept against every ship over the tick, then the moves.
func (s *Shmup) Step(in simthread.TickInput) {
	s.moveGun(in)
	s.shoot(in)
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
			s.ents.Teleport(sh.id, float32(sh.pos.X+ShipHitbox/2), float32(sh.pos.Y+ShipHitbox/2))
		}
	}
	s.place()
	s.tick++
}

// place moves every entity to where the state says.
func (s *Shmup) place() {
	const hb, bb = ShipHitbox / 2, BulletSize / 2
	for i := range s.ships {
		sh := &s.ships[i]
		s.ents.Move(sh.id, float32(sh.pos.X+hb), float32(sh.pos.Y+hb))
	}
	for k := range s.bullets {
		b := &s.bullets[k]
		s.ents.Move(b.id, float32(b.x+bb), float32(b.y+bb))
	}
	s.ents.Move(s.gun, float32(s.gunX+bb), float32(s.h-24))
}

// moveGun moves the gun: with Left and Right, with the left stick (as
// far as it is pushed), and toward the pointer (the arena is the
// framebuffer, so the pointer's x is the arena's), at most gunSpeed.
func (s *Shmup) moveGun(in simthread.TickInput) {
	const gunSpeed = 900
	step := float64(gunSpeed * s.dt)
	var v float64
	if in.Down&ButtonLeft != 0 {
		v--
	}
	if in.Down&ButtonRight != 0 {
		v++
	}
	v += float64(in.Axes[0]) // the left stick's x
	x := s.gunX + float64(min(max(v, -1), 1)*step)
	if in.HasPointer && v == 0 {
		to := float64(in.PointerX) - BulletSize/2
		x = min(max(to, s.gunX-step), s.gunX+step)
	}
	s.gunX = min(max(x, 0), s.w-BulletSize)
}

// Publish writes every entity's slot: ships, bullets and the gun, in the
// order they were first spawned; slots of dead bullets are hidden.
func (s *Shmup) Publish(dst *snapshot.Snapshot) {
	dst.Camera = snapshot.Camera{X: float32(s.w / 2), Y: float32(s.h / 2), Zoom: 1}
	dst.Sprites.Resize(s.ents.Slots())
	s.ents.Publish(&dst.Sprites, 0, 1)
}

// Hash returns a hash of the exact bits of the whole state.
func (s *Shmup) Hash() uint64 {
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
	s.ents.Hash(h.Word)
	return h.Sum()
}
