package simthread

import (
	"math"
	"sync"
	"time"

	"github.com/tandem-engine/tandem/snapshot"
)

// Clock is the time source of the sim loop, in integer nanoseconds on the
// [snapshot.Now] time base.
type Clock interface {
	// Now returns the current time.
	Now() int64
	// Wait returns when Now() >= t, when wake receives, or when done is
	// closed, whichever is first. It may return early; callers re-check.
	Wait(t int64, wake, done <-chan struct{})
}

var (
	_ Clock = (*RealClock)(nil)
	_ Clock = (*FakeClock)(nil)
)

// RealClock is the monotonic clock of the process. It waits by sleeping
// until Spin before the deadline, then spinning: OS timers wake late by
// tens to hundreds of microseconds, which a 60 Hz tick can afford but a
// 1000 Hz tick cannot. Spin = 0 never spins (kinder to a 2-core machine
// whose other core rasterizes).
//
// It sleeps in slices of at most sleepSlice with time.Sleep, looking at the
// wake and done channels between them without blocking on them, instead
// of one select on a timer and both channels: a goroutine that blocks in a
// select takes a runtime sudog per channel, and a locked sim thread that
// runs on a different P each time finds the P's sudog cache empty often
// enough to allocate in steady state (-memprofile showed it; the run is in
// docs/results/2026-11-26-comment-logs.md). Only a paused loop, with no
// deadline, blocks on the channels.
//
// A RealClock is used by one goroutine (the loop's).
type RealClock struct {
	Spin  int64
	timer *time.Timer
}

// sleepSlice is the longest a RealClock sleeps before it looks at its
// channels: a stop is seen within it.
const sleepSlice = 2_000_000 // 2 ms

// DefaultSpin is the spin margin of [NewRealClock]: long enough to absorb
// the timer's usual lateness, short enough to cost little CPU at 60 Hz.
const DefaultSpin = 200_000 // 200 µs

// NewRealClock returns a real clock that spins for the last DefaultSpin.
func NewRealClock() *RealClock { return &RealClock{Spin: DefaultSpin} }

// Now returns [snapshot.Now].
func (c *RealClock) Now() int64 { return snapshot.Now() }

// Wait implements [Clock]. It does not allocate after its first call.
func (c *RealClock) Wait(t int64, wake, done <-chan struct{}) {
	for {
		d := t - snapshot.Now()
		if d <= 0 {
			return
		}
		if d > c.Spin && t != math.MaxInt64 {
			time.Sleep(time.Duration(min(d-c.Spin, sleepSlice)))
			select {
			case <-wake:
				return
			case <-done:
				return
			default:
			}
			continue
		}
		if d > c.Spin {
			if c.timer == nil {
				c.timer = time.NewTimer(time.Duration(d - c.Spin))
			} else {
				c.timer.Reset(time.Duration(d - c.Spin))
			}
			select {
			case <-c.timer.C:
			case <-wake:
				c.stop()
				return
			case <-done:
				c.stop()
				return
			}
			continue
		}
		for snapshot.Now() < t {
			select {
			case <-done:
				return
			default:
			}
		}
		return
	}
}

func (c *RealClock) stop() {
	c.timer.Stop() // Go 1.23+: Stop drains, the next Reset starts clean
}

// FakeClock is a clock that tests drive. In manual mode (the default) time
// stands still until [FakeClock.Advance] or [FakeClock.Set] moves it, and
// Wait blocks until then. With Auto set, Wait jumps time forward to its
// deadline at once, so a loop runs as fast as the CPU allows through
// simulated hours.
//
// All methods are safe for concurrent use.
type FakeClock struct {
	mu      sync.Mutex
	now     int64
	auto    bool
	waiters []fakeWaiter
	idle    *sync.Cond
}

type fakeWaiter struct {
	t  int64
	ch chan struct{}
}

// NewFakeClock returns a manual fake clock reading start.
func NewFakeClock(start int64) *FakeClock {
	c := &FakeClock{now: start}
	c.idle = sync.NewCond(&c.mu)
	return c
}

// NewAutoClock returns a fake clock reading start whose Wait advances time
// to the deadline instead of blocking.
func NewAutoClock(start int64) *FakeClock {
	c := NewFakeClock(start)
	c.auto = true
	return c
}

// Now implements [Clock].
func (c *FakeClock) Now() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves time forward by d nanoseconds (d < 0 is ignored: a
// monotonic clock never goes back).
func (c *FakeClock) Advance(d int64) {
	c.mu.Lock()
	c.setLocked(c.now + d)
	c.mu.Unlock()
}

// Set moves time forward to t (an earlier t is ignored).
func (c *FakeClock) Set(t int64) {
	c.mu.Lock()
	c.setLocked(t)
	c.mu.Unlock()
}

func (c *FakeClock) setLocked(t int64) {
	if t <= c.now {
		return
	}
	c.now = t
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.t <= t {
			close(w.ch)
		} else {
			kept = append(kept, w)
		}
	}
	c.waiters = kept
}

// Wait implements [Clock].
func (c *FakeClock) Wait(t int64, wake, done <-chan struct{}) {
	c.mu.Lock()
	if t <= c.now {
		c.mu.Unlock()
		return
	}
	if c.auto {
		c.setLocked(t)
		c.mu.Unlock()
		return
	}
	ch := make(chan struct{})
	c.waiters = append(c.waiters, fakeWaiter{t, ch})
	c.idle.Broadcast()
	c.mu.Unlock()
	select {
	case <-ch:
		return // setLocked removed us
	case <-wake:
	case <-done:
	}
	c.mu.Lock()
	for i, w := range c.waiters {
		if w.ch == ch {
			c.waiters = append(c.waiters[:i], c.waiters[i+1:]...)
			break
		}
	}
	c.mu.Unlock()
}

// BlockUntilWaiting blocks until some goroutine is inside Wait with a
// deadline after the current time: the loop has caught up and is idle.
func (c *FakeClock) BlockUntilWaiting() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.waiters) == 0 {
		c.idle.Wait()
	}
}

// Deadline returns the earliest deadline a goroutine is waiting for, and
// reports whether any is waiting.
func (c *FakeClock) Deadline() (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.waiters) == 0 {
		return 0, false
	}
	d := c.waiters[0].t
	for _, w := range c.waiters[1:] {
		d = min(d, w.t)
	}
	return d, true
}
