package simthread

import (
	"context"
)

// The pipelined loop: the sim thread runs the ticks due by each frame's
// time while the next frame draws (Start starts the decoupled loop).

// StartPipelined runs the pipelined loop, the design Bevy ships as
// "pipelined rendering": a goroutine locked to its own OS thread owns the
// sim, and runs the ticks due for frame N+1 while the render thread draws
// frame N. The two threads meet once per frame ([Runner.Meet], then
// [Runner.Hand]), so neither runs more than one frame ahead of the other.
// It stops when ctx is cancelled; call [Runner.Wait] to wait for it. The
// engine's pipelined loop, the frames' side, is internal/app's
// pipelined.go.
func (r *Runner) StartPipelined(ctx context.Context) {
	r.startSimThread(ctx, modePipelined, "StartPipelined", r.pipeline)
}

// pipeline is the pipelined loop's body: run the ticks due by each time
// handed over, and answer with how many ran.
func (r *Runner) pipeline(ctx context.Context) error {
	done := ctx.Done()
	for {
		select {
		case now := <-r.job:
			// ack has room: the render thread sends one job and takes its
			// answer before it sends the next.
			r.ack <- r.advance(now, done)
		case <-done:
			return ctx.Err()
		}
	}
}

// Meet waits until the sim thread has run the ticks due by the time last
// given to [Runner.Hand], and returns that time and the number of ticks it
// ran: the snapshots in the ring are then complete up to that time, and
// the frame shows that moment. Before the first Hand it returns 0, 0.
// Once the loop has stopped it does not wait, and returns the ticks run
// for the last Hand, if the loop took it before stopping, else 0.
// Render thread only, once per frame, before [Ring.Acquire].
func (r *Runner) Meet() (upTo int64, ran int) {
	if r.pending {
		select {
		case ran = <-r.ack:
		case <-r.done:
			// The loop has returned: exactly one of its answer and the
			// job it never took is buffered. Take it, so that the next
			// Hand has room.
			select {
			case ran = <-r.ack:
			case <-r.job:
			}
		}
		r.pending = false
	}
	return r.upTo, ran
}

// Hand gives the sim thread the frame time now: it runs the ticks due by
// then while the caller draws. Render thread only, once per frame, after
// [Runner.Meet] and [Ring.Acquire].
func (r *Runner) Hand(now int64) {
	if r.pending {
		panic("simthread: Hand without Meet")
	}
	r.job <- now
	r.pending, r.upTo = true, now
}
