package audio

import (
	"cmp"
	"math"
)

// clock maps device frames onto snapshot.Now. At each pull the mixer sees
// how many frames the device has taken (taken = written - still buffered);
// the last of them was taken at about now and is heard one device latency
// later. now - time(taken frames) is a constant (set by how full the
// device keeps its buffer) plus the pull's wake-up delay, which is never
// negative: so the origin is the least of these observations.
//
// Two things move the observations for good. The device can run dry and
// play silence: every frame after it is heard later. A sound server can
// also change how full it keeps its buffer (PulseAudio does when another
// stream joins the sink): the takes move, but every frame is heard when it
// was going to be. The mixer sees the first for sure only when a pull
// finds oto's player empty (the device took silence from it): that is an
// underrun, counted, and the origin moves to the pull. A step of more
// than 2 ms sooner in the takes, or of more than 1 ms later lasting a
// window of reads, that does not come with an empty player is taken for
// the second and counted apart (Stats.ClockSteps): the origin stays.
// Smaller moves are the device's clock drifting from ours, and the origin
// follows them. Frames already written
// keep their numbers; sounds still to come are placed by the origin of
// the pull that starts them.
type clock struct {
	rate    int64
	latency int64 // ns from a frame's take to its being heard
	origin  int64 // ns at which device frame 0 was taken
	valid   bool  // a take has anchored the clock
	skip    int64 // frames the device takes before its takes keep time: twice its buffer
	warm    int64 // that many frames, for a reset
	reads   int
	winMin  int64
	winN    int
	winAt   int64 // when the window's first read came
	level   int64 // ns the device's buffer level has moved its takes since the origin was set
	steps   int64 // steps of the takes taken for a change of that level
	refine  int   // reads after a step sooner that take an earlier read for more of it
	late    bool  // the last read came more than lateAfter late with the player not empty
	// lateAfter is how late a read must come to be late (0: clockStep).
	// A device that reads the mixer at its requests (no player) runs dry
	// only when a request is served later than the data it still holds,
	// most of its latency: later reads by a few ms are a loaded machine's
	// wake-ups, and each would ask for a reading of the server's timing,
	// requests to the server's main thread that also serves the stream.
	lateAfter int64
}

const (
	clockWarm   = 16 // reads that set the origin to their least before it settles
	clockWindow = 64 // reads a lateness must last to move the origin later
	// clockWindowNs is how long it must last too: a device's takes come
	// every 5 to 30 ms, but oto polls the mixer every millisecond or so
	// when the player is short of its buffer size, and 64 such reads
	// (64 ms, a few takes) often all miss a take by half a millisecond:
	// the origin moved that much late and back (pulls_test.go).
	clockWindowNs = 1_000_000_000
	clockStep     = 2_000_000 // ns: a move of the takes past which it is a step, not drift
	clockDrift    = 500_000   // ns: the least move of the origin
	// clockDriftMax is the most a window's least read may come later and
	// be the device's clock drifting from ours: a clock 500 ppm off moves
	// 0.5 ms a second, and a window lasts a second or more, so the origin
	// follows drift in moves just past clockDrift. A later move by more
	// is the device's buffer level (Stats.ClockSteps), which moves no
	// frame's hearing: taken for drift it moved every later sound
	// (docs/results/2026-11-27-sound-latency7.md).
	clockDriftMax = 2 * clockDrift
	maxInt64      = math.MaxInt64 >> 1 // a far frame
)

// framesNs returns the duration of f frames, ns.
func (c *clock) framesNs(f int64) int64 {
	return f/c.rate*1e9 + f%c.rate*1e9/c.rate
}

// observe takes a pull at now with taken frames taken; empty reports the
// device's buffer found empty. It reports an underrun.
//
// The least observation is origin + level: level is how much the device's
// buffer level has moved the takes since the origin was set, which moves
// no frame's hearing.
func (c *clock) observe(now, taken int64, empty bool) bool {
	if taken <= c.skip {
		// The device is still filling its buffer: it takes faster than it
		// plays, and these reads say nothing of its clock.
		return false
	}
	o := now - c.framesNs(taken)
	c.reads++
	base := c.origin + c.level
	c.late = c.valid && !empty && o > base+cmp.Or(c.lateAfter, clockStep)
	switch {
	case !c.valid:
		c.origin, c.valid, c.winMin, c.winN = o, true, maxInt64, 0
		return false
	case c.reads <= clockWarm:
		c.origin = min(c.origin, o)
		return false
	case empty && o > base+clockDrift:
		// The device took silence from oto's empty player: every frame from
		// here on is heard that much later.
		c.origin += o - base
		c.winMin, c.winN, c.refine = maxInt64, 0, 0 // (sooner reads after it are the origin's, late by this pull's wake-up)
		return true
	case o < base-clockStep:
		// The device keeps its buffer fuller: its takes come sooner, and
		// the frames are heard when they were going to be. The read that
		// shows the step is late by its own wake-up: the reads of the
		// window after it take the rest of the step (refine).
		c.level -= base - o
		c.steps++
		c.refine = clockWindow
		c.winMin, c.winN = maxInt64, 0
		return false
	case o < base-clockDrift && c.refine > 0:
		c.level -= base - o // the step was larger than its first read showed
	case o < base-clockDrift:
		c.origin -= base - o // the origin was late by its wake-up delay, or the device's clock runs fast
	}
	c.refine = max(c.refine-1, 0)
	if c.winN == 0 {
		c.winAt = now
	}
	c.winMin = min(c.winMin, o)
	c.winN++
	if c.winN >= clockWindow && now-c.winAt >= clockWindowNs {
		switch d := c.winMin - (c.origin + c.level); {
		case d > clockDriftMax:
			// More than a clock drifts in a window: the device keeps its
			// buffer emptier, and its takes come later (a server that
			// kept it fuller a moment ago, a step, often goes back by
			// less than a step).
			c.level += d
			c.steps++
		case d > clockDrift:
			c.origin += d // the device's clock runs slow of ours: follow it
		}
		c.winMin, c.winN = maxInt64, 0
	}
	return false
}

// timeOf returns when device frame f is heard, ns.
func (c *clock) timeOf(f int64) int64 { return c.origin + c.latency + c.framesNs(f) }

// frameAt returns the first device frame heard at or after t.
func (c *clock) frameAt(t int64) int64 {
	if !c.valid {
		return maxInt64 // not yet anchored: every sound waits
	}
	d := t - c.origin - c.latency
	if d <= 0 {
		return -1
	}
	f := d/1e9*c.rate + (d%1e9*c.rate+1e9-1)/1e9
	return f
}

// reset forgets the origin when the device comes back after a stall or
// a new connection (Output's faults): frames from taken on are timed by
// new observations, once the device has taken warm frames more (its
// buffer refilling), and sounds wait until then as at the start.
func (c *clock) reset(taken int64) {
	c.valid, c.reads, c.level, c.winMin, c.winN, c.refine = false, 0, 0, maxInt64, 0, 0
	c.skip = taken + c.warm
}
