//go:build cgo

package app

import (
	"time"

	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/snapshot"
)

// The frame pacing policies: the aimed moment (-interp-delay auto), the
// cap's grid (-fps-cap), the emulated vsync and the waits that time swaps.
// See docs/pacing.md.

// aim chooses the moment a frame deciding at now shows, for -interp-delay
// auto: its predicted present less the typical lead from decision to
// present, so that from frame to frame the moment moves as the presents
// do. With vsync (or -emulate-vsync) the present falls on the first blank
// after the frame is ready, wherever in the interval the frame started:
// the moment moves with the predicted blank, one interval per interval,
// even when frames start off the blank grid (-fps-cap 50 on a 60 Hz
// display). Without vsync the predicted present is now plus the typical
// lead, and the moment is now. Either way it is shown the jitter buffer's
// delay in the past, and the buffer learns from each new snapshot how
// late it arrived against that moment.
func (a *app) aim(prev, curr *snapshot.Snapshot, fresh bool, now int64) int64 {
	a.aimed = a.predict.Predict(now)
	slack := a.aimed - (now + a.predict.Lead()) // how far this present is from the typical one
	if fresh {
		for _, s := range [2]*snapshot.Snapshot{prev, curr} {
			if s.Tick > a.observed && !s.Paused {
				a.jitter.Observe(s.Published - s.Time + slack)
				a.observed = s.Tick
			}
		}
	}
	a.interp.Delay = slew(a.interp.Delay, a.jitter.Delay(), now-a.lastAim, a.lastAim == 0)
	a.lastAim = now
	return now + slack
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

// capPaced reports whether -fps-cap paces the presents, not only the
// frames' starts: in the decoupled loop without vsync (real or emulated;
// there the blanks pace the presents). The coupled and pipelined loops
// keep the classic cap that sleeps before each frame, as the loops the
// bench compares against.
func capPaced(o Options) bool {
	return o.Pacing.FPSCap > 0 && !o.Window.VSync && o.Pacing.EmulateHz == 0 && o.Loop.ownsSchedule()
}

// paceCap sleeps until this frame's start under -fps-cap: frames are due
// on a grid of 1/N s on the monotonic clock (capGrid, which says what a
// late frame does). It returns the frame's start on the grid when the cap
// paces presents, 0 otherwise.
//
// When the cap paces presents (capPaced), the grid is the presents': a
// frame starts the hold's lead before its deadline, and the hold keeps
// its swap to that lead after its decision, so it presents on the
// deadline whatever its own work took. The lead aims at the 99th
// percentile of recent work (PresentHold.Budget), which costs no frame
// rate while it fits in the period: without it the frame would have slept
// that time before it started, and presented as soon as its work was
// done, early or late by as much as the work varies. At -fps-cap 30 with
// 5000 bunnies (work 12-25 ms), three interleaved pairs of 5 s runs on a
// quiet host: anim_err_ms_p99 1.07-2.06 against 9.68-13.06, frames over
// 2 ms 1-2 of 150 against 57-76, 30.0 FPS and latency_ms_p50 33.4 ms
// against 34.6 (medians). At -fps-cap 60, about the rate the work
// allows: 6-14 frames over 2 ms against 44-58, for 5% of the frame rate
// and 3 ms of latency. Otherwise frames start on the grid and the swap
// is not held.
//
// The frame's picture and its swap are timed from its place on the grid
// (the start returned), not from when it woke: a frame that woke or
// polled late still shows the moment of its deadline, and presents on it
// if its work fits.
func (a *app) paceCap() int64 {
	var lead int64
	if a.holding {
		lead = a.hold.Lead()
	}
	start, _ := a.capGrid.start(snapshot.Now(), lead, int64(1e9)/int64(a.opts.Pacing.FPSCap))
	waitUntil(start)
	if !a.holding {
		return 0
	}
	return start
}

// capGrid is -fps-cap's schedule: a deadline every period on the
// monotonic clock.
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
// or its work done; keeping the late grid there showed the grid's
// moments while the presents fell ever further behind them (about 200 of
// 250 frames over 2 ms at -fps-cap 60 against 50 FPS of work).
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

// setRefresh tells the present predictor the blank grid's spacing: the
// emulated display's, or the monitor's refresh interval.
func (a *app) setRefresh() {
	hz := a.opts.Pacing.EmulateHz
	if hz == 0 && a.opts.Window.VSync {
		hz = a.win.RefreshRate()
	}
	var ns int64
	if hz > 0 {
		ns = 1e9 / int64(hz)
	}
	a.refresh.Store(ns) // each frame hands it to the predictor
}

// waitBlank emulates a swap that waits for vsync (-emulate-vsync): it
// finishes the frame's GL work and sleeps until the next blank of a grid
// of 1/Hz s on the monotonic clock, so that the swap after it puts the
// frame on screen at a blank, as a display's flip would. A frame done
// after a blank waits for the one after, and shows an interval late; a
// frame aimed at a later blank waits for that one, as [app.frame] holds a
// frame on a real display. It returns when the frame's work was done.
func (a *app) waitBlank() int64 {
	gl.Finish()
	done := snapshot.Now()
	if a.blank0 == 0 {
		a.blank0 = done
	}
	from := max(done, a.predict.HoldUntil(a.aimed))
	swapAt(nextBlank(a.blank0, from, int64(1e9)/int64(a.opts.Pacing.EmulateHz)))
	return done
}

// nextBlank returns the first blank after t on the grid of blanks every
// period from origin (which is not after t).
func nextBlank(origin, t, period int64) int64 {
	return origin + ((t-origin)/period+1)*period
}

// waitUntil sleeps until t on the monotonic clock, spinning the last 0.3
// ms: sleeps wake late by up to a scheduler tick. For a frame start
// (-fps-cap) that is close enough: the frame's moment is chosen after it.
func waitUntil(t int64) { sleepSpin(t, 300_000) }

// swapAt waits until t for a swap whose time is the present (-present-hold,
// a held or emulated blank): it sleeps and spins the last 1 ms, as every
// bit of lateness there is animation error. With 0.3 ms the swap started
// 0.34 ms late in the median and 0.8-1.4 ms at the 95th percentile; with
// 1 ms, 0 and 0.13-0.17 (two runs each, 5000 bunnies, -present-hold).
func swapAt(t int64) { sleepSpin(t, 1_000_000) }

func sleepSpin(t, spin int64) {
	for d := t - snapshot.Now(); d > spin; d = t - snapshot.Now() {
		time.Sleep(time.Duration(d - spin))
	}
	spinUntil(t)
}
