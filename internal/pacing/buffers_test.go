package pacing

import (
	"github.com/tandem-engine/tandem/internal/mallocs"
	"github.com/tandem-engine/tandem/snapshot"
	"testing"
)

const ms = 1_000_000

func TestJitterBufferSteady(t *testing.T) {
	// Snapshots always 3 ms late: the delay is 3 ms plus the margin, from
	// the first one on.
	j := JitterBuffer{Max: 16 * ms, Margin: ms / 2}
	for i := range 500 {
		if d := j.Observe(3 * ms); d != 3*ms+ms/2 {
			t.Fatalf("snapshot %d: delay %d, want %d", i, d, 3*ms+ms/2)
		}
	}
}

func TestJitterBufferBurst(t *testing.T) {
	// A burst of lateness raises the delay at once, to cover it, never
	// past Max above the floor (1 ms here); one outlier in 128 does not
	// (the 99th percentile leaves it out), two do.
	j := JitterBuffer{Max: 10 * ms}
	for range 200 {
		j.Observe(ms)
	}
	if d := j.Observe(7 * ms); d != ms {
		t.Fatalf("one 7 ms outlier moved the delay to %d", d)
	}
	if d := j.Observe(7 * ms); d != 7*ms {
		t.Fatalf("a second 7 ms arrival: delay %d, want 7 ms at once", d)
	}
	j.Observe(30 * ms)
	if d := j.Observe(30 * ms); d != 11*ms {
		t.Fatalf("30 ms lateness: delay %d, want the bound, 10 ms above the 1 ms floor", d)
	}
}

func TestJitterBufferOverload(t *testing.T) {
	// A sim that cannot keep up publishes every snapshot about 283 ms
	// late (its lag clamped at 250 ms, plus a 33 ms tick), give or take
	// 2 ms: that is its schedule, not jitter, and the delay follows it,
	// past Max. When the overload ends the delay comes back down to the
	// normal lateness, gradually, and is bounded by Max again.
	j := JitterBuffer{Max: 16 * ms}
	for range 200 {
		j.Observe(ms / 4)
	}
	if d := j.Delay(); d != ms/4 {
		t.Fatalf("steady: delay %d", d)
	}
	// A 500 ms stall: the sim clamps its lag to 250 ms and catches up in
	// a burst of 15 ticks, each less late. That is jitter on the usual
	// floor, bounded by Max.
	for k := range int64(15) {
		j.Observe(250*ms - k*16*ms)
	}
	if d := j.Delay(); d != 16*ms+ms/4 {
		t.Fatalf("after a stall's catch-up burst: delay %d, want Max above the floor", d)
	}
	for range 2000 {
		j.Observe(ms / 4)
	}
	for i := range 300 {
		j.Observe(283*ms + int64(i%5-2)*ms)
	}
	if d := j.Delay(); d != 285*ms {
		t.Fatalf("overloaded: delay %d, want 285 ms, the lateness's 99th percentile", d)
	}
	prev := j.Delay()
	for i := range 2000 {
		d := j.Observe(ms / 4)
		if d > prev || prev-d > (285*ms)/64+1 {
			t.Fatalf("after the overload, snapshot %d: delay %d after %d: want a gradual decline", i, d, prev)
		}
		prev = d
	}
	if prev > ms/4+ms/100 {
		t.Fatalf("2000 snapshots after the overload the delay is %d", prev)
	}
	// Jitter on the normal floor is bounded again.
	for range 2 {
		j.Observe(40 * ms)
	}
	if d := j.Delay(); d != 16*ms+ms/4 {
		t.Fatalf("40 ms bursts after the overload: delay %d, want Max above the floor", d)
	}
}

func TestJitterBufferSlowDecline(t *testing.T) {
	// After the burst leaves the window, the delay falls toward the new
	// lateness slowly and never below it: no step down, no undershoot.
	j := JitterBuffer{}
	for range 10 {
		j.Observe(8 * ms)
	}
	prev := j.Delay()
	var steps int
	for i := range 1000 {
		d := j.Observe(2 * ms)
		if d > prev {
			t.Fatalf("observation %d: the delay rose from %d to %d while lateness fell", i, prev, d)
		}
		if d < 2*ms {
			t.Fatalf("observation %d: delay %d below the lateness", i, d)
		}
		if prev-d > (8*ms-2*ms)/64+1 {
			t.Fatalf("observation %d: fell %d ns in one step, faster than 1/64 of the gap", i, prev-d)
		}
		if d < prev {
			steps++
		}
		prev = d
	}
	if steps < 100 {
		t.Fatalf("the decline took %d steps; want a slow one", steps)
	}
	if prev > 2*ms+ms/100 {
		t.Fatalf("after 1000 snapshots the delay is %d, want about 2 ms", prev)
	}
}

func TestPresentPredictor(t *testing.T) {
	// Without vsync: the median lead, robust to the odd slow frame.
	var p PresentPredictor
	if p.Predict(100) != 100 {
		t.Fatal("with nothing observed the prediction is now")
	}
	now := int64(0)
	for i := range 40 {
		lead := int64(5 * ms)
		if i%10 == 0 {
			lead = 40 * ms // a slow frame now and then
		}
		p.Observe(now, now+lead, now+lead)
		now += 10 * ms
	}
	if got := p.Predict(now); got != now+5*ms {
		t.Fatalf("predicted %d, want now + 5 ms = %d", got, now+5*ms)
	}
}

// vsyncDisplay is a made-up display with vsync: blanks every period from
// 0, and a present measured copy ns after the blank it flipped at.
type vsyncDisplay struct{ period, copy int64 }

// present returns when a frame ready at ready, held until hold, is
// presented: at the first blank after both, plus the copy.
func (d vsyncDisplay) present(ready, hold int64) int64 {
	from := max(ready, hold)
	return (from/d.period+1)*d.period + d.copy
}

// runFrames drives p through n frames deciding at decide(k), ready work(k)
// ns later and held as the predictor says, on display d, and returns how
// many presents were not the predicted one and the presents.
func runFrames(p *PresentPredictor, d vsyncDisplay, n int, decide func(k int, last int64) int64, work func(k int) int64) (missed int, presents []int64) {
	var last int64
	for k := range n {
		at := decide(k, last)
		aimed := p.Predict(at)
		ready := at + work(k)
		last = d.present(ready, p.HoldUntil(aimed))
		if last != aimed {
			missed++
		}
		p.Observe(at, ready, last)
		presents = append(presents, last)
	}
	return missed, presents
}

func TestPresentPredictorVSyncLocked(t *testing.T) {
	// The classic vsync loop: each frame decides just after the present
	// before it and is ready 3 to 5 ms later, well before the next blank.
	// Its decision-to-present time is nearly a whole interval (it holds
	// the wait), and adding that to the next blank's would predict one
	// blank too late: the prediction must be the very next blank, every
	// frame.
	const period = 16_666_667
	d := vsyncDisplay{period: period, copy: 800_000}
	p := PresentPredictor{VSync: true, Refresh: period}
	p.Observe(0, 4*ms, d.present(4*ms, 0))
	missed, presents := runFrames(&p, d, 200,
		func(k int, last int64) int64 { return last + 200_000 },
		func(k int) int64 { return 3*ms + int64(k%3)*ms })
	if missed != 0 {
		t.Fatalf("%d of 200 frames presented at another blank than predicted", missed)
	}
	for i := 1; i < len(presents); i++ {
		if presents[i]-presents[i-1] != period {
			t.Fatalf("frame %d presented %d after the one before, want one interval", i, presents[i]-presents[i-1])
		}
	}
}

func TestPresentPredictorVSyncOffGrid(t *testing.T) {
	// 47 frames a second on a 60 Hz display (-fps-cap 47): decisions every
	// 21.3 ms fall anywhere in the interval, and the presents come 16.7 or
	// 33.3 ms apart. Every frame is predicted at the blank it presents at,
	// even those ready just before a blank (held for the next one rather
	// than caught by it or not by chance).
	const period = 16_666_667
	d := vsyncDisplay{period: period, copy: 800_000}
	p := PresentPredictor{VSync: true, Refresh: period}
	p.Observe(0, 4*ms, d.present(4*ms, 0))
	const every = 21_276_596
	runFrames(&p, d, 40, func(k int, _ int64) int64 { return int64(k+1) * every }, func(int) int64 { return 4 * ms })
	missed, presents := runFrames(&p, d, 300, func(k int, _ int64) int64 { return int64(k+41) * every }, func(k int) int64 { return 4*ms + int64(k%4)*ms/4 })
	if missed != 0 {
		t.Errorf("%d of 300 frames presented at another blank than predicted", missed)
	}
	for i := 1; i < len(presents); i++ {
		if gap := presents[i] - presents[i-1]; gap != period && gap != 2*period {
			t.Fatalf("frame %d presented %d after the one before", i, gap)
		}
	}
}

func TestPresentPredictorLatePresent(t *testing.T) {
	// One present measured 5 ms late (the thread woke late) does not move
	// the grid: the next prediction is still on the display's blanks.
	const period = 16_666_667
	d := vsyncDisplay{period: period, copy: 800_000}
	p := PresentPredictor{VSync: true, Refresh: period}
	p.Observe(0, 4*ms, d.present(4*ms, 0))
	_, presents := runFrames(&p, d, 50, func(k int, last int64) int64 { return last + 200_000 }, func(int) int64 { return 4 * ms })
	last := presents[len(presents)-1]
	late := last + period + 5*ms
	p.Observe(last+200_000, last+4*ms, late)
	now := late + 200_000
	if got, want := p.Predict(now), last+2*period; got != want {
		t.Fatalf("after a present 5 ms late: predicted %d, want the blank grid's %d", got, want)
	}
}

func TestPacingAllocs(t *testing.T) {
	var j JitterBuffer
	var p PresentPredictor
	j.Observe(1)
	p.Observe(1, 2, 2)
	v := PresentPredictor{VSync: true, Refresh: 16 * ms}
	n := mallocs.Fewest(3, func() {
		for i := range int64(10_000) {
			j.Observe(i % 7 * ms)
			p.Observe(i*ms, i*ms+2*ms, i*ms+3*ms)
			p.Predict(i * ms)
			v.Observe(i*ms, i*ms+2*ms, i*ms+3*ms)
			v.HoldUntil(v.Predict(i * ms))
		}
	})
	if n != 0 {
		t.Fatalf("%d allocations in 10,000 observations", n)
	}
}

func TestPresentHoldSteady(t *testing.T) {
	// Work of 10 to 14 ms: the lead settles on the Pct-th percentile plus
	// the margin, and every frame then swaps exactly that long after its
	// decision, whatever its own work took.
	h := PresentHold{Pct: 95, Margin: 500_000}
	for k := range 200 {
		h.Observe(10_000_000 + int64(k%5)*1_000_000)
	}
	if got, want := h.Lead(), int64(14_500_000); got != want {
		t.Fatalf("lead %d, want %d", got, want)
	}
	// Aiming lower: 13 ms is the 75th percentile of those frames; 100
	// aims at the slowest, 0 at nothing.
	for pct, want := range map[int]int64{75: 13_500_000, 0: 0, 100: 14_500_000} {
		l := PresentHold{Pct: pct, Margin: 500_000}
		for k := range 200 {
			l.Observe(10_000_000 + int64(k%5)*1_000_000)
		}
		if got := l.Lead(); got != want {
			t.Errorf("Pct %d: lead %d, want %d", pct, got, want)
		}
	}
	for _, work := range []int64{10_000_000, 12_000_000, 14_000_000} {
		if at := h.SwapAt(1_000_000_000, 1_000_000_000+work); at != 1_014_500_000 {
			t.Errorf("work %d ns swaps at %d, want the decision plus the lead", work, at)
		}
	}
	// A frame slower than the lead swaps when it is done: no waiting.
	if at := h.SwapAt(0, 20_000_000); at != 20_000_000 {
		t.Errorf("a 20 ms frame swaps at %d", at)
	}
}

func TestPresentHoldBurstAndDecline(t *testing.T) {
	// A burst of slow frames raises the lead, a step at most a frame (each
	// step is animation error), up to Max; when the work falls again the
	// lead comes down as gently, never below the new aim.
	const step = 250_000
	h := PresentHold{Pct: 95, Max: 40_000_000, Step: step}
	for range 128 {
		h.Observe(10_000_000)
	}
	if h.Lead() != 10_000_000 {
		t.Fatalf("steady 10 ms frames: lead %d", h.Lead())
	}
	h.Observe(30_000_000) // one frame in 128 is past the 95th percentile
	if h.Lead() != 10_000_000 {
		t.Fatalf("one 30 ms frame moved the lead to %d", h.Lead())
	}
	prev := h.Lead()
	for k := range 200 {
		lead := h.Observe(90_000_000)
		if lead < prev || lead-prev > step || lead > 40_000_000 {
			t.Fatalf("slow frame %d: lead %d after %d: want a rise of at most %d a frame, up to Max", k, lead, prev, step)
		}
		prev = lead
	}
	if prev != 40_000_000 {
		t.Fatalf("after 200 frames of 90 ms the lead is %d, not Max", prev)
	}
	for k := range 400 {
		lead := h.Observe(10_000_000)
		if lead > prev || prev-lead > step || lead < 10_000_000 {
			t.Fatalf("fast frame %d: lead %d after %d: want a gradual decline to 10 ms", k, lead, prev)
		}
		prev = lead
	}
	if prev != 10_000_000 {
		t.Fatalf("the lead ends at %d, not back to 10 ms", prev)
	}
	if n := testing.AllocsPerRun(100, func() { h.Observe(10_000_000) }); n != 0 {
		t.Fatalf("Observe allocates %v", n)
	}
}

func TestPresentPredictorIgnoredVSync(t *testing.T) {
	// VSync asked for on a 60 Hz display, but the presents come every
	// 3 ms (the driver ignores it; Xvfb has no blanks): the predictor
	// predicts as without vsync and holds no frame. With Refresh unknown
	// it never snaps.
	for _, refresh := range []int64{16_666_667, 0} {
		p := PresentPredictor{VSync: true, Refresh: refresh}
		now := int64(0)
		for range 40 {
			p.Observe(now, now+2*ms, now+2*ms+500_000)
			now += 3 * ms
		}
		if p.Synced() {
			t.Errorf("refresh %d: presents every 3 ms, yet Synced", refresh)
		}
		if got, want := p.Predict(now), now+2*ms+500_000; got != want {
			t.Errorf("refresh %d: predicted %d, want now plus the lead, %d", refresh, got, want)
		}
		if h := p.HoldUntil(now + 16*ms); h != 0 {
			t.Errorf("refresh %d: holds a frame until %d", refresh, h)
		}
	}
}

func TestPresentHoldEase(t *testing.T) {
	// A frame presenting 6 ms late is animation error once; the frames
	// after it keep its lateness and let it go 1.5 ms a frame, so no
	// frame after it jumps forward by more than that. A frame later than
	// Absorb is let go at once, and swap times that wander by less than
	// Ease keep no lateness at all.
	const swap = ms
	h := PresentHold{Pct: 95, Step: 250_000, Ease: 1_500_000, Absorb: 12 * ms}
	var decide int64
	// frame runs one frame with the given work and swap time and returns
	// its decision-to-present time.
	frame := func(work, swapTime int64) int64 {
		decide += 30 * ms
		h.Observe(work)
		at := h.SwapAt(decide, decide+work)
		h.Presented(at + swapTime)
		return at + swapTime - decide
	}
	for range 200 {
		frame(15*ms, swap)
	}
	if h.Lead() != 15*ms {
		t.Fatalf("steady lead %d", h.Lead())
	}
	steady := frame(15*ms, swap)
	late := frame(21*ms, swap) // 6 ms past the lead
	if late != steady+6*ms {
		t.Fatalf("the late frame presented %d after its decision, want %d", late, steady+6*ms)
	}
	prev := late
	for k := range 10 {
		got := frame(15*ms, swap)
		if prev-got > 1_500_000 || got > prev {
			t.Fatalf("frame %d after: presented %d after its decision, after %d: want at most 1.5 ms less", k, got, prev)
		}
		if h.Target() != got-swap {
			t.Fatalf("frame %d after: Target %d, but it swapped %d after its decision", k, h.Target(), got-swap)
		}
		prev = got
	}
	if prev != steady {
		t.Fatalf("10 frames after, %d after the decision, want back to %d", prev, steady)
	}
	// Past Absorb: one jump back.
	frame(15*ms+13*ms, swap)
	if got := frame(15*ms, swap); got != steady {
		t.Fatalf("after a frame 13 ms late: %d, want back to %d at once", got, steady)
	}
	// Swap times wandering by 0.4 ms: every frame swaps on the lead.
	for k := range 50 {
		frame(15*ms, swap+int64(k%3)*200_000)
		if at := h.at - h.decide; at != h.Lead() {
			t.Fatalf("jittery swap %d: swapped %d after its decision, want the lead %d", k, at, h.Lead())
		}
	}
	if n := testing.AllocsPerRun(100, func() { frame(15*ms, swap) }); n != 0 {
		t.Fatalf("SwapAt and Presented allocate %v", n)
	}
}

func TestPresentHoldBudget(t *testing.T) {
	// A cap of 30 FPS (Budget 33.3 ms) with a swap of 1 ms: frames of 10
	// to 14 ms get a lead at the 99th percentile plus the margin, which
	// costs nothing, though Pct 0 asks for none of its own. Frames that
	// outgrow the budget get no more than the budget less the swap, so
	// that lead plus swap keeps the cap's pace. A paid lead (Pct) above
	// the budget still holds.
	const budget, swap = 33_333_333, ms
	run := func(h *PresentHold, work func(k int) int64) {
		var decide int64
		for k := range 300 {
			decide += budget
			h.Observe(work(k))
			h.Presented(h.SwapAt(decide, decide+work(k)) + swap)
		}
	}
	steady := func(k int) int64 { return 10*ms + int64(k%5)*ms }
	free := PresentHold{Margin: 500_000, Budget: budget}
	run(&free, steady)
	if got, want := free.Lead(), int64(14*ms+500_000); got != want {
		t.Errorf("frames of 10-14 ms under the budget: lead %d, want %d", got, want)
	}
	slow := PresentHold{Margin: 500_000, Budget: budget}
	run(&slow, func(int) int64 { return 40 * ms })
	if got, want := slow.Lead(), int64(budget-swap); got != want {
		t.Errorf("frames of 40 ms: lead %d, want the budget less the swap, %d", got, want)
	}
	paid := PresentHold{Pct: 75, Margin: 500_000, Budget: budget}
	run(&paid, func(k int) int64 { return 40*ms + int64(k%5)*ms })
	if got, want := paid.Lead(), int64(43*ms+500_000); got != want {
		t.Errorf("Pct 75 over the budget: lead %d, want the 75th percentile plus the margin, %d", got, want)
	}
	if n := testing.AllocsPerRun(100, func() { free.Observe(12 * ms) }); n != 0 {
		t.Fatalf("Observe with a budget allocates %v", n)
	}
}

func TestPresentHoldSkipsFirstFrames(t *testing.T) {
	// A first frame of 100 ms (shaders compiling) is neither held to nor
	// learnt from: the frames after it get the lead their own work asks
	// for, not one pinned near the slow frame while it stays in the
	// window.
	h := PresentHold{Pct: 99, Margin: 500_000, Step: 250_000}
	if lead := h.Observe(100 * ms); lead != 0 {
		t.Fatalf("the first frame is held to %d", lead)
	}
	for range holdSkip - 1 {
		if lead := h.Observe(10 * ms); lead != 0 {
			t.Fatalf("a frame before holdSkip is held to %d", lead)
		}
	}
	for range 20 {
		h.Observe(10 * ms)
	}
	if got, want := h.Lead(), int64(10*ms+500_000); got != want {
		t.Fatalf("after a slow first frame and 20 of 10 ms: lead %d, want %d", got, want)
	}
}

func TestOverloadPlaysSlowMotion(t *testing.T) {
	// An overloaded sim at 60 Hz: every tick takes 33.3 ms, its lag is
	// clamped, and each snapshot is due 33.3 ms after the one before (Next
	// says so) and published 283 ms after it was due. Frames every 16.7 ms
	// feed the jitter buffer (half a tick over the floor) and show the
	// world its delay in the past. Once the buffer's floor has followed
	// the steady lateness, the picture plays the sim's schedule as even
	// slow motion: half a frame of sim time a frame, nothing overdue. With
	// the delay held at half a tick (a bound without the floor), every
	// frame is overdue and the picture moves in steps.
	const tick, slow, late, frame = 16_666_667, 33_333_333, 283_000_000, 16_666_667
	var snaps []*snapshot.Snapshot
	for k := int64(1); k <= 400; k++ {
		due := k * slow
		snaps = append(snaps, &snapshot.Snapshot{Tick: uint64(k), SimTime: k * tick, Time: due, Next: due + slow, Published: due + late, TimeScale: 0.5})
	}
	history := func(now int64) (h [snapshot.History]*snapshot.Snapshot, n int) {
		for n < len(snaps) && snaps[n].Published <= now {
			n++
		}
		for i := range h {
			h[i] = snaps[max(n-snapshot.History+i, 0)]
		}
		return h, n
	}
	run := func(follow bool) (overdue, steps int, minStep, maxStep int64) {
		jb := JitterBuffer{Max: tick / 2}
		ip := snapshot.Interpolator{Delay: tick / 2}
		seen, last := 0, int64(-1)
		minStep = 1 << 62
		for now := int64(late + slow); now < 12_000_000_000; now += frame {
			h, n := history(now)
			for ; seen < n; seen++ {
				jb.Observe(snaps[seen].Published - snaps[seen].Time)
			}
			if follow {
				ip.Delay = jb.Delay()
			}
			v, _, _ := ip.Show(h, now)
			if now < 4_000_000_000 {
				last = v.SimTime
				continue // the buffer is still following the schedule
			}
			steps++
			if v.Overdue {
				overdue++
			}
			minStep, maxStep = min(minStep, v.SimTime-last), max(maxStep, v.SimTime-last)
			last = v.SimTime
		}
		return overdue, steps, minStep, maxStep
	}
	overdue, steps, lo, hi := run(true)
	if overdue != 0 || lo < frame/2-1000 || hi > frame/2+1000 {
		t.Fatalf("following the floor: %d of %d frames overdue, steps of %d-%d ns of sim time; want none overdue and %d each", overdue, steps, lo, hi, frame/2)
	}
	if overdue, steps, lo, hi := run(false); overdue != steps || lo != 0 || hi != tick {
		t.Fatalf("a delay of half a tick: %d of %d frames overdue, steps of %d-%d ns; want all overdue, steps of 0 and a tick", overdue, steps, lo, hi)
	}
}
