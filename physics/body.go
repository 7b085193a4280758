package physics

// BodyFlags is a set of per-body bits.
type BodyFlags uint8

const (
	// FlagOnGround: the last Step was stopped moving down (the body stands on
	// a solid tile or a one-way platform). Set by Body.Step.
	FlagOnGround BodyFlags = 1 << iota
	// FlagHitWall: the last Step was stopped along x. Set by Body.Step.
	FlagHitWall
	// FlagHitCeiling: the last Step was stopped moving up. Set by Body.Step.
	FlagHitCeiling
	// FlagPassOneWay: the body falls through one-way platforms. Set by the
	// owner of the body; Body.Step only reads it.
	FlagPassOneWay
	// FlagJumpHeld: the character is rising from a jump with the button
	// still held, so releasing it cuts the jump. Used by Character.
	FlagJumpHeld
)

// contactFlags are the flags Body.Step recomputes every tick.
const contactFlags = FlagOnGround | FlagHitWall | FlagHitCeiling

// Has reports whether every flag in g is set in f.
func (f BodyFlags) Has(g BodyFlags) bool { return f&g == g }

// Body is a box that moves through a level under gravity and collides with
// its tiles. It is a plain value; Step is the only method that changes it.
type Body struct {
	Pos   Vec // top-left corner, px
	Size  Vec // width and height, px (>= 0)
	Vel   Vec // px/s
	Flags BodyFlags
}

// Box returns the body's AABB, Box(Pos, Size). It is recomputed from Pos
// and Size every time, so the size never drifts with rounding.
func (b *Body) Box() AABB { return Box(b.Pos, b.Size) }

// Step advances b by one fixed tick of dt seconds through l: gravity
// (px/s², +y) changes the y velocity, capped at maxFall if maxFall > 0, and
// the box is swept with Level.Move by the tick's displacement. A blocked
// axis stops flush against the tile and zeroes that velocity component;
// FlagOnGround, FlagHitWall and FlagHitCeiling are set from the result.
// Step returns the displacement actually made. A landing stops flush up to
// rounding of Pos+Size; the next tick may close the last ulp or two, after
// which a body resting on a floor stays there bit for bit.
//
// Integration: x uses semi-implicit Euler (the caller has already updated
// Vel.X for this tick; dx = Vel.X*dt). y uses the mean of the velocities at
// the start and end of the tick, dy = (vy0+vy1)/2*dt with vy1 = vy0+g*dt,
// which is the exact displacement under constant gravity. Plain
// semi-implicit Euler (dy = vy1*dt) undershoots a jump's apex by v0*dt/2,
// 9 px at 30 Hz, so jump heights would depend on the tick rate; with the
// mean they differ only by where the apex falls between ticks (at most
// g*dt²/8, 0.25 px at 30 Hz). Either way the result is a pure function of
// the state and dt.
func (b *Body) Step(l *Level, dt, gravity, maxFall float64) Vec {
	vy0 := b.Vel.Y
	vy1 := vy0 + float64(gravity*dt)
	if maxFall > 0 && vy1 > maxFall {
		vy1 = maxFall
	}
	d := Vec{float64(b.Vel.X * dt), float64(float64(float64(vy0+vy1)*0.5) * dt)}
	moved, hitX, hitY := l.Move(b.Box(), d, !b.Flags.Has(FlagPassOneWay))
	b.Pos = b.Pos.Add(moved)
	b.Flags &^= contactFlags
	if hitX {
		b.Vel.X = 0
		b.Flags |= FlagHitWall
	}
	if hitY {
		if d.Y > 0 {
			b.Flags |= FlagOnGround
		} else {
			b.Flags |= FlagHitCeiling
		}
		vy1 = 0
	}
	b.Vel.Y = vy1
	return moved
}
