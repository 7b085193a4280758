package app

import (
	"testing"

	"github.com/tandem-engine/tandem/snapshot"
)

// TestRescheduler checks that a frame lets the scheduler in once
// rescheduleEvery has passed since it last did, and not before.
func TestRescheduler(t *testing.T) {
	r := rescheduler{last: 100}
	r.after(100 + rescheduleEvery - 1)
	if r.last != 100 {
		t.Fatalf("rescheduled %d ns after the last time: last %d", rescheduleEvery-1, r.last)
	}
	before := snapshot.Now()
	r.after(100 + rescheduleEvery)
	if r.last < before {
		t.Fatalf("not rescheduled %d ns after the last time: last %d, before %d", rescheduleEvery, r.last, before)
	}
}
