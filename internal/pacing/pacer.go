package pacing

import (
	"sync/atomic"
	"time"

	"github.com/tandem-engine/tandem/snapshot"
)

// Config says how a run paces its frames (see docs/pacing.md).
type Config struct {
	Hz          int  // the sim's ticks a second
	VSync       bool // the swap waits for the display's blank
	EmulateHz   int  // swap on a blank grid of this rate on the monotonic clock (0: off)
	FPSCap      int  // frames a second at most (0: no cap)
	PresentHold bool // hold each swap to a steady lead after its moment
	// Aim: frames choose their moment from the sim's own schedule (the
	// jitter buffer sizes the delay and each frame aims at its predicted
	// present). Only for loops whose sim runs free on its own thread.
	Aim bool
	// CapPaced: -fps-cap paces the presents, not only the frames' starts
	// (see [CapPaced]).
	CapPaced bool
	// Finish waits until the frame's GL work is done (gl.Finish).
	Finish func()
	// Clock is the time the pacing reads and sleeps on (nil: the
	// process's monotonic clock, [snapshot.Now]).
	Clock Clock
}

// Clock is the pacing's time source, in integer nanoseconds on the
// [snapshot.Now] time base. The pacing reads the time and sleeps only
// through it, so that a test can feed it made-up times.
type Clock interface {
	// Now returns the current time.
	Now() int64
	// SleepUntil returns once Now() >= t: it sleeps until spin before t
	// and spins the rest (sleeps wake late by up to a scheduler tick).
	SleepUntil(t, spin int64)
}

var _ Clock = monotonic{}

// monotonic is the process's monotonic clock, [snapshot.Now].
type monotonic struct{}

func (monotonic) Now() int64 { return snapshot.Now() }

func (monotonic) SleepUntil(t, spin int64) {
	for d := t - snapshot.Now(); d > spin; d = t - snapshot.Now() {
		time.Sleep(time.Duration(d - spin))
	}
	for snapshot.Now() < t {
	}
}

// CapPaced reports whether a cap paces the presents, not only the frames'
// starts: in a loop that aims (its sim runs free) without vsync, real or
// emulated (there the blanks pace the presents). The coupled and
// pipelined loops keep the classic cap that sleeps before each frame, as
// the loops the bench compares against.
func CapPaced(fpsCap int, vsync bool, emulateHz int, aims bool) bool {
	return fpsCap > 0 && !vsync && emulateHz == 0 && aims
}

// Pacer is a run's frame pacing: the jitter buffer, the present
// predictor, the present hold and the cap's grid, asked by each frame
// which moment to show ([Pacer.Moment]) and when to swap
// ([Pacer.BeforeSwap]), both timed from its decision ([Pacer.Decide]).
// Render thread only, but for [Pacer.SetRefresh].
type Pacer struct {
	cfg     Config
	clock   Clock
	jitter  JitterBuffer
	predict PresentPredictor
	hold    PresentHold
	holding bool // the hold paces the swaps: PresentHold, or a cap that paces presents
	grid    capGrid
	blank0  int64 // a blank of the emulated grid
	aimed   int64 // the present this frame's moment was aimed at (0: none)
	start   int64 // this frame's place on the cap's grid when the cap paces presents (0: none)
	// observed is the newest snapshot tick the jitter buffer has seen;
	// lastAim when a frame last aimed.
	observed uint64
	lastAim  int64
	// refresh is the blank grid's spacing, ns (0: none): F11 changes it
	// on the input thread; each frame hands it to the predictor.
	refresh atomic.Int64
}

// New returns the pacing c asks for.
func New(c Config) *Pacer {
	p := &Pacer{cfg: c, clock: c.Clock}
	if p.clock == nil {
		p.clock = monotonic{}
	}
	// The delay covers jitter of up to half a tick above the floor of the
	// lateness (docs/results/2026-11-25-constants.md).
	p.jitter = JitterBuffer{Max: 1e9 / int64(c.Hz) / 2}
	p.predict.VSync = c.VSync || c.EmulateHz > 0
	// The hold's lead aims at the 75th percentile of recent work, moves
	// at most 0.25 ms a frame and lets a late frame's lateness go 1 ms a
	// frame (docs/results/2026-11-25-constants.md).
	p.hold = PresentHold{Pct: 75, Margin: 500_000, Max: 50_000_000, Step: 250_000, Ease: 1_000_000, Absorb: 12_000_000}
	p.holding = c.PresentHold
	if c.CapPaced {
		// Under a cap the time a frame would sleep away before it starts
		// is a lead that costs nothing: the frame starts that much before
		// its deadline and holds its swap to it. 1 ms of the period is
		// left for the frame's start before its decision.
		p.holding = true
		p.hold.Budget = int64(1e9)/int64(c.FPSCap) - 1_000_000
		if !c.PresentHold {
			p.hold.Pct = 0 // only the lead the cap gives
		}
	}
	return p
}

// SetRefresh sets the blank grid's spacing from a display refreshing hz
// times a second (0: unknown or no vsync); the emulated grid's rate wins.
// Any thread.
func (p *Pacer) SetRefresh(hz int) {
	if p.cfg.EmulateHz > 0 {
		hz = p.cfg.EmulateHz
	} else if !p.cfg.VSync {
		hz = 0
	}
	var ns int64
	if hz > 0 {
		ns = 1e9 / int64(hz)
	}
	p.refresh.Store(ns)
}

// Start begins a frame: under a cap it sleeps until the frame's start on
// the cap's grid. When the cap paces presents, that start is the frame's
// place on the grid, which [Pacer.Decide] times the frame from.
func (p *Pacer) Start() {
	p.aimed, p.start = 0, 0
	p.predict.Refresh = p.refresh.Load()
	if p.cfg.FPSCap == 0 {
		return
	}
	var lead int64
	if p.holding {
		lead = p.hold.Lead()
	}
	start, _ := p.grid.start(p.clock.Now(), lead, int64(1e9)/int64(p.cfg.FPSCap))
	p.waitUntil(start)
	if p.holding {
		p.start = start
	}
}

// Decide returns the moment a frame that took its snapshots at now times
// its picture and its swap from: now, or under a cap that paces presents
// the frame's place on the cap's grid, so that a frame that woke or
// polled late still shows and presents on its deadline.
func (p *Pacer) Decide(now int64) int64 {
	if p.start > 0 && p.start < now {
		return p.start
	}
	return now
}

// Moment returns the moment a frame deciding at decide shows, and the
// interpolation delay to show it with, given the newest pair (prev,
// curr), fresh when it is new since the last frame, and the delay in use.
//
// In a loop that does not aim it is decide, with the delay as it is. One
// that aims shows its predicted present less the typical lead from
// decision to present, so that from frame to frame the moment moves as
// the presents do: with vsync the present falls on the first blank after
// the frame is ready, and the moment moves with the predicted blank;
// without, the moment is decide. The jitter buffer learns from each new
// snapshot how late it arrived against that moment, and the delay moves
// toward its choice by [slew].
func (p *Pacer) Moment(prev, curr *snapshot.Snapshot, fresh bool, decide, delay int64) (showAt, newDelay int64) {
	if !p.cfg.Aim {
		return decide, delay
	}
	p.aimed = p.predict.Predict(decide)
	slack := p.aimed - (decide + p.predict.Lead()) // how far this present is from the typical one
	if fresh {
		for _, s := range [2]*snapshot.Snapshot{prev, curr} {
			if s.Tick > p.observed && !s.Paused {
				p.jitter.Observe(s.Published - s.Time + slack)
				p.observed = s.Tick
			}
		}
	}
	delay = slew(delay, p.jitter.Delay(), decide-p.lastAim, p.lastAim == 0)
	p.lastAim = decide
	return decide + slack, delay
}

// BeforeSwap waits, once the frame's GL calls are made, until its swap is
// due, and returns when the frame was ready to swap and the present
// hold's lead in use (0: no hold). drew says the frame showed the world
// (a frame before the first snapshot is not held). now is when the frame
// took its snapshots.
func (p *Pacer) BeforeSwap(decide, now int64, drew bool) (ready, hold int64) {
	if p.holding && drew {
		// Present a fixed lead after the decision: finish the frame's
		// work, then wait out the rest of the lead.
		p.cfg.Finish()
		done := p.clock.Now()
		p.hold.Observe(done - now)
		p.swapAt(p.hold.SwapAt(decide, done))
		hold = p.hold.Target()
	}
	if p.cfg.EmulateHz > 0 {
		return p.waitBlank(), hold
	}
	ready = p.clock.Now()
	// Not before the blank the moment was aimed at (with vsync).
	p.waitUntil(p.predict.HoldUntil(p.aimed))
	return ready, hold
}

// Presented tells the pacing when the frame that decided at decide and
// was ready at ready was presented.
func (p *Pacer) Presented(decide, ready, present int64, drew bool) {
	if !drew {
		return
	}
	if p.holding {
		p.hold.Presented(present)
	}
	p.predict.Observe(decide, ready, present)
}

// waitBlank emulates a swap that waits for vsync: it finishes the frame's
// GL work and sleeps until the next blank of a grid of 1/EmulateHz s on
// the monotonic clock, so that the swap after it puts the frame on screen
// at a blank, as a display's flip would. A frame done after a blank waits
// for the one after; a frame aimed at a later blank waits for that one.
// It returns when the frame's work was done.
func (p *Pacer) waitBlank() int64 {
	p.cfg.Finish()
	done := p.clock.Now()
	if p.blank0 == 0 {
		p.blank0 = done
	}
	from := max(done, p.predict.HoldUntil(p.aimed))
	p.swapAt(nextBlank(p.blank0, from, int64(1e9)/int64(p.cfg.EmulateHz)))
	return done
}

// VSyncSynced reports whether the presents wait for the display's blanks,
// and the blanks' rate, for the HUD.
func (p *Pacer) VSyncSynced() (synced bool, hz int) {
	if r := p.predict.Refresh; r > 0 && p.predict.Synced() {
		return true, int(1e9 / r)
	}
	return false, 0
}

// Lead returns the typical time from a frame's decision to its present
// (the median of recent frames'), ns.
func (p *Pacer) Lead() int64 { return p.predict.Lead() }

// Hold returns the present hold's lead in use, ns (0: no hold).
func (p *Pacer) Hold() int64 {
	if !p.holding {
		return 0
	}
	return p.hold.Target()
}

// slew moves the delay in use toward the jitter buffer's target by at most
// an eighth of the wall time elapsed since the last frame: a delay that
// jumped by 3 ms would hold the picture still for 3 ms, where a slewed one
// runs the shown clock at 7/8 speed for 24 ms, a change of pace under 1 ms
// per 60 Hz frame. The first frame takes the target as it is.
func slew(cur, target, elapsed int64, first bool) int64 {
	if first {
		return target
	}
	step := max(elapsed, 0) / 8
	if cur < target {
		return min(target, cur+step)
	}
	return max(target, cur-step)
}

// capGrid is a cap's schedule: a deadline every period on the monotonic
// clock.
type capGrid struct{ next int64 }

// start returns when a frame asking at now, which needs lead before its
// deadline, is to start, and that deadline; the grid moves on a period.
//
// Without a lead (the cap paces starts) a frame that asks more than a
// period after it was to start restarts the grid at now rather than
// rushing to catch up; one that asks less late keeps its place, a start
// in the past. With a lead (the cap paces presents) a frame that asks
// after its start at all restarts the grid at now plus the lead: squeezed
// toward its old deadline it would present late, which is animation
// error, where a grid moved on by as much as its decision is none (the
// picture moves as far as the present). Under a cap the machine cannot
// keep, every frame then starts at once and presents when its lead is up
// or its work done (docs/results/2026-11-25-constants.md).
func (g *capGrid) start(now, lead, period int64) (start, deadline int64) {
	late := period // how late a frame may ask and keep its place
	if lead > 0 {
		late = 0
	}
	if g.next == 0 || now > g.next-lead+late {
		g.next = now + lead
	}
	deadline = g.next
	g.next += period
	return deadline - lead, deadline
}

// nextBlank returns the first blank after t on the grid of blanks every
// period from origin (which is not after t).
func nextBlank(origin, t, period int64) int64 {
	return origin + ((t-origin)/period+1)*period
}

// waitUntil sleeps until t on the pacing's clock, spinning the last 0.3
// ms: sleeps wake late by up to a scheduler tick. For a frame's start
// that is close enough: the frame's moment is chosen after it.
func (p *Pacer) waitUntil(t int64) { p.clock.SleepUntil(t, 300_000) }

// swapAt waits until t for a swap whose time is the present (a held or
// emulated blank): it sleeps and spins the last 1 ms, as every bit of
// lateness there is animation error (docs/results/2026-11-25-constants.md).
func (p *Pacer) swapAt(t int64) { p.clock.SleepUntil(t, 1_000_000) }
