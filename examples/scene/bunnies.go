package scene

import "github.com/tandem-engine/tandem/physics"

// BunnySize is the edge of the square a bunny is drawn in, px; Bunnies
// positions are its top-left corner. World keeps the whole square inside
// the level.
const BunnySize = 16

// Bunny spawn and bounce parameters, in the units of the classic
// bunnymark scaled to pixels per second at 60 Hz (its 10 px/frame spread is
// 600 px/s; its kick of up to 6 px/frame is 360 px/s).
const (
	bunnyMaxVX    = 600  // spawn: vx in [0, bunnyMaxVX) to the right or left
	bunnyMaxVY    = 300  // spawn: vy in [-bunnyMaxVY, bunnyMaxVY)
	bunnyMaxSpin  = 3.0  // spawn: spin in [-bunnyMaxSpin, bunnyMaxSpin) rad/s
	bunnyKick     = 360  // floor bounce: extra upward speed in [0, bunnyKick), half of the time
	bunnyBounce   = 0.85 // floor bounce keeps this fraction of the speed
	bunnyPi       = 3.14159265358979323846
	bunnyTwoPi    = float32(2 * bunnyPi)
	bunnyPi32     = float32(bunnyPi)
	bunnyHalfProb = 1 << 63 // a random uint64 >= this is a coin flip
)

// Bunnies is the load scene: many bodies that fall, bounce off the bounds
// and spin, stored as structure-of-arrays so a tick is one tight loop.
// Like the classic bunnymark they ignore tiles and each other.
//
// The slices all have Len() elements. Entry i is bunny i: X, Y is the
// top-left of its BunnySize box in px, VX, VY its velocity in px/s, Angle
// its rotation in radians in [-π, π] and Spin its angular speed in rad/s.
// Adapters may read the slices; only Step changes them.
type Bunnies struct {
	X, Y, VX, VY, Angle, Spin []float32
	rng                       physics.RNG
}

// NewBunnies returns n bunnies spread over bounds (the box their top-left
// corners stay in) with velocities and spins drawn from an RNG seeded with
// seed.
func NewBunnies(n int, seed uint64, bounds physics.AABB) *Bunnies {
	r := physics.NewRNG(seed)
	b := &Bunnies{
		X: make([]float32, n), Y: make([]float32, n),
		VX: make([]float32, n), VY: make([]float32, n),
		Angle: make([]float32, n), Spin: make([]float32, n),
	}
	w := float32(bounds.Max.X - bounds.Min.X)
	h := float32(bounds.Max.Y - bounds.Min.Y)
	for i := range n {
		b.X[i] = float32(bounds.Min.X) + float32(r.Float32()*w)
		b.Y[i] = float32(bounds.Min.Y) + float32(float32(r.Float32()*h)*0.5) // upper half, so they fall first
		vx := float32(r.Float32() * bunnyMaxVX)
		if r.Uint64() >= bunnyHalfProb {
			vx = -vx
		}
		b.VX[i] = vx
		b.VY[i] = float32(float32(r.Float32()*2)*bunnyMaxVY) - bunnyMaxVY
		b.Angle[i] = float32(r.Float32()*bunnyTwoPi) - bunnyPi32
		b.Spin[i] = float32(float32(r.Float32()*2)*bunnyMaxSpin) - bunnyMaxSpin
	}
	b.rng = physics.NewRNG(r.Uint64())
	return b
}

// Len returns the number of bunnies.
func (b *Bunnies) Len() int { return len(b.X) }

// RNGState returns the state of the bunnies' own RNG (used for bounce
// kicks), part of the hashed state.
func (b *Bunnies) RNGState() uint64 { return b.rng.State() }

// Step advances every bunny by dt seconds: semi-implicit Euler under
// gravity (px/s², +y), then bounds: the left and right sides reflect vx,
// the floor reflects vy keeping bunnyBounce of it and, on a coin flip, adds
// a random upward kick; the ceiling stops upward motion. Bunnies are
// points here: bounds is the box their top-left corners stay in. Step
// allocates nothing.
func (b *Bunnies) Step(dt, gravity float32, bounds physics.AABB) {
	minX, minY := float32(bounds.Min.X), float32(bounds.Min.Y)
	maxX, maxY := float32(bounds.Max.X), float32(bounds.Max.Y)
	n := len(b.X)
	xs, ys := b.X[:n], b.Y[:n]
	vxs, vys := b.VX[:n], b.VY[:n]
	as, ss := b.Angle[:n], b.Spin[:n]
	gdt := float32(gravity * dt)
	rng := b.rng // a local, so it lives in a register
	for i := range xs {
		vx := vxs[i]
		vy := vys[i] + gdt
		x := xs[i] + float32(vx*dt)
		y := ys[i] + float32(vy*dt)
		if x > maxX {
			x = maxX
			vx = -abs32(vx)
		} else if x < minX {
			x = minX
			vx = abs32(vx)
		}
		if y > maxY {
			y = maxY
			vy = float32(abs32(vy) * -bunnyBounce)
			if r := rng.Uint64(); r >= bunnyHalfProb {
				// Low 24 bits: the kick's fraction in [0, 1).
				vy -= float32(float32(float32(r&(1<<24-1))*0x1p-24) * bunnyKick)
			}
		} else if y < minY {
			y = minY
			vy = 0
		}
		a := as[i] + float32(ss[i]*dt)
		if a > bunnyPi32 {
			a -= bunnyTwoPi
		} else if a < -bunnyPi32 {
			a += bunnyTwoPi
		}
		xs[i], ys[i], vxs[i], vys[i], as[i] = x, y, vx, vy, a
	}
	b.rng = rng
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}
