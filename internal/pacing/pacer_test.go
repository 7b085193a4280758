package pacing

import (
	"slices"
	"testing"
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
