package simthread

// Recorder receives what a recording needs, on the thread that runs the
// loop: every input event as it was applied, with the tick that saw it,
// and a checkpoint of the state hash at regular ticks. Both are called
// between ticks, so they must return at once and must not allocate; a
// recorder hands the records to another goroutine to write.
type Recorder interface {
	// Applied reports event e applied before tick tick ran: the first
	// state that can show its effect has tick+1 ticks. Live events land
	// at the tick their stamp belongs to, or at the next one when late
	// (Stats.InputLate); the recording stores the tick it really was.
	Applied(tick uint64, e Event)
	// Checkpoint reports the state hash after tick ticks.
	Checkpoint(tick, hash uint64)
	// Ticked reports that the state now has ticks ticks, after every
	// tick (and after the Checkpoint of that tick, if any): a recording
	// cut short knows from it how far its input is complete.
	Ticked(ticks uint64)
}

// Script supplies recorded input for a replay. When [Config.Script] is
// set, the loop takes its input (buttons, pointer, axes) from the script
// instead of the queue: before tick k runs it applies, in order, every
// event the script holds for k. Control events from the queue (pause,
// step, time scale) still act, so that a viewer can pause or slow a
// replay; input pushed live is counted as applied and ignored.
type Script interface {
	// At returns the input events recorded for tick k, in the order they
	// were applied. The loop calls it once per tick with k increasing by
	// one; it must not allocate.
	At(k uint64) []Event
}

// scripted and checkpoint are what the loop does around a tick for [Config.Recorder],
// [Config.Script] and [Config.Until]: before tick k, apply the script's
// events for k; after it, a checkpoint when one is due.
func (r *Runner) scripted(k uint64) {
	if r.cfg.Script == nil {
		return
	}
	evs := r.cfg.Script.At(k)
	for i := range evs {
		if e := &evs[i]; e.Kind.IsInput() {
			r.input.apply(e)
		}
	}
}

func (r *Runner) checkpoint(k uint64) {
	if r.cfg.Recorder == nil {
		return
	}
	if k%uint64(r.cfg.CheckpointEvery) == 0 {
		r.cfg.Recorder.Checkpoint(k, r.sim.Hash())
	}
	r.cfg.Recorder.Ticked(k)
}

// ended reports whether the loop has run the last tick Config.Until
// allows.
func (r *Runner) ended() bool {
	return r.cfg.Until > 0 && r.sched.Tick() >= r.cfg.Until
}
