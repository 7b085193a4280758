//go:build cgo

package app

import (
	"time"

	"github.com/tandem-engine/tandem/snapshot"
)

// delayLine is -av-lock's add-on: it keeps copies of the newest
// snapshots the frames have seen, so that a frame can show the world
// further back than the ring holds (it hands a frame its History
// newest): -av-lock shows the world the sound device's latency in the
// past, 160 ms, ten ticks at 60 Hz. Each frame copies the snapshots it
// has not seen yet (CopyFrom, into storage that grows only while the
// first copies fill it), and hands the interpolator the History copies
// around the moment it shows. Render thread only.
type delayLine struct {
	noHooks
	lead   func() int64         // the typical time from a frame's decision to its present (the pacing's)
	offset time.Duration        // the sound's: a tick's picture is to be on screen this long after its time
	copies []*snapshot.Snapshot // a ring of copies, oldest at next once full
	n      int                  // copies held
	next   int                  // where the next copy goes
	seen   uint64               // the newest tick copied
	win    [snapshot.History]*snapshot.Snapshot
}

// newDelayLine holds enough copies for a delay of d at hz ticks a second,
// and the History the interpolator reaches back through; lead is the
// pacing's typical time from a frame's decision to its present.
func newDelayLine(d time.Duration, hz int, lead func() int64) *delayLine {
	n := int(int64(d)*int64(hz)/int64(time.Second)) + snapshot.History + 2
	l := &delayLine{lead: lead, offset: d, copies: make([]*snapshot.Snapshot, n)}
	for i := range l.copies {
		l.copies[i] = &snapshot.Snapshot{}
	}
	return l
}

// rewind hands a frame showing showAt the copies around the moment a
// further delay back: the sound's offset less the typical time from
// decision to present, so that the frame is on screen when the tick's
// sound starts; it sets that delay.
func (l *delayLine) rewind(h [snapshot.History]*snapshot.Snapshot, showAt int64, delay *int64) [snapshot.History]*snapshot.Snapshot {
	*delay = int64(l.offset) - l.lead()
	l.add(h)
	return l.window(showAt - *delay)
}

// add copies the snapshots of h (the ring's newest, oldest first) that
// are newer than any copied before.
func (l *delayLine) add(h [snapshot.History]*snapshot.Snapshot) {
	for _, s := range h {
		if s == nil || (l.n > 0 && s.Tick <= l.seen) {
			continue
		}
		l.copies[l.next].CopyFrom(s)
		l.next = (l.next + 1) % len(l.copies)
		l.n = min(l.n+1, len(l.copies))
		l.seen = s.Tick
	}
}

// at returns the i-th oldest copy held.
func (l *delayLine) at(i int) *snapshot.Snapshot {
	return l.copies[(l.next-l.n+i+len(l.copies))%len(l.copies)]
}

// window returns History consecutive copies for a frame showing moment
// t: the last the newest copy due by t (the interpolator blends toward
// it, from t until its successor is due), or the oldest when none is.
// Before History copies, the oldest repeats.
func (l *delayLine) window(t int64) [snapshot.History]*snapshot.Snapshot {
	last := 0
	for i := l.n - 1; i >= 0; i-- {
		if l.at(i).Time <= t {
			last = i
			break
		}
	}
	for k := range snapshot.History {
		l.win[k] = l.at(max(last-(snapshot.History-1-k), 0))
	}
	return l.win
}
