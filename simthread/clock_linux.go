package simthread

import (
	"golang.org/x/sys/unix"

	"github.com/tandem-engine/tandem/snapshot"
)

// sleepSlice is the longest a RealClock sleeps before it looks at its
// channels: a stop, or an event pushed to a running loop, is seen within
// it. A tick at 60 Hz or faster is one sleep; the 2 ms slices of
// time.Sleep that this replaces woke the sim thread nine times a tick,
// each wake a hand-off between the runtime's threads.
const sleepSlice = 20_000_000 // 20 ms

// defaultSpin is the kernel's default timer slack, the most a
// clock_nanosleep of a thread at normal priority is let to oversleep.
const defaultSpin = 50_000 // 50 µs

// sleeper sleeps the calling thread with clock_nanosleep on
// CLOCK_MONOTONIC. off is the monotonic clock's reading at the time base's
// zero, measured on the first sleep.
type sleeper struct {
	off int64
	ts  unix.Timespec
}

// sleepUntil sleeps until Now() is t or a signal ends the sleep early.
// It does not allocate.
func (s *sleeper) sleepUntil(t int64) {
	if s.off == 0 {
		s.off = monoOffset()
	}
	s.ts = unix.NsecToTimespec(t + s.off)
	// EINTR (the runtime's preemption signal) returns early: the caller
	// looks at the time again.
	_ = unix.ClockNanosleep(unix.CLOCK_MONOTONIC, unix.TIMER_ABSTIME, &s.ts, nil)
}

// monoOffset returns CLOCK_MONOTONIC minus [snapshot.Now], from the
// closest of a few readings of one between two of the other; it errs by
// less than that gap (a microsecond or so), which a wait's spin absorbs.
func monoOffset() int64 {
	var ts unix.Timespec
	best, off := int64(-1), int64(0)
	for range 5 {
		a := snapshot.Now()
		_ = unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
		b := snapshot.Now()
		if gap := b - a; best < 0 || gap < best {
			best, off = gap, ts.Nano()-(a+b)/2
		}
	}
	return off
}
