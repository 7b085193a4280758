package simthread

import (
	"context"
	"math"
	"runtime/trace"
)

// One tick on the sim thread: the input due, the game's step, the
// publish, and the figures the summary reads.

// drain applies, in order, every queued event that belongs to the next
// tick's window: stamped at or before both the tick's due time and now.
// Control events move the due time, so the limit is recomputed each time.
func (r *Runner) drain(now int64) {
	for {
		e, ok := r.queue.peek()
		if !ok || e.Time > min(r.sched.Due(), now) {
			return
		}
		r.apply(e)
		r.queue.pop()
	}
}

// lateEvent reports whether e's tick has already run: the event applies
// to the first tick due at or after its stamp, and the last tick run was
// due at or after it. It is then applied at the next tick, and counted.
func (r *Runner) lateEvent(e *Event) bool {
	return r.sched.Tick() > 0 && !r.sched.Paused() && e.Time <= r.lastDue
}

func (r *Runner) apply(e *Event) {
	if r.lateEvent(e) {
		r.late++
	}
	if r.cfg.Log != nil {
		r.cfg.Log.input(InputRecord{Stamp: e.Time, Tick: r.sched.Tick(), Kind: e.Kind})
	}
	if r.cfg.Recorder != nil {
		r.cfg.Recorder.Applied(r.sched.Tick(), *e)
	}
	switch e.Kind {
	case EventButton, EventPointer, EventAxis:
		if r.cfg.Script == nil {
			r.input.apply(e)
		}
	case EventPause:
		r.pause(e.Time)
	case EventResume:
		r.sched.Resume(e.Time)
	case EventTogglePause:
		if r.sched.Paused() {
			r.sched.Resume(e.Time)
		} else {
			r.pause(e.Time)
		}
	case EventStep:
		r.sched.Step(e.Time)
	case EventScale:
		r.sched.SetScale(e.Time, e.Scale)
	}
}

// pause stops the schedule and republishes the current state as paused, so
// the renderer shows it fully instead of waiting for a successor.
func (r *Runner) pause(t int64) {
	r.sched.Pause(t)
	if r.sched.Tick() > 0 {
		r.publish(t, t)
	}
}

// tick runs one fixed tick and publishes its state. It is the unit a
// profiler label wraps, and with tracing on a trace task (so that Go's
// task views show each tick) holding a region of the same name.
func (r *Runner) tick(now int64) {
	if trace.IsEnabled() {
		ctx, task := trace.NewTask(context.Background(), "tick")
		defer task.End()
		defer trace.StartRegion(ctx, "tick").End()
	}
	due := r.sched.Due()
	r.lastDue = due
	if late := now - due; late > r.lateMax {
		r.lateMax = late
	}
	k, start := r.sched.Tick(), now
	if r.cfg.Log != nil {
		// In a catch-up burst, now is the wake's time: read when this
		// tick really starts.
		start = r.clock.Now()
	}
	r.scripted(k)
	r.sim.Step(r.input.take())
	r.sched.Advance()
	// A tick that left the sim more than MaxLag behind (every tick over
	// its budget: overload) has the clamp drop the time now rather than at
	// the next advance, so that Next is when the next tick is really due:
	// the renderer then blends each pair over the wall time the sim really
	// took, as smooth slow motion, instead of reaching each snapshot at
	// its promised time and holding it until the late successor comes.
	if r.sched.Clamp(r.clock.Now(), r.cfg.MaxLag) > 0 {
		r.clamps++
	}
	r.checkpoint(k + 1)
	next := r.sched.Due()
	if next == math.MaxInt64 {
		next = due // paused: nothing follows, show this state as it is
	}
	published := r.publish(due, next)
	r.window.add(published, r.sched.SimTime(r.sched.Tick()))
	if r.cfg.Log != nil {
		r.cfg.Log.tick(TickRecord{Tick: k, Due: due, Start: start, End: published})
	}
}

// publish fills the next ring buffer from the sim, publishes it, and
// returns when it did.
func (r *Runner) publish(due, next int64) int64 {
	s := r.ring.Begin()
	r.sim.Publish(s)
	if n := s.Sprites.Len(); n > r.reserved {
		// The world grew (or this is the first publish): make room in
		// every ring buffer now rather than at each one's first use.
		r.ring.Reserve(n)
		r.reserved = n
	}
	k := r.sched.Tick()
	s.Tick = k
	s.SimTime = r.sched.SimTime(k)
	s.Time, s.Next = due, next
	s.Paused = r.sched.Paused()
	s.TimeScale = r.window.scale()
	if s.Paused {
		s.TimeScale = 0
	}
	s.StateHash = 0
	if r.cfg.HashEvery > 0 && k%uint64(r.cfg.HashEvery) == 0 {
		s.StateHash = r.sim.Hash()
	}
	t := r.clock.Now()
	s.Published = t
	if r.cfg.Published != nil {
		r.cfg.Published(s)
	}
	r.ring.Publish() // s is the reader's from here on
	return t
}

// publishStats makes the loop's totals visible to other goroutines.
func (r *Runner) publishStats() {
	k := r.sched.Tick()
	r.st.ticks.Store(k)
	r.st.simTime.Store(r.sched.SimTime(k))
	sc := r.window.scale()
	if r.sched.Paused() {
		sc = 0
	}
	r.st.scale.Store(math.Float64bits(sc))
	c := r.sched.Scale()
	r.st.chosen.Store(uint64(c.Num)<<32 | uint64(c.Den))
	r.st.paused.Store(r.sched.Paused())
	r.st.dropped.Store(r.sched.Dropped())
	r.st.clamps.Store(r.clamps)
	r.st.capped.Store(r.capped)
	r.st.lateMax.Store(r.lateMax)
	r.st.inputLate.Store(r.late)
	r.st.ended.Store(r.ended())
}
