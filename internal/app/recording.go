//go:build cgo

package app

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"

	"github.com/tandem-engine/tandem/physics"
	"github.com/tandem-engine/tandem/replay"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/window"
)

// recording is a run's record and replay: the recording being written
// (-record), and the replay's checker.
type recording struct {
	writer   *replay.Writer
	verifier *replay.Verifier
	err      error // closing the recording failed: reported at exit
	// failed is why the recording stopped writing during the run (a full
	// disk), for the HUD; nil: it did not.
	failed atomic.Pointer[[]byte]
}

// config is the runner's configuration for a run of o: a replay's
// script and checker, or a plain run's tick rate.
func (r *recording) config(o Options) simthread.Config {
	if o.Replay.Rec == nil {
		return simthread.Config{Hz: o.World.Hz}
	}
	r.verifier = o.Replay.Rec.NewVerifier()
	return o.Replay.Rec.Config(r.verifier)
}

// create starts the recording o asks for, of a run on level in win, and
// has cfg record into it.
func (r *recording) create(o Options, level *physics.Level, win *window.Window, cfg *simthread.Config) error {
	if o.Record == "" {
		return nil
	}
	fw, fh := win.FramebufferSize()
	w, err := replay.Create(o.Record, recordHeader(o, level, max(fw, 64), max(fh, 64)))
	if err != nil {
		return err
	}
	r.writer = w
	cfg.Recorder, cfg.CheckpointEvery = w, o.World.Hz
	return nil
}

// end ends the recording once the sim has stopped: with the state the
// run ended on, after ticks, whose hash it reads, and why it stopped;
// or, when the sim is stuck inside a tick, cut at the ticks it holds,
// without the final state it never reached (its world is not read).
func (r *recording) end(stuck bool, ticks uint64, hash func() uint64, stoppedBy string) {
	switch {
	case r.writer == nil:
	case stuck:
		r.err = r.writer.Cut()
	default:
		r.err = r.writer.Close(replay.Checkpoint{Tick: ticks, Hash: hash()}, stoppedBy)
	}
}

// watch reports a write error of the recording when it happens: on
// stderr, and on the HUD. The run goes on; the file holds the run up to
// the error, and the summary and the exit code say so.
func (r *recording) watch(ctx context.Context, name string) {
	select {
	case <-r.writer.Failed():
	case <-ctx.Done():
		return
	}
	err := r.writer.Err()
	fmt.Fprintf(os.Stderr, "tandem: -record %s: %v: the run goes on; the recording holds it up to here\n", name, err)
	msg := []byte(err.Error())
	r.failed.Store(&msg)
}

// failure is why the recording stopped writing during the run, nil
// while it writes. Any thread.
func (r *recording) failure() []byte {
	if m := r.failed.Load(); m != nil {
		return *m
	}
	return nil
}

// report checks the replay o, which just stopped after ticks at the
// state hash for stoppedBy, against its recording. After the sim thread
// has stopped.
func (r *recording) report(o ReplayOptions, ticks, hash uint64, stoppedBy string) *replayReport {
	rec, v := o.Rec, r.verifier
	out := &replayReport{File: o.File, EndTick: rec.End(), Complete: rec.Complete, LostBytes: rec.Lost,
		Checkpoints: v.Checked(), GameFlags: rec.Header.Flags}
	err := VerifyReplay(rec, v, ticks, hash, stoppedBy)
	if want, _, bad := v.Mismatch(); bad {
		out.Mismatch = &want.Tick
	}
	out.Verified = err == nil
	if err != nil {
		out.Error = err.Error()
	}
	return out
}
