package physics

import "fmt"

// Controls is the character's input for one tick, filled by the game
// adapter from the engine's input events.
type Controls struct {
	Left, Right bool // held during the tick (both or neither: no horizontal input)
	Jump        bool // held at the end of the tick's window
	JumpPressed bool // jump went down at least once during the tick's window (even if released again within it)
}

// The character's poses, which Character.Pose returns: a game shows a
// picture (a tandem.Frame) for each.
const (
	PoseIdle  = 0 // standing still on the ground
	PoseRun0  = 1 // running: PoseRun0 .. PoseRun0+RunPoses-1
	PoseJump  = PoseRun0 + RunPoses
	PoseFall  = PoseJump + 1
	PoseCount = PoseFall + 1 // number of distinct poses

	RunPoses = 4 // poses in the run cycle

	// RunPoseDistance is how many pixels the character runs per run pose,
	// so the feet match the speed at any tick rate.
	RunPoseDistance = 8.0

	// idleSpeed: below this horizontal speed (px/s) on the ground the
	// character shows the idle frame.
	idleSpeed = 5.0
)

// Character is a platformer's player: a Body driven by Controls with
// platformer movement (acceleration, friction, variable-height jumps,
// coyote time, jump buffering). Make one with NewCharacter; the game that
// owns it steps it once a tick and reads it through its methods.
type Character struct {
	body       Body
	facing     int8    // +1 right, -1 left
	airTicks   uint32  // ticks ended in the air since last on the ground; 0 on the ground
	sinceJump  uint32  // ticks since the jump button was last pressed
	runPhase   float64 // distance run, modulo RunPoses*RunPoseDistance, for the run animation
	generation uint32

	tuning      CharacterTuning
	coyoteTicks uint32
	bufferTicks uint32
}

// Body returns a copy of the character's body: position (top-left), size,
// velocity and flags.
func (c *Character) Body() Body { return c.body }

// Pos returns the top-left corner of the character's box.
func (c *Character) Pos() Vec { return c.body.Pos }

// Box returns the character's box.
func (c *Character) Box() AABB { return c.body.Box() }

// Vel returns the character's velocity in px/s.
func (c *Character) Vel() Vec { return c.body.Vel }

// Flags returns the character's body flags.
func (c *Character) Flags() BodyFlags { return c.body.Flags }

// OnGround reports whether the character stood on the ground at the end of
// the last tick.
func (c *Character) OnGround() bool { return c.body.Flags.Has(FlagOnGround) }

// Facing returns +1 if the character faces right and -1 if it faces left.
// It changes only when a direction is held.
func (c *Character) Facing() int { return int(c.facing) }

// Generation counts the character's teleports and respawns. When it
// changes between two states, the renderer should snap to the new position
// instead of interpolating across the jump.
func (c *Character) Generation() uint32 { return c.generation }

// CoyoteTicks returns the tuning's CoyoteTime rounded to ticks: a jump
// still works on the first CoyoteTicks ticks after the character leaves the
// ground.
func (c *Character) CoyoteTicks() int { return int(c.coyoteTicks) }

// JumpBufferTicks returns the tuning's JumpBuffer rounded to ticks: a press
// on tick t jumps on the first tick in t..t+JumpBufferTicks when a jump is
// possible.
func (c *Character) JumpBufferTicks() int { return int(c.bufferTicks) }

// Pose returns the pose for the current state: PoseJump while
// rising in the air, PoseFall while falling, PoseIdle when (nearly)
// still on the ground, and otherwise a run pose PoseRun0+k chosen by the
// distance run, so it is deterministic and independent of the tick rate.
func (c *Character) Pose() int {
	if !c.OnGround() {
		if c.body.Vel.Y < 0 {
			return PoseJump
		}
		return PoseFall
	}
	if vx := c.body.Vel.X; vx < idleSpeed && vx > -idleSpeed {
		return PoseIdle
	}
	k := int(c.runPhase * (1 / RunPoseDistance))
	return PoseRun0 + min(max(k, 0), RunPoses-1)
}

// sat1 returns n+1, saturating well below overflow.
func sat1(n uint32) uint32 {
	if n >= 1<<30 {
		return n
	}
	return n + 1
}

// NewCharacter returns a character with tuning t (zero fields take the
// defaults of DefaultTuning) for a game stepped hz times a second, facing
// right, at the origin: Place it before the first Step. It reports an
// error for a negative, NaN or infinite tuning value.
func NewCharacter(t CharacterTuning, hz int) (Character, error) {
	t = t.withDefaults()
	if err := t.validate(); err != nil {
		return Character{}, err
	}
	if hz <= 0 {
		return Character{}, fmt.Errorf("physics: %w: %d Hz, want at least 1", ErrConfig, hz)
	}
	c := Character{
		body:        Body{Size: Vec{t.Width, t.Height}},
		facing:      1,
		tuning:      t,
		coyoteTicks: ticks(t.CoyoteTime, hz),
		bufferTicks: ticks(t.JumpBuffer, hz),
	}
	return c, nil
}

// Tuning returns the character's tuning, with defaults filled in.
func (c *Character) Tuning() CharacterTuning { return c.tuning }

// Teleport puts the character at pos as Place does and increments its
// generation, so renderers snap to it instead of sliding there. It does
// not check pos: the game knows where its character may stand.
func (c *Character) Teleport(pos Vec) {
	c.Place(pos)
	c.generation++
}

// Hash folds the character's whole state into h: position, size,
// velocity, flags, facing, air ticks, ticks since the jump press, run
// phase and generation, over the exact bits of every float.
func (c *Character) Hash(h *Hasher) {
	h.F64(c.body.Pos.X)
	h.F64(c.body.Pos.Y)
	h.F64(c.body.Size.X)
	h.F64(c.body.Size.Y)
	h.F64(c.body.Vel.X)
	h.F64(c.body.Vel.Y)
	h.Word(uint64(c.body.Flags) | uint64(uint8(c.facing))<<8)
	h.Word(uint64(c.airTicks) | uint64(c.sinceJump)<<32)
	h.F64(c.runPhase)
	h.Word(uint64(c.generation))
}

// Place puts the character at pos (its box's top-left corner), standing
// still, in the air, with no pending jump; its generation is unchanged.
func (c *Character) Place(pos Vec) {
	c.body.Pos = pos
	c.body.Vel = Vec{}
	c.body.Flags = 0
	c.airTicks = c.coyoteTicks + 1
	c.sinceJump = c.bufferTicks + 1
	c.runPhase = 0
}

// Step advances the character by one tick of dt seconds on level l under
// gravity (px/s², +y down) and reports whether it jumped and whether it
// landed. It allocates nothing.
func (c *Character) Step(in Controls, l *Level, dt, gravity float64) (jumped, landed bool) {
	t := &c.tuning
	var dir float64
	if in.Right {
		dir++
	}
	if in.Left {
		dir--
	}
	wasGround := c.OnGround()

	// Horizontal: accelerate toward the held direction, brake otherwise.
	vx := c.body.Vel.X
	accel, friction := t.AirAccel, t.AirFriction
	if wasGround {
		accel, friction = t.GroundAccel, t.GroundFriction
	}
	if dir != 0 {
		if vx*dir < 0 { // turning: brake and accelerate at once
			accel += friction
		}
		// Never speed up past MaxRunSpeed, but do not clamp a faster
		// character (after a teleport, say) instantly either.
		limit := max(t.MaxRunSpeed, vx*dir)
		vx += float64(dir * float64(accel*dt))
		if vx*dir > limit {
			vx = float64(dir * limit)
		}
	} else {
		dv := float64(friction * dt)
		switch {
		case vx > dv:
			vx -= dv
		case vx < -dv:
			vx += dv
		default:
			vx = 0
		}
	}
	c.body.Vel.X = vx

	// Jump: buffered press + on the ground or within coyote time.
	if in.JumpPressed {
		c.sinceJump = 0
	}
	if c.sinceJump <= c.bufferTicks && (wasGround || c.airTicks <= c.coyoteTicks) {
		c.body.Vel.Y = -t.JumpSpeed
		c.body.Flags = c.body.Flags&^FlagOnGround | FlagJumpHeld
		c.sinceJump = c.bufferTicks + 1 // consumed
		c.airTicks = c.coyoteTicks + 1  // no second jump from coyote time
		jumped = true
	}
	// Variable height: releasing jump while rising cuts the rise, once.
	if c.body.Flags.Has(FlagJumpHeld) {
		switch {
		case c.body.Vel.Y >= 0:
			c.body.Flags &^= FlagJumpHeld
		case !in.Jump:
			c.body.Vel.Y = float64(c.body.Vel.Y * t.JumpCut)
			c.body.Flags &^= FlagJumpHeld
		}
	}

	moved := c.body.Step(l, dt, gravity, t.MaxFallSpeed)

	if c.OnGround() {
		c.airTicks = 0
		landed = !wasGround
		c.body.Flags &^= FlagJumpHeld
	} else {
		c.airTicks = sat1(c.airTicks)
	}
	c.sinceJump = sat1(c.sinceJump)
	if dir > 0 {
		c.facing = 1
	} else if dir < 0 {
		c.facing = -1
	}
	if c.OnGround() {
		ax := moved.X
		if ax < 0 {
			ax = -ax
		}
		const cycle = RunPoses * RunPoseDistance
		c.runPhase += ax
		if !(c.runPhase < 1e9) { // NaN or absurd: never loop forever
			c.runPhase = 0
		}
		for c.runPhase >= cycle {
			c.runPhase -= cycle
		}
	} else {
		c.runPhase = 0
	}
	return jumped, landed
}

// The poses' former names, from when "frame" meant both a picture and a
// pose: deprecated, and kept so that games written against them still
// build (CHANGELOG.md announces them).
const (
	// Deprecated: use PoseIdle.
	FrameIdle = PoseIdle
	// Deprecated: use PoseRun0.
	FrameRun0 = PoseRun0
	// Deprecated: use PoseJump.
	FrameJump = PoseJump
	// Deprecated: use PoseFall.
	FrameFall = PoseFall
	// Deprecated: use PoseCount.
	FrameCount = PoseCount
	// Deprecated: use RunPoses.
	RunFrames = RunPoses
	// Deprecated: use RunPoseDistance.
	RunFrameDistance = RunPoseDistance
)

// Frame returns the pose for the current state.
//
// Deprecated: use Pose.
func (c *Character) Frame() int { return c.Pose() }
