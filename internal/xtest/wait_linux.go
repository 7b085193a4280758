//go:build linux

package xtest

import (
	"errors"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// waiter is a Runner's sleep on Linux: a read of a pipe that wake closes,
// with the time left as the read's deadline, through the runtime's
// netpoller. While it waits, the runner's goroutine is parked and its
// thread holds no P, so the goroutines the key wakes (the frame loop's)
// run at once; a blocking ppoll would keep its P until the runtime's
// monitor took it back, which delayed them by milliseconds. It allocates
// nothing: a select on a timer and a stop channel takes the runtime's
// sudogs, which it allocates now and then when the locked thread wakes on
// another P; the pipe's read is a function made once, and the deadline
// lives in the pipe's poll descriptor.
type waiter struct {
	r, w    *os.File
	raw     syscall.RawConn
	read    func(fd uintptr) bool // made once: a closure made per call would be allocated
	b       [1]byte
	stopped bool
}

func newWaiter() (*waiter, error) {
	r, w, err := os.Pipe() // non-blocking, in the netpoller
	if err != nil {
		return nil, err
	}
	raw, err := r.SyscallConn()
	if err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	wt := &waiter{r: r, w: w, raw: raw}
	wt.read = func(fd uintptr) bool {
		_, err := unix.Read(int(fd), wt.b[:])
		if err == unix.EAGAIN {
			return false // nothing yet: wait in the netpoller
		}
		// The write end closed (a read of 0 bytes), or the pipe broke:
		// either way the runner cannot wait on, so it stops.
		wt.stopped = true
		return true
	}
	return wt, nil
}

// sleep waits d, or until wake; it reports whether wake came.
func (w *waiter) sleep(d time.Duration) bool {
	if w.stopped {
		return true
	}
	if d <= 0 {
		return false
	}
	if w.r.SetReadDeadline(time.Now().Add(d)) != nil {
		w.stopped = true // no deadline, no wait that ends: stop
		return true
	}
	switch err := w.raw.Read(w.read); {
	case err == nil:
	case errors.Is(err, os.ErrDeadlineExceeded):
	default:
		w.stopped = true
	}
	return w.stopped
}

// wake ends the sleep under way, or the next one: it closes the pipe's
// write end, which the sleep reads as the end of the pipe. Any goroutine,
// once.
func (w *waiter) wake() { w.w.Close() }

// close frees the pipe, once the runner no longer sleeps.
func (w *waiter) close() { w.r.Close() }
