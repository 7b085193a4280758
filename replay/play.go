package replay

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/tandem-engine/tandem/simthread"
)

// Script returns the recording's input events (buttons, pointer, axes) as
// a [simthread.Script]: set it as the loop's Config.Script, with
// Config.Until at [Recording.End], to replay the recording in any loop.
func (r *Recording) Script() simthread.Script {
	s := &script{ticks: make([]uint64, 0, len(r.Events)), events: make([]simthread.Event, 0, len(r.Events))}
	for _, e := range r.Events {
		if e.Event.Kind.IsInput() {
			s.ticks = append(s.ticks, e.Tick)
			s.events = append(s.events, e.Event)
		}
	}
	return s
}

// script hands out the events of each tick in turn.
type script struct {
	ticks  []uint64
	events []simthread.Event
	i      int // the first event not yet handed out
}

// At implements simthread.Script.
func (s *script) At(k uint64) []simthread.Event {
	for s.i < len(s.ticks) && s.ticks[s.i] < k {
		s.i++ // a tick the loop did not ask for (it never skips one)
	}
	j := s.i
	for j < len(s.ticks) && s.ticks[j] == k {
		j++
	}
	evs := s.events[s.i:j]
	s.i = j
	return evs
}

// Verifier checks a replay against its recording: set it as the loop's
// Config.Recorder (with Config.CheckpointEvery at the header's) and it
// compares every checkpoint the replay reaches with the recorded one.
type Verifier struct {
	points  []Checkpoint
	i       int
	checked atomic.Uint64
	first   atomic.Uint64 // the first tick whose hash differed, +1; 0 for none
	got     atomic.Uint64 // and the hash the replay had there
}

var _ simthread.Recorder = (*Verifier)(nil)

// NewVerifier returns a verifier for rec's checkpoints.
func (r *Recording) NewVerifier() *Verifier {
	return &Verifier{points: r.Checkpoints}
}

// Applied implements simthread.Recorder; a replay's input is the
// recording's, so there is nothing to check.
func (v *Verifier) Applied(uint64, simthread.Event) {}

// Ticked implements simthread.Recorder; it has nothing to check.
func (v *Verifier) Ticked(uint64) {}

// Checkpoint implements simthread.Recorder: it compares the replay's hash
// after tick ticks with the recording's. Sim thread only.
func (v *Verifier) Checkpoint(tick, hash uint64) {
	for v.i < len(v.points) && v.points[v.i].Tick < tick {
		v.i++
	}
	if v.i == len(v.points) || v.points[v.i].Tick != tick {
		return // not recorded (the file was cut short before it)
	}
	v.checked.Add(1)
	if v.points[v.i].Hash != hash && v.first.Load() == 0 {
		v.got.Store(hash)
		v.first.Store(tick + 1)
	}
}

// Checked returns how many checkpoints have been compared.
func (v *Verifier) Checked() int { return int(v.checked.Load()) }

// Mismatch returns the first checkpoint at which the replay's state
// differed from the recording's: the recorded checkpoint and the replay's
// hash there. ok is false when every checkpoint so far matched.
func (v *Verifier) Mismatch() (want Checkpoint, got uint64, ok bool) {
	t := v.first.Load()
	if t == 0 {
		return Checkpoint{}, 0, false
	}
	for _, p := range v.points {
		if p.Tick == t-1 {
			return p, v.got.Load(), true
		}
	}
	return Checkpoint{Tick: t - 1}, v.got.Load(), true
}

// Verify compares a finished replay with rec: every checkpoint v saw, and
// the final tick count and hash when rec is complete. It returns nil when
// all match, else an error naming the first tick whose state differs.
func (r *Recording) Verify(v *Verifier, ticks, hash uint64) error {
	if want, got, bad := v.Mismatch(); bad {
		return fmt.Errorf("replay: state differs at tick %d: hash %016x, recorded %016x (the first of %d checkpoints checked to differ)",
			want.Tick, got, want.Hash, v.Checked())
	}
	if ticks != r.End() {
		return fmt.Errorf("replay: ran %d ticks, the recording has %d", ticks, r.End())
	}
	if r.Complete && hash != r.Final.Hash {
		return fmt.Errorf("replay: final state at tick %d differs: hash %016x, recorded %016x", ticks, hash, r.Final.Hash)
	}
	return nil
}

// Config returns the loop configuration that replays rec: its tick rate,
// its script, its end, and v (which may be nil) checking its checkpoints.
// The caller adds its own clock, log and the like.
func (r *Recording) Config(v *Verifier) simthread.Config {
	cfg := simthread.Config{
		Hz:              r.Header.Hz,
		Script:          r.Script(),
		Until:           r.End(),
		CheckpointEvery: r.Header.CheckpointEvery,
	}
	if v != nil {
		cfg.Recorder = v
	}
	return cfg
}

// Fast replays rec on sim as fast as sim steps: the coupled loop driven by
// made-up frame times a second of sim time apart, with no clamp. It
// returns the ticks run, which fall short of rec.End only when ctx is
// cancelled. v, when not nil, checks the checkpoints on the way.
func Fast(ctx context.Context, sim simthread.Sim, rec *Recording, v *Verifier) (uint64, error) {
	if rec.End() == 0 {
		return 0, nil // nothing was recorded past the start
	}
	cfg := rec.Config(v)
	cfg.Clock = simthread.NewFakeClock(0)
	cfg.MaxLag = math.MaxInt64 / 4
	cfg.MaxCatchUp = rec.Header.Hz
	run, err := simthread.New(sim, cfg)
	if err != nil {
		return 0, err
	}
	for now := int64(0); !run.Stats().Ended && ctx.Err() == nil; {
		now += 1e9
		run.RunDue(now)
	}
	return run.Stats().Ticks, nil
}
