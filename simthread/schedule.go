package simthread

import (
	"fmt"
	"math"
	"math/bits"
)

// Ratio is a time scale: Num sim nanoseconds pass for every Den wall
// nanoseconds. {1, 1} is real time, {1, 4} quarter-speed slow motion,
// {2, 1} double-speed fast forward.
//
// Invariant: 1 <= Num, Den <= 64.
type Ratio struct{ Num, Den int64 }

// RealTime is the time scale 1.
var RealTime = Ratio{1, 1}

// Float returns the ratio as a float64.
func (r Ratio) Float() float64 { return float64(r.Num) / float64(r.Den) }

// String returns the ratio as the HUD shows it: "2x", or "1/4x".
func (r Ratio) String() string {
	if r.Den == 1 {
		return fmt.Sprintf("%dx", r.Num)
	}
	return fmt.Sprintf("%d/%dx", r.Num, r.Den)
}

// valid reports whether r satisfies the invariant.
func (r Ratio) valid() bool { return r.Num >= 1 && r.Num <= 64 && r.Den >= 1 && r.Den <= 64 }

// Scales are the time scales the slower/faster controls step through.
var Scales = []Ratio{{1, 8}, {1, 4}, {1, 2}, {1, 1}, {2, 1}, {4, 1}}

// Schedule says when each fixed tick is due. It is a pure value: time is
// passed in, never read.
//
// Sim time of tick k is exactly k*1e9/hz nanoseconds (rounded down, computed
// without accumulating error: 60 Hz does not divide 1e9, and a fixed
// 16,666,667 ns step would drift 20 ns a second). Wall time maps to sim time
// through a base point and a [Ratio]: with the scale at 1 and no pause or
// clamp, tick k is due at exactly epoch + k*1e9/hz. Pausing, changing scale
// and the lag clamp move the base point; they never touch the tick grid.
type Schedule struct {
	hz       int64
	next     uint64 // the next tick to run; also the number of ticks run
	wallBase int64  // a wall time ...
	simBase  int64  // ... and the sim time it maps to
	scale    Ratio
	paused   bool
	steps    int   // single steps granted while paused
	stepAt   int64 // when the pending single step was asked for
	dropped  int64 // wall ns dropped by Clamp, in all
}

// NewSchedule returns a schedule at hz ticks per second whose tick 0 is due
// at epoch. It panics if hz is not positive: that is a programmer mistake.
func NewSchedule(hz int, epoch int64) Schedule {
	if hz <= 0 {
		panic("simthread: NewSchedule: hz must be positive")
	}
	return Schedule{hz: int64(hz), wallBase: epoch, scale: RealTime}
}

// SimTime returns the sim time at which tick k starts: k*1e9/hz exactly,
// rounded down. It is also the sim time of the state after k ticks.
func (s *Schedule) SimTime(k uint64) int64 {
	hz := uint64(s.hz)
	return int64(k/hz*1e9 + k%hz*1e9/hz)
}

// Tick returns the number of ticks run so far, which is also the index of
// the next tick.
func (s *Schedule) Tick() uint64 { return s.next }

// Hz returns the tick rate.
func (s *Schedule) Hz() int { return int(s.hz) }

// Scale returns the chosen time scale.
func (s *Schedule) Scale() Ratio { return s.scale }

// Paused reports whether the schedule is paused.
func (s *Schedule) Paused() bool { return s.paused }

// Dropped returns the wall time, in nanoseconds, the lag clamp has dropped
// so far: how much slower than the chosen scale the sim has run.
func (s *Schedule) Dropped() int64 { return s.dropped }

// DueAt returns the wall time at which tick k is due under the current
// mapping (rounded up, so a tick is never due before its sim time).
func (s *Schedule) DueAt(k uint64) int64 {
	return s.wallBase + mulDiv(s.SimTime(k)-s.simBase, s.scale.Den, s.scale.Num, true)
}

// Due returns the wall time at which the next tick is due, or
// math.MaxInt64 while paused with no single step pending.
func (s *Schedule) Due() int64 {
	if s.paused {
		if s.steps > 0 {
			return s.stepAt
		}
		return math.MaxInt64
	}
	return s.DueAt(s.next)
}

// Ready reports whether the next tick is due at time now.
func (s *Schedule) Ready(now int64) bool { return s.Due() <= now }

// Advance records that the next tick has run.
func (s *Schedule) Advance() {
	if s.paused && s.steps > 0 {
		s.steps--
		// Resuming continues from the start of the stepped tick's window,
		// so the tick after it comes one full tick after the resume.
		s.simBase = s.SimTime(s.next)
	}
	s.next++
}

// simAt returns the sim time that wall time t maps to.
func (s *Schedule) simAt(t int64) int64 {
	if s.paused {
		return s.simBase
	}
	return s.simBase + mulDiv(t-s.wallBase, s.scale.Num, s.scale.Den, false)
}

// rebase moves the base point to wall time t without moving the mapping.
func (s *Schedule) rebase(t int64) {
	s.simBase, s.wallBase = s.simAt(t), t
}

// Clamp is the guard against the spiral of death: if the next tick is
// more than maxLag overdue at time now, it moves the schedule forward so
// that it is exactly maxLag overdue, and returns the wall time dropped.
// The sim then runs in slow motion instead of trying to catch up forever.
func (s *Schedule) Clamp(now, maxLag int64) int64 {
	if s.paused {
		return 0
	}
	lag := now - s.Due()
	if lag <= maxLag {
		return 0
	}
	d := lag - maxLag
	s.wallBase += d
	s.dropped += d
	return d
}

// Pause stops sim time at wall time t.
func (s *Schedule) Pause(t int64) {
	if s.paused {
		return
	}
	s.rebase(t)
	s.paused = true
}

// Resume restarts sim time at wall time t where Pause stopped it.
func (s *Schedule) Resume(t int64) {
	if !s.paused {
		return
	}
	s.paused, s.steps = false, 0
	s.wallBase = t
}

// Step grants one tick while paused, due at t. It does nothing when the
// schedule is running.
func (s *Schedule) Step(t int64) {
	if !s.paused {
		return
	}
	if s.steps == 0 {
		s.stepAt = t
	}
	s.steps++
}

// SetScale changes the time scale from wall time t on. An invalid ratio
// is a programmer mistake and panics.
func (s *Schedule) SetScale(t int64, r Ratio) {
	if !r.valid() {
		panic(fmt.Sprintf("simthread: invalid time scale %d/%d", r.Num, r.Den))
	}
	if !s.paused {
		s.rebase(t)
	}
	s.scale = r
}

// mulDiv returns a*b/c rounded down (or up when ceil), exactly, for any a
// and positive b and c, with a 128-bit intermediate product. It panics if
// the result does not fit in 64 bits.
func mulDiv(a, b, c int64, ceil bool) int64 {
	neg := a < 0
	ua := uint64(a)
	if neg {
		ua = -ua
	}
	hi, lo := bits.Mul64(ua, uint64(b))
	q, r := bits.Div64(hi, lo, uint64(c))
	if q > math.MaxInt64 {
		panic("simthread: time overflow")
	}
	n := int64(q)
	switch {
	case r == 0:
	case neg && !ceil:
		n++ // -(q + frac) rounded down is -(q+1)
	case !neg && ceil:
		n++
	}
	if neg {
		return -n
	}
	return n
}
