//go:build linux

package xtest

import (
	"time"

	"golang.org/x/sys/unix"

	"github.com/tandem-engine/tandem/snapshot"
)

// waiter is a Runner's sleep on Linux: ppoll, on the runner's locked
// thread, of a pipe that wake writes to, with the time left as its
// timeout. The thread sleeps in the kernel and the wait allocates nothing;
// a select on a timer and a stop channel takes the runtime's sudogs and
// timer-heap slots, which it allocates now and then when the locked thread
// wakes on another P (tens of allocations over a thousand edges).
type waiter struct {
	pipe    [2]int // read end, write end
	fds     [1]unix.PollFd
	ts      unix.Timespec
	b       [1]byte
	stopped bool
}

func newWaiter() (*waiter, error) {
	w := &waiter{}
	if err := unix.Pipe2(w.pipe[:], unix.O_CLOEXEC|unix.O_NONBLOCK); err != nil {
		return nil, err
	}
	w.fds[0] = unix.PollFd{Fd: int32(w.pipe[0]), Events: unix.POLLIN}
	return w, nil
}

// sleep waits d, or until wake; it reports whether wake came.
func (w *waiter) sleep(d time.Duration) bool {
	until := snapshot.Now() + int64(d)
	for !w.stopped {
		left := until - snapshot.Now()
		if left <= 0 {
			break
		}
		w.ts = unix.NsecToTimespec(left)
		n, err := unix.Ppoll(w.fds[:], &w.ts, nil)
		switch {
		case err == unix.EINTR: // a signal (a profiler's): sleep on
		case err != nil:
			// No descriptor to wait on: a runner cannot go on without
			// its stop, so it stops.
			w.stopped = true
		case n > 0:
			w.stopped = true
			unix.Read(w.pipe[0], w.b[:])
		}
	}
	return w.stopped
}

// wake ends the sleep under way, or the next one; any goroutine.
func (w *waiter) wake() { unix.Write(w.pipe[1], []byte{1}) }

// close frees the pipe, once the runner no longer sleeps.
func (w *waiter) close() {
	unix.Close(w.pipe[0])
	unix.Close(w.pipe[1])
}
