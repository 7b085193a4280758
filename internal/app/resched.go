package app

import (
	"runtime"

	"github.com/tandem-engine/tandem/snapshot"
)

// rescheduleEvery is how often a frame loop lets the Go scheduler run its
// goroutine again: under forcePreemptNS, the 10 ms after which the
// runtime's sysmon acts on a goroutine that has not been rescheduled.
const rescheduleEvery = 5_000_000 // 5 ms

// rescheduler lets the scheduler reschedule the render thread's goroutine,
// between frames, once rescheduleEvery has passed since it last did. A
// render loop blocks only inside cgo calls, so without it the runtime
// never reschedules it: every 10 ms sysmon counts it as stuck and takes
// its P back from the cgo call it is in, and each time it does, sysmon
// falls back to its fastest polling (every 20 µs) for the next
// millisecond and more. That kept sysmon's thread busy thousands of times
// a second, on the core the X server and the sim need
// (docs/results/2026-11-28-scaling-auto.md#sysmon). A Gosched of the
// locked goroutine hands its P to another thread and takes it back: two
// thread wake-ups, then sysmon sleeps long again.
type rescheduler struct{ last int64 }

// after reschedules if rescheduleEvery has passed since the last time;
// now is the time the frame ended.
func (r *rescheduler) after(now int64) {
	if now-r.last < rescheduleEvery {
		return
	}
	runtime.Gosched()
	r.last = snapshot.Now()
}
