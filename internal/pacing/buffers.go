package pacing

import (
	"slices"

	"github.com/tandem-engine/tandem/internal/quantile"
)

// jitterWindow is how many arrivals a [JitterBuffer] remembers: about two
// seconds of ticks at 60 Hz.
const jitterWindow = 128

// JitterBuffer chooses the interpolation delay from how late snapshots
// arrive. A frame shows the world at a moment t, blending toward the
// snapshot due at t; that snapshot is there only if the sim thread
// published it in time. How late it publishes (Published - Time: a tick
// that started late, or took long) varies, and the delay must cover nearly
// all of it without adding more latency than needed.
//
// The buffer keeps the lateness of the last 128 snapshots and aims at their
// 99th percentile plus Margin. When lateness grows the delay rises at once
// (the next frame is already covered); when it falls, the delay decays by
// 1/64 of the gap per snapshot (about a second at 60 Hz), so that one
// quiet moment does not undo the cover.
//
// Max bounds the delay above the floor of the lateness, the least of it
// in the last 32 snapshots (half a second at 60 Hz): Max is how much
// jitter the delay covers, the floor is a schedule the snapshots keep.
// Normally the floor is a fraction of a millisecond, the tick's own time;
// a stall and the burst of ticks that catches up after it leave it there.
// A sim that cannot keep up (every tick costs more than its budget) has
// its lag clamped and publishes every snapshot a steady few hundred
// milliseconds late, on a schedule that moves at its slower pace:
// following the floor, the picture plays that schedule as smooth slow
// motion, instead of reaching each snapshot early and holding it until
// the next. Observe never allocates.
//
// Render thread only.
type JitterBuffer struct {
	// Max bounds the delay above the lateness's floor, ns. 0 means no
	// bound.
	Max int64
	// Margin is added to the percentile, ns.
	Margin int64

	late  samples
	delay int64
}

// floorWindow is how many of the newest arrivals the floor of the lateness
// is the least of.
const floorWindow = 32

// Observe records that a snapshot arrived late ns after it was due and
// returns the delay to use from now on.
func (j *JitterBuffer) Observe(late int64) int64 {
	j.late.add(max(late, 0), jitterWindow)
	target := j.late.percentile(99) + j.Margin
	if j.Max > 0 {
		target = min(target, j.late.leastOfNewest(floorWindow, jitterWindow)+j.Max)
	}
	if target >= j.delay {
		j.delay = target
	} else {
		j.delay -= (j.delay - target + 63) / 64
	}
	return j.delay
}

// Delay returns the delay in use, ns.
func (j *JitterBuffer) Delay() int64 { return j.delay }

// leadWindow is how many frames a [PresentPredictor] remembers.
const leadWindow = 32

// PresentPredictor predicts when the frame being drawn will reach the
// screen, from the frames before it.
//
// Without vsync a frame presents when its work is done: the prediction is
// its decision plus the median time from decision to present of the last
// 32 frames (robust to the odd slow frame).
//
// With vsync a frame presents at the first vertical blank after it is
// ready to swap, and the time from decision to present is no guide: it
// holds the wait for the blank, which depends on where in the interval
// the frame started. The prediction is the first blank, on the grid the
// recent presents fall on, at or after the decision plus the time to be
// ready that all but the slowest of the last 32 frames kept to, plus an
// eighth of an interval (the swap's own time between the blank and the
// present the caller measures, and a margin). The grid is spaced by
// Refresh and placed at the median phase of the last 32 presents, so that
// one present that came back late does not move it. A frame ready before
// the blank before the predicted one must not swap early: the caller
// holds it until [PresentPredictor.HoldUntil]. The predicted blank is
// then missed only by a frame slower than nearly all of the last 32.
// Presents that come faster than Refresh say that nothing waits for the
// blanks (a driver that ignores vsync; Xvfb): the prediction is then as
// without vsync.
//
// A frame that aims its moment at the predicted present instead of at the
// moment it starts drawing moves the picture by the same amount as the
// presents move. No method allocates.
//
// Render thread only.
type PresentPredictor struct {
	// VSync says presents were asked to wait for a vertical blank.
	VSync bool
	// Refresh is the display's refresh interval, ns: the blank grid's
	// spacing. 0 (not known) predicts as without vsync.
	Refresh int64

	lead, ready, period, present samples
	// The figures of those samples, worked out as each frame is observed.
	leadP50, readyP97, periodP50 int64
	lastPresent                  int64
	scratch                      [maxWindow]int64 // for blank
}

// Observe records a frame that chose its moment at decide, was ready to
// swap at ready (its work done, or handed to the swap) and was presented
// at present.
func (p *PresentPredictor) Observe(decide, ready, present int64) {
	lead := max(present-decide, 0)
	p.lead.add(lead, leadWindow)
	p.ready.add(min(max(ready-decide, 0), lead), leadWindow)
	p.present.add(present, leadWindow)
	if p.lastPresent != 0 && present > p.lastPresent {
		p.period.add(present-p.lastPresent, leadWindow)
		p.periodP50 = p.period.percentile(50)
	}
	p.lastPresent = present
	p.leadP50, p.readyP97 = p.lead.percentile(50), p.ready.percentile(97)
}

// Lead returns the typical time from a frame's decision to its present,
// ns: the median of the recent frames, 0 before any.
func (p *PresentPredictor) Lead() int64 { return p.leadP50 }

// Ready returns the time from decision to being ready to swap that all
// but the slowest of the last 32 frames kept to (their 97th percentile),
// ns, 0 before any: one hiccup does not move it.
func (p *PresentPredictor) Ready() int64 { return p.readyP97 }

// Period returns the median interval between recent presents, ns, 0
// before two.
func (p *PresentPredictor) Period() int64 { return p.periodP50 }

// Synced reports whether presents wait for blanks: VSync was asked for,
// the refresh interval is known, and the presents do not come faster
// than it (after the first 8; a driver may ignore the request, and Xvfb
// has no blanks to wait for).
func (p *PresentPredictor) Synced() bool {
	return p.VSync && p.Refresh > 0 && (p.period.n < 8 || p.periodP50 >= p.Refresh*3/4)
}

// blank returns a present on the grid of spacing per: the last present
// moved by the median of the recent presents' offsets from it, each
// taken to the nearest grid line (within half an interval).
func (p *PresentPredictor) blank(per int64) int64 {
	presents := p.present.all()
	off := p.scratch[:len(presents)]
	for i, t := range presents {
		d := ((t-p.lastPresent)%per + per) % per // in [0, per)
		if d >= per/2 {
			d -= per
		}
		off[i] = d
	}
	slices.Sort(off)
	return p.lastPresent + off[quantile.Rank(len(off), 0.5)] // the median, by nearest rank
}

// HoldUntil returns the earliest a frame whose present was predicted for
// aimed should swap when [PresentPredictor.Synced]: half an interval
// before it, so that the swap cannot catch the blank before. 0 otherwise,
// and for aimed 0 (no prediction).
func (p *PresentPredictor) HoldUntil(aimed int64) int64 {
	if aimed <= 0 || !p.Synced() {
		return 0
	}
	return aimed - p.Refresh/2
}

// Predict returns when a frame deciding at now will be presented: now plus
// the lead, or when [PresentPredictor.Synced] the first blank on the grid
// at or after now plus the time to be ready and an eighth of an interval.
func (p *PresentPredictor) Predict(now int64) int64 {
	per := p.Refresh
	if !p.Synced() || p.lastPresent == 0 {
		return now + p.Lead()
	}
	t := now + p.Ready() + per/8
	b := p.blank(per)
	k := max((t-b+per-1)/per, 1) // never the blank already shown
	return b + k*per
}

// holdWindow is how many frames a [PresentHold] remembers: about two
// seconds at 60 Hz.
const holdWindow = 128

// PresentHold makes a frame's time from decision to present the same from
// frame to frame when nothing (no vsync) paces the presents: a frame that
// finishes its work early waits before it swaps, so that every frame
// presents a fixed lead after it chose the moment it shows. The picture
// then moves by as much as the presents do (the animation error is the
// change of that lead from frame to frame), at the cost of presenting
// frames later than their work alone would.
//
// The lead aims at the Pct-th percentile of the last 128 frames' work
// (decision to the GPU being done) plus Margin, bounded by Max. Every
// change of the lead shows as animation error in the frame it happens,
// so the lead moves toward its aim by at most Step a frame, up or down;
// a frame whose work takes longer than the lead presents late (the hold
// cannot make a slow frame fast).
//
// A late frame (slow work, a late wake-up, a slow swap: the host stalled)
// is animation error twice: once as it presents late, and again as the
// next frame presents on time, a jump forward. With Ease set, the frames
// after a late one keep its lateness and let it go by at most Ease a
// frame, so that the second error is spread over a few frames, each
// under Ease. Lateness beyond Absorb is let go at once. With Ease the
// presents follow the work's slow swings and ride out its fast ones: a
// frame costs animation error only by as much as it is later than the
// frame before, which lets the lead aim well below the slowest frames
// (see Pct). No method allocates.
//
// Render thread only.
type PresentHold struct {
	// Pct is the percentile of the recent frames' work that the lead aims
	// at, 1 to 100; 0 aims at none, only at what Budget allows.
	Pct int
	// Margin is added to the percentile, ns.
	Margin int64
	// Max bounds the lead, ns: a frame waits at most this long after its
	// decision. 0 means no bound.
	Max int64
	// Step is the most the lead moves in one frame, ns. 0 means it jumps
	// to its aim at once.
	Step int64
	// Ease is the most lateness the frames after a late one let go of a
	// frame, ns; 0 lets it go at once. Absorb is the most they keep.
	Ease, Absorb int64
	// Budget is the time between presents that costs no frame rate (the
	// period of a frame-rate cap, which a frame would otherwise sleep
	// away), ns. The lead aims at the 99th percentile of the work plus
	// Margin, above what Pct asks, but no further than Budget less the
	// swap's own time (the median from swap call to present), so that
	// lead and swap together keep the cap's pace. 0: none.
	Budget int64

	skipped int // frames not learnt from, up to holdSkip
	work    samples
	swap    samples // swap call to present
	swapP50 int64
	lead    int64
	carry   int64 // the lead the last frame swapped at, as it presented
	decide  int64 // the frame between SwapAt and Presented
	at      int64
	target  int64 // the lead it aimed at
}

// holdSkip is how many frames a [PresentHold] does not learn from: a
// program's first frames compile shaders and upload textures, which makes
// them slower than the ones after (docs/results/2026-11-26-comment-logs.md),
// and the 99th percentile of fewer than 100 frames is their slowest.
const holdSkip = 4

// Observe records a frame whose work took work ns from its decision to
// the GPU being done, and returns the lead to hold the next frames to.
// The first holdSkip frames are not held, nor learnt from; the first
// frame after them sets the lead to its aim at once.
func (h *PresentHold) Observe(work int64) int64 {
	if h.skipped < holdSkip {
		h.skipped++
		return h.lead
	}
	h.work.add(max(work, 0), holdWindow)
	var aim int64
	if h.Pct > 0 {
		aim = h.work.percentile(min(h.Pct, 100)) + h.Margin
		if h.Max > 0 {
			aim = min(aim, h.Max)
		}
	}
	if h.Budget > 0 {
		aim = max(aim, min(h.work.percentile(99)+h.Margin, h.Budget-h.swapP50))
	}
	switch {
	case h.work.n == 1 || h.Step <= 0:
		h.lead = aim
	case aim > h.lead:
		h.lead = min(aim, h.lead+h.Step)
	default:
		h.lead = max(aim, h.lead-h.Step)
	}
	return h.lead
}

// Lead returns the lead in use, ns: how long after its decision a frame
// swaps.
func (h *PresentHold) Lead() int64 { return h.lead }

// SwapAt returns when a frame that decided at decide should swap: decide
// plus the lead (or, with Ease, the lateness the frame before kept), or
// at once (done) if its work took longer.
func (h *PresentHold) SwapAt(decide, done int64) int64 {
	lead := h.lead
	if h.Ease > 0 && h.carry > h.lead && h.carry-h.lead <= h.Absorb {
		lead = max(h.lead, h.carry-h.Ease)
	}
	h.decide, h.at, h.target = decide, max(decide+lead, done), lead
	return h.at
}

// Target returns the lead the frame SwapAt was last asked about aimed at,
// ns: Lead, or more while a late frame's lateness is let go.
func (h *PresentHold) Target() int64 { return h.target }

// Presented records when the frame SwapAt was last asked about reached
// the screen: the swap's own time, for Budget, and for Ease how late the
// frame was against the usual time from the swap call to the present.
func (h *PresentHold) Presented(present int64) {
	h.swap.add(max(present-h.at, 0), holdWindow)
	h.swapP50 = h.swap.percentile(50)
	if h.Ease > 0 {
		h.carry = present - h.swapP50 - h.decide
	}
}

// maxWindow is the most values a [samples] keeps.
const maxWindow = 128

// samples keeps the newest values of a stream, up to a window of at most
// maxWindow. No method allocates.
type samples struct {
	buf    [maxWindow]int64
	sorted [maxWindow]int64 // buf[:n] in order, when inOrder
	n, i   int
	// inOrder says sorted holds the values kept: percentile sorts them
	// once per add, however many percentiles are asked for.
	inOrder bool
}

// add records x in a window of size values.
func (s *samples) add(x int64, size int) {
	s.buf[s.i] = x
	s.i = (s.i + 1) % size
	s.n = min(s.n+1, size)
	s.inOrder = false
}

// leastOfNewest returns the least of the newest k values kept in a window
// of size values (the size add was given), 0 before any.
func (s *samples) leastOfNewest(k, size int) int64 {
	k = min(k, s.n)
	if k == 0 {
		return 0
	}
	least := s.buf[(s.i-1+size)%size]
	for d := 2; d <= k; d++ {
		least = min(least, s.buf[(s.i-d+size)%size])
	}
	return least
}

// all returns the values kept, in no particular order.
func (s *samples) all() []int64 { return s.buf[:s.n] }

// percentile returns the pct-th percentile of the values kept by nearest
// rank (quantile.Rank), 0 before any.
func (s *samples) percentile(pct int) int64 {
	if s.n == 0 {
		return 0
	}
	if !s.inOrder {
		copy(s.sorted[:s.n], s.buf[:s.n])
		slices.Sort(s.sorted[:s.n])
		s.inOrder = true
	}
	return s.sorted[quantile.Rank(s.n, float64(pct)/100)]
}
