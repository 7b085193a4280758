//go:build cgo

package app

import (
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/mallocs"
	"github.com/tandem-engine/tandem/snapshot"
)

func TestDelayLine(t *testing.T) {
	// Frames that see the ring's four newest snapshots, a tick at a time,
	// keep copies going back 160 ms at 60 Hz: for a moment 150 ms back
	// the interpolator gets the pair of consecutive ticks whose newer is
	// due by then and whose successor is not, and once warm the copying
	// allocates nothing.
	const tick = int64(time.Second / 60)
	ring := make([]*snapshot.Snapshot, 20+3*180)
	for k := range ring {
		s := &snapshot.Snapshot{Tick: uint64(k + 1), Time: int64(k+1) * tick, Next: int64(k+2) * tick}
		s.Sprites.Resize(100)
		s.Sprites.X[0] = float32(k + 1)
		ring[k] = s
	}
	hist := func(k int) (h [snapshot.History]*snapshot.Snapshot) {
		for i := range h {
			h[i] = ring[max(k-(snapshot.History-1-i), 0)]
		}
		return h
	}
	l := newDelayLine(160*time.Millisecond, 60, nil)
	for k := range 20 {
		l.add(hist(k))
	}
	// The quietest of three runs of 180 frames: the count is the whole
	// process's, and under -race its runtime allocates now and then.
	next := 20
	allocs := mallocs.Fewest(3, func() {
		for k := next; k < next+180; k++ {
			l.add(hist(k))
			now := ring[k].Time
			a, b := snapshot.Pair(l.window(now-150_000_000), now-150_000_000)
			at := now - 150_000_000
			if b.Tick != a.Tick+1 || b.Time > at || b.Next <= at || a.Sprites.X[0] != float32(a.Tick) {
				t.Fatalf("at tick %d, 150 ms back: pair %d, %d (times %d, %d)", k+1, a.Tick, b.Tick, a.Time, b.Time)
			}
		}
		next += 180
	})
	if allocs != 0 {
		t.Errorf("%d allocations copying 180 snapshots once warm, in the quietest of three runs", allocs)
	}
}

// TestFramePeriod: -av-lock centres the sound in the spread of a paced
// frame rate's frames, half of the period framePeriod gives: the cap's,
// the emulated refresh's, the slower of both, none at full rate.
func TestFramePeriod(t *testing.T) {
	for _, c := range []struct {
		p    PacingOptions
		want time.Duration
	}{
		{PacingOptions{}, 0},
		{PacingOptions{FPSCap: 36}, time.Second / 36},
		{PacingOptions{EmulateHz: 60}, time.Second / 60},
		{PacingOptions{FPSCap: 36, EmulateHz: 60}, time.Second / 36},
		{PacingOptions{FPSCap: 120, EmulateHz: 60}, time.Second / 60},
	} {
		if got := framePeriod(c.p); got != c.want {
			t.Errorf("framePeriod(%+v) = %v; want %v", c.p, got, c.want)
		}
	}
}
