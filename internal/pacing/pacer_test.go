package pacing

import (
	"slices"
	"testing"

	"github.com/tandem-engine/tandem/snapshot"
)

func TestCapGrid(t *testing.T) {
	// A 100 ns period. With a 30 ns lead (presents paced) frames start 30
	// before deadlines 100 apart; one that asks after its start restarts
	// the grid a lead after it asked; a longer lead moves the starts, not
	// the deadlines. Without a lead (starts paced) one that asks 20 late
	// keeps its place (a start in the past, the same deadline); one more
	// than a period late restarts the grid where it asked.
	for _, tc := range []struct {
		name  string
		steps []struct{ now, lead, start, deadline int64 }
	}{
		{"lead", []struct{ now, lead, start, deadline int64 }{
			{1000, 30, 1000, 1030},
			{1010, 30, 1100, 1130},
			{1190, 30, 1200, 1230}, // early: wait for its start
			{1270, 50, 1280, 1330}, // a longer lead starts earlier
			{1385, 50, 1385, 1435}, // 5 late: restart
			{1400, 50, 1485, 1535},
		}},
		{"no lead", []struct{ now, lead, start, deadline int64 }{
			{1000, 0, 1000, 1000},
			{1010, 0, 1100, 1100},
			{1220, 0, 1200, 1200}, // 20 late: keeps its place
			{1310, 0, 1300, 1300},
			{1520, 0, 1520, 1520}, // more than a period late: restart
			{1530, 0, 1620, 1620},
		}},
	} {
		var g capGrid
		for _, st := range tc.steps {
			start, deadline := g.start(st.now, st.lead, 100)
			if start != st.start || deadline != st.deadline {
				t.Errorf("%s: start(%d, %d) = %d, %d; want %d, %d", tc.name, st.now, st.lead, start, deadline, st.start, st.deadline)
			}
		}
	}
}

func TestNextBlank(t *testing.T) {
	// Blanks every 16 ms from 100: a time on a blank waits for the next
	// one, a time between two for the second.
	for _, tc := range []struct{ t, want int64 }{
		{100, 116}, {101, 116}, {115, 116}, {116, 132}, {131, 132}, {1000, 1012},
	} {
		if got := nextBlank(100, tc.t, 16); got != tc.want {
			t.Errorf("nextBlank(100, %d, 16) = %d, want %d", tc.t, got, tc.want)
		}
	}
}

// fakeClock is a [Clock] at made-up times: a sleep moves it on to the
// time asked for and is kept, with its spin, for the test to check. Its
// finish is a frame's Finish: the GL work is done gpu ns after it is
// asked for.
type fakeClock struct {
	now    int64
	gpu    int64
	sleeps []sleep
}

// sleep is one wait of a [fakeClock]: until when, spinning how long.
type sleep struct{ until, spin int64 }

var _ Clock = (*fakeClock)(nil)

func (c *fakeClock) Now() int64 { return c.now }

func (c *fakeClock) SleepUntil(t, spin int64) {
	if t > c.now {
		c.sleeps = append(c.sleeps, sleep{t, spin})
		c.now = t
	}
}

func (c *fakeClock) finish() { c.now += c.gpu }

// took returns the sleeps since it was last asked, nil for none.
func (c *fakeClock) took() []sleep {
	s := c.sleeps
	c.sleeps = nil
	return s
}

func TestDecide(t *testing.T) {
	// A 100 FPS cap (a 10 ms grid) on a 100 Hz sim. A frame's first
	// Start begins the grid at once; the next frame, asking 3 ms after
	// it, sleeps to 10 ms (spinning the last 0.3 ms) and takes its
	// snapshots 0.2 ms later. Under a cap that paces presents it is
	// timed from its place on the grid; under one that paces starts, or
	// without a cap, from when it took its snapshots.
	type step struct {
		at, now, decide int64
		sleeps          []sleep
	}
	for _, tc := range []struct {
		name  string
		cfg   Config
		steps []step
	}{
		{"no cap", Config{Hz: 100}, []step{
			{1000 * ms, 1000*ms + ms/5, 1000*ms + ms/5, nil},
			{1003 * ms, 1003*ms + ms/5, 1003*ms + ms/5, nil},
		}},
		{"cap paces starts", Config{Hz: 100, FPSCap: 100}, []step{
			{1000 * ms, 1000*ms + ms/5, 1000*ms + ms/5, nil},
			{1003 * ms, 1010*ms + ms/5, 1010*ms + ms/5, []sleep{{1010 * ms, 300_000}}},
		}},
		{"cap paces presents", Config{Hz: 100, FPSCap: 100, CapPaced: true, Aim: true}, []step{
			{1000 * ms, 1000*ms + ms/5, 1000 * ms, nil},
			{1003 * ms, 1010*ms + ms/5, 1010 * ms, []sleep{{1010 * ms, 300_000}}},
		}},
	} {
		clk := &fakeClock{}
		tc.cfg.Clock, tc.cfg.Finish = clk, clk.finish
		p := New(tc.cfg)
		for i, st := range tc.steps {
			clk.now = st.at
			p.Start()
			if got := clk.took(); !slices.Equal(got, st.sleeps) {
				t.Errorf("%s: frame %d: Start slept %v, want %v", tc.name, i+1, got, st.sleeps)
			}
			clk.now = st.now
			if got := p.Decide(st.now); got != st.decide {
				t.Errorf("%s: frame %d: Decide(%d) = %d, want %d", tc.name, i+1, st.now, got, st.decide)
			}
		}
	}
}

const us = 1000 // a microsecond, ns

// tick returns the snapshot of tick k of a 100 Hz sim, due at k*10 ms and
// published late ns after.
func tick(k uint64, late int64) *snapshot.Snapshot {
	due := int64(k) * 10 * ms
	return &snapshot.Snapshot{Tick: k, Time: due, Next: due + 10*ms, Published: due + late}
}

func TestMomentDelay(t *testing.T) {
	// A 100 Hz sim without vsync: the jitter buffer may cover half a tick
	// (5 ms) above the floor of the lateness, here 0. Every frame is
	// ready 2 ms and presents 4 ms after it decides, so the predicted
	// present is the decision plus 4 ms and the moment shown is the
	// decision itself (the present less the typical lead). Each new
	// snapshot's lateness sets the buffer's delay at once (1 ms, 3.5 ms,
	// then 9 ms capped at 5 ms); the delay in use moves toward it by an
	// eighth of the 10 ms between frames (1.25 ms) and a 20 ms stall
	// cannot take it past 5 ms. The frame shows showAt - delay.
	clk := &fakeClock{}
	p := New(Config{Hz: 100, Aim: true, Clock: clk, Finish: clk.finish})
	prev := tick(99, 0)
	var delay int64
	for i, f := range []struct {
		decide int64
		curr   *snapshot.Snapshot // nil: nothing new
		showAt int64
		delay  int64
	}{
		{1002 * ms, tick(100, 1*ms), 1002 * ms, 1 * ms}, // the first frame takes the buffer's delay as it is
		{1012 * ms, tick(101, 3500*us), 1012 * ms, 2250 * us},
		{1022 * ms, tick(102, 9*ms), 1022 * ms, 3500 * us}, // the buffer's delay: 5 ms, not 9
		{1032 * ms, tick(103, 500*us), 1032 * ms, 4750 * us},
		{1042 * ms, nil, 1042 * ms, 5 * ms},
		{1052 * ms, tick(105, 20*ms), 1052 * ms, 5 * ms}, // a stall: still 5 ms
		{1062 * ms, nil, 1062 * ms, 5 * ms},
	} {
		p.Start()
		curr, fresh := f.curr, f.curr != nil
		if !fresh {
			curr = prev
		}
		var showAt int64
		showAt, delay = p.Moment(prev, curr, fresh, f.decide, delay)
		if showAt != f.showAt || delay != f.delay {
			t.Errorf("frame %d: Moment = %d, delay %d; want %d, %d", i+1, showAt, delay, f.showAt, f.delay)
		}
		clk.now = f.decide + 2*ms
		ready, hold := p.BeforeSwap(f.decide, f.decide, true)
		if ready != f.decide+2*ms || hold != 0 || clk.took() != nil {
			t.Errorf("frame %d: BeforeSwap = %d, hold %d; want %d, 0 and no wait", i+1, ready, hold, f.decide+2*ms)
		}
		p.Presented(f.decide, ready, f.decide+4*ms, true)
		if p.Lead() != 4*ms {
			t.Errorf("frame %d: Lead = %d, want 4 ms", i+1, p.Lead())
		}
		prev = curr
	}

	// A loop that does not aim shows its decision with the delay it has,
	// and learns nothing.
	p = New(Config{Hz: 100, Clock: clk, Finish: clk.finish})
	p.Start()
	if showAt, d := p.Moment(tick(99, 0), tick(100, 9*ms), true, 1002*ms, 7*ms); showAt != 1002*ms || d != 7*ms || p.jitter.Delay() != 0 {
		t.Errorf("without aim: Moment = %d, delay %d, buffer %d; want %d, 7 ms, 0", showAt, d, p.jitter.Delay(), 1002*ms)
	}
}

func TestMomentAimsAtBlank(t *testing.T) {
	// Vsync on a 125 Hz display (blanks 8 ms apart) and a 100 Hz sim. A
	// frame's present is predicted at the first blank, on the grid of the
	// recent presents, at or after its decision plus the time to be ready
	// (the 97th percentile of recent frames') plus 1 ms (an eighth of an
	// interval); the moment it shows is that blank less the median lead
	// from decision to present. A frame ready more than half an interval
	// before its blank is held until then (a wait spinning its last 0.3
	// ms), so that it cannot catch the blank before. The jitter buffer
	// learns each new snapshot's lateness against that moment: the third
	// frame's present is predicted 3 ms sooner than the typical one, so
	// its snapshot 5 ms late counts as 2 ms and the delay stays at 4 ms.
	clk := &fakeClock{}
	p := New(Config{Hz: 100, VSync: true, Aim: true, Clock: clk, Finish: clk.finish})
	p.SetRefresh(125)
	prev := tick(98, 0)
	var delay int64
	for i, f := range []struct {
		decide  int64
		curr    *snapshot.Snapshot
		ready   int64 // the frame's GL calls are made
		present int64 // the swap returned
		showAt  int64 // the predicted present less the lead
		delay   int64
		sleeps  []sleep
	}{
		// Nothing presented yet: the present is predicted at the decision.
		{1000 * ms, tick(99, 4*ms), 1002 * ms, 1008 * ms, 1000 * ms, 4 * ms, nil},
		// Ready 2 ms, the lead 8: the blank at or after 1012 is 1016.
		{1009 * ms, tick(100, 4*ms), 1010 * ms, 1016 * ms, 1008 * ms, 4 * ms, []sleep{{1012 * ms, 300 * us}}},
		// Ready 2 ms (of 2 and 1), the lead 7: 1024; the frame misses it.
		{1020 * ms, tick(101, 5*ms), 1026 * ms, 1032 * ms, 1017 * ms, 4 * ms, nil},
		// Ready 6 ms (of 2, 1, 6), the lead 8 (of 8, 7, 12): 1040.
		{1033 * ms, tick(102, 4*ms), 1035 * ms, 1040 * ms, 1032 * ms, 4 * ms, []sleep{{1036 * ms, 300 * us}}},
	} {
		p.Start()
		var showAt int64
		showAt, delay = p.Moment(prev, f.curr, true, f.decide, delay)
		if showAt != f.showAt || delay != f.delay {
			t.Errorf("frame %d: Moment = %d, delay %d; want %d, %d", i+1, showAt, delay, f.showAt, f.delay)
		}
		clk.now = f.ready
		ready, hold := p.BeforeSwap(f.decide, f.decide, true)
		if got := clk.took(); ready != f.ready || hold != 0 || !slices.Equal(got, f.sleeps) {
			t.Errorf("frame %d: BeforeSwap = %d, hold %d, slept %v; want %d, 0, %v", i+1, ready, hold, got, f.ready, f.sleeps)
		}
		p.Presented(f.decide, ready, f.present, true)
		prev = f.curr
	}
	if synced, hz := p.VSyncSynced(); !synced || hz != 125 {
		t.Errorf("VSyncSynced = %v, %d; want true, 125", synced, hz)
	}
}

// frameWork is how one frame of a test on a fake clock takes its time:
// it takes its snapshots poll ns after Start returns, its GL work is done
// gpu ns after its calls (in Finish), and its swap returns swap ns after
// it is called.
type frameWork struct{ poll, gpu, swap int64 }

// frameTimes is what one frame did: when it decided, was ready to swap
// and presented, the hold in use, and the clock's sleeps.
type frameTimes struct {
	decide, ready, hold, present int64
	sleeps                       []sleep
}

// runFrame runs one frame that draws the world, as the app's frame asks
// the Pacer, without a moment (the cap and the hold do not look at it).
func runFrame(p *Pacer, clk *fakeClock, w frameWork) frameTimes {
	p.Start()
	clk.now += w.poll
	now := clk.now
	decide := p.Decide(now)
	clk.gpu = w.gpu
	ready, hold := p.BeforeSwap(decide, now, true)
	clk.now += w.swap
	p.Presented(decide, ready, clk.now, true)
	return frameTimes{decide, ready, hold, clk.now, clk.took()}
}

func TestCapPacesPresents(t *testing.T) {
	// A 100 FPS cap (a 10 ms grid) that paces presents. Frames poll for
	// 0.2 ms, work 3 ms and swap in 0.5 ms; each is timed from its place
	// on the grid. The first 4 frames only start on the grid: the hold
	// learns nothing from them, and what it holds them to (the last
	// frame's lateness less 1 ms) is shorter than their work. The fifth sets
	// the lead to the 99th percentile of the work plus 0.5 ms (3.5 ms, under
	// the period less 1 ms and the swap) and holds its swap to it. From
	// then on a frame starts its lead before its deadline (a sleep that
	// spins 0.3 ms) and holds its swap to the deadline (a sleep that
	// spins 1 ms). A frame whose work (6 ms) overruns its lead is not
	// held: it swaps when its work is done, and the lead moves 0.25 ms
	// toward the new 99th percentile. The frame after it keeps its
	// lateness less 1 ms (5.2 ms) instead of jumping back to the lead.
	clk := &fakeClock{now: 1000 * ms}
	p := New(Config{Hz: 100, FPSCap: 100, CapPaced: CapPaced(100, false, 0, true), Aim: true, Clock: clk, Finish: clk.finish})
	for i, f := range []struct {
		gpu  int64
		want frameTimes
	}{
		{3 * ms, frameTimes{1000 * ms, 1003_200 * us, 0, 1003_700 * us, nil}},
		{3 * ms, frameTimes{1010 * ms, 1013_200 * us, 2200 * us, 1013_700 * us, []sleep{{1010 * ms, 300 * us}}}},
		{3 * ms, frameTimes{1020 * ms, 1023_200 * us, 2200 * us, 1023_700 * us, []sleep{{1020 * ms, 300 * us}}}},
		{3 * ms, frameTimes{1030 * ms, 1033_200 * us, 2200 * us, 1033_700 * us, []sleep{{1030 * ms, 300 * us}}}},
		{3 * ms, frameTimes{1040 * ms, 1043_500 * us, 3500 * us, 1044 * ms, []sleep{{1040 * ms, 300 * us}, {1043_500 * us, 1 * ms}}}},
		{3 * ms, frameTimes{1046_500 * us, 1050 * ms, 3500 * us, 1050_500 * us, []sleep{{1046_500 * us, 300 * us}, {1050 * ms, 1 * ms}}}},
		{6 * ms, frameTimes{1056_500 * us, 1062_700 * us, 3750 * us, 1063_200 * us, []sleep{{1056_500 * us, 300 * us}}}},
		{3 * ms, frameTimes{1066_250 * us, 1071_450 * us, 5200 * us, 1071_950 * us, []sleep{{1066_250 * us, 300 * us}, {1071_450 * us, 1 * ms}}}},
	} {
		got := runFrame(p, clk, frameWork{poll: 200 * us, gpu: f.gpu, swap: 500 * us})
		if !equalTimes(got, f.want) {
			t.Errorf("frame %d: %+v, want %+v", i+1, got, f.want)
		}
	}
	if p.Hold() != 5200*us {
		t.Errorf("Hold = %d, want the last frame's 5.2 ms", p.Hold())
	}

	// Work of 9 ms, more than the cap leaves (the period less 1 ms for the
	// start, less the swap's 0.5 ms): the lead climbs from 4 ms by 0.25 ms
	// a frame and stops at 8.5 ms after 18 frames, not at the work's 9.5
	// ms. The deadlines stay 10 ms apart: while the lead climbs, each
	// frame starts and decides 0.25 ms further ahead of its deadline than
	// the one before; then each starts 8.5 ms ahead of it.
	var last frameTimes
	for i := range 30 {
		got := runFrame(p, clk, frameWork{poll: 200 * us, gpu: 9 * ms, swap: 500 * us})
		want := int64(10 * ms)
		if i < 19 {
			want -= 250 * us
		}
		if i > 0 && got.decide-last.decide != want {
			t.Errorf("slow frame %d decided %d after the one before, want %d", i+1, got.decide-last.decide, want)
		}
		last = got
	}
	if l := p.hold.Lead(); l != 8500*us {
		t.Errorf("under slow work the lead is %d, want 8.5 ms", l)
	}
	clk.now += 100 * us
	p.Start()
	if got, want := clk.took(), []sleep{{last.decide + 10*ms, 300 * us}}; !slices.Equal(got, want) {
		t.Errorf("under slow work Start slept %v, want %v", got, want)
	}

	// A frame that shows no world (before the first snapshot) is not
	// held: its work is not waited for, and it swaps at once.
	clk.gpu = 3 * ms
	now := clk.now
	if ready, hold := p.BeforeSwap(p.Decide(now), now, false); ready != now || hold != 0 || clk.took() != nil {
		t.Errorf("a frame that drew nothing: BeforeSwap = %d, hold %d; want %d, 0 and no wait", ready, hold, now)
	}
}

func equalTimes(a, b frameTimes) bool {
	return a.decide == b.decide && a.ready == b.ready && a.hold == b.hold && a.present == b.present && slices.Equal(a.sleeps, b.sleeps)
}

func TestPresentHoldSteps(t *testing.T) {
	// -present-hold without a cap: frames start 10 ms apart, poll for 0.2
	// ms and swap in 0.5 ms. The first 4 are not learnt from (the hold
	// keeps the last frame's lateness less 1 ms, shorter than their 2 ms
	// of work); the fifth sets the lead to the 75th percentile of the work
	// plus 0.5 ms at once (2.5 ms), and a frame done before its lead waits
	// for it. When the work rises to 4 ms the lead climbs to 4.5 ms by at
	// most 0.25 ms a frame; the frames are late meanwhile (swapped when
	// done), until the lead passes their work. When the work falls to 2
	// ms it takes 26 frames for the 75th percentile to follow, and then
	// the lead comes down 0.25 ms a frame, each frame held to it.
	clk := &fakeClock{}
	p := New(Config{Hz: 100, PresentHold: true, Clock: clk, Finish: clk.finish})
	frame := 0
	for _, f := range []struct {
		n         int   // frames alike
		gpu, hold int64 // hold: the lead the frames are held to
		held      bool  // a frame waits for it after its work
	}{
		{1, 2 * ms, 0, false},
		{3, 2 * ms, 1 * ms, false},
		{1, 2 * ms, 2500 * us, true},
		{1, 4 * ms, 2750 * us, false},
		{1, 4 * ms, 3 * ms, false},
		{1, 4 * ms, 3250 * us, false},
		{1, 4 * ms, 3500 * us, false},
		{1, 4 * ms, 3750 * us, false},
		{1, 4 * ms, 4 * ms, false}, // its work is done as the lead is up
		{1, 4 * ms, 4250 * us, true},
		{2, 4 * ms, 4500 * us, true},
		{25, 2 * ms, 4500 * us, true},
		{1, 2 * ms, 4250 * us, true},
		{1, 2 * ms, 4 * ms, true},
		{1, 2 * ms, 3750 * us, true},
		{1, 2 * ms, 3500 * us, true},
		{1, 2 * ms, 3250 * us, true},
		{1, 2 * ms, 3 * ms, true},
		{1, 2 * ms, 2750 * us, true},
		{3, 2 * ms, 2500 * us, true},
	} {
		for range f.n {
			frame++
			clk.now = 1000*ms + int64(frame)*10*ms
			d := clk.now + 200*us // no cap: the frame decides as it takes its snapshots
			got := runFrame(p, clk, frameWork{poll: 200 * us, gpu: f.gpu, swap: 500 * us})
			want := frameTimes{d, d + f.gpu, f.hold, d + f.gpu + 500*us, nil}
			if f.held {
				want.ready, want.present = d+f.hold, d+f.hold+500*us
				want.sleeps = []sleep{{d + f.hold, 1 * ms}}
			}
			if !equalTimes(got, want) {
				t.Errorf("frame %d: %+v, want %+v", frame, got, want)
			}
		}
	}
}

func TestEmulatedBlanks(t *testing.T) {
	// -emulate-vsync 125: blanks every 8 ms on the monotonic clock from
	// the first frame's end of work (at 1002 ms), whatever the display's
	// refresh. Each frame finishes its work and swaps at the first blank
	// after both its work's end (one done on a blank waits for the next)
	// and half an interval before the blank its moment was aimed at; it
	// presents 0.5 ms later. The swap waits in a sleep that spins 1 ms.
	clk := &fakeClock{}
	p := New(Config{Hz: 100, EmulateHz: 125, Aim: true, Clock: clk, Finish: clk.finish})
	p.SetRefresh(60)
	prev, curr := tick(99, 0), tick(100, 0)
	for i, f := range []struct {
		decide, gpu int64
		blank       int64 // the swap's wait
	}{
		{1000 * ms, 2 * ms, 1010 * ms},
		{1011 * ms, 2 * ms, 1018 * ms}, // aimed at 1018.5
		{1019 * ms, 6 * ms, 1026 * ms}, // aimed at 1026.5
		// Ready 6 ms (of 2, 2, 6) after deciding: aimed at 1042.5, two
		// blanks on, it does not swap at 1034 although done by then.
		{1029 * ms, 1 * ms, 1042 * ms},
		{1043 * ms, 7 * ms, 1058 * ms}, // done on the blank at 1050
	} {
		clk.now = f.decide
		p.Start()
		p.Moment(prev, curr, false, f.decide, 0)
		clk.gpu = f.gpu
		ready, hold := p.BeforeSwap(f.decide, f.decide, true)
		want := []sleep{{f.blank, 1 * ms}}
		if got := clk.took(); ready != f.decide+f.gpu || hold != 0 || !slices.Equal(got, want) {
			t.Errorf("frame %d: BeforeSwap = %d, hold %d, slept %v; want %d, 0, %v", i+1, ready, hold, got, f.decide+f.gpu, want)
		}
		clk.now += 500 * us
		p.Presented(f.decide, ready, clk.now, true)
	}
	if synced, hz := p.VSyncSynced(); !synced || hz != 125 {
		t.Errorf("VSyncSynced = %v, %d; want true, 125", synced, hz)
	}
}
