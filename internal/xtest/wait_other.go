//go:build !linux

package xtest

import "time"

// waiter is a Runner's sleep: a timer, or the stop channel wake closes.
type waiter struct {
	timer *time.Timer
	stop  chan struct{}
}

func newWaiter() (*waiter, error) {
	return &waiter{timer: time.NewTimer(time.Hour), stop: make(chan struct{})}, nil
}

// sleep waits d, or until wake; it reports whether wake came.
func (w *waiter) sleep(d time.Duration) bool {
	w.timer.Reset(d)
	select {
	case <-w.stop:
		return true
	case <-w.timer.C:
		return false
	}
}

// wake ends the sleep under way, or the next one; any goroutine.
func (w *waiter) wake() { close(w.stop) }

// close stops the timer, once the runner no longer sleeps.
func (w *waiter) close() { w.timer.Stop() }
