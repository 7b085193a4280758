package snapshot

import (
	"github.com/tandem-engine/tandem/internal/mallocs"
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
	// past Max; one outlier in 128 does not (the 99th percentile leaves
	// it out), two do.
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
	if d := j.Observe(30 * ms); d != 10*ms {
		t.Fatalf("30 ms lateness: delay %d, want the bound, 10 ms", d)
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
		p.Observe(now, now+lead)
		now += 10 * ms
	}
	if got := p.Predict(now); got != now+5*ms {
		t.Fatalf("predicted %d, want now + 5 ms = %d", got, now+5*ms)
	}

	// With vsync: presents on a 16.667 ms grid whatever the frame's
	// start; the prediction is the next blank on that grid.
	v := PresentPredictor{VSync: true}
	const period = 16_666_667
	for k := int64(1); k <= 40; k++ {
		present := k * period
		decide := present - 3*ms - (k%5)*ms // decisions wander in the interval
		v.Observe(decide, present)
	}
	if v.Period() != period {
		t.Fatalf("period %d, want %d", v.Period(), period)
	}
	last := int64(40 * period)
	for _, now := range []int64{last + ms, last + 10*ms, last + period + ms} {
		got := v.Predict(now)
		if (got-last)%period != 0 || got < now+v.Lead() || got-(now+v.Lead()) >= period {
			t.Fatalf("decide at %d: predicted %d, want the first blank at or after %d", now, got, now+v.Lead())
		}
	}
}

func TestPacingAllocs(t *testing.T) {
	var j JitterBuffer
	var p PresentPredictor
	j.Observe(1)
	p.Observe(1, 2)
	n := mallocs.Fewest(3, func() {
		for i := range int64(10_000) {
			j.Observe(i % 7 * ms)
			p.Observe(i*ms, i*ms+3*ms)
			p.Predict(i * ms)
		}
	})
	if n != 0 {
		t.Fatalf("%d allocations in 10,000 observations", n)
	}
}
