//go:build cgo

package app

import (
	"context"
	"fmt"
	"os"

	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/physics"
	"github.com/tandem-engine/tandem/replay"
	"github.com/tandem-engine/tandem/snapshot"
)

// The run's pieces around the loop: the game and the renderer it is
// drawn with, the recording's watch, and a stuck stop's last words.

// lastWords is a stop's last words when the render thread is stuck in a frame
// past the grace (a frame of a million 512 px sprites takes minutes under
// llvmpipe): on the watchdog's goroutine it stops the sim thread, ends
// the recording with the state it reached and hands the summary to
// opts.Last. It reads the render thread's records, and ends its figures,
// without a lock: that thread is inside one frame and writes none of
// them until the frame ends, and the process exits right after.
func (a *app) lastWords(stopSim func()) {
	end := snapshot.Now()
	stopSim()
	if err := a.runner.Wait(); err != nil {
		fmt.Fprintf(os.Stderr, "tandem: %v\n", err)
	}
	a.stoppedBy = StopSignal
	if a.recorder != nil {
		st := a.runner.Stats()
		a.recErr = a.recorder.Close(replay.Checkpoint{Tick: st.Ticks, Hash: a.game.Hash()}, a.stoppedBy)
	}
	if a.opts.Last == nil {
		return
	}
	sum := a.summarize(a.records(end))
	if a.recErr != nil {
		sum.RecordError = a.recErr.Error()
	}
	sum.MaxRSSMB = maxRSSMB()
	a.opts.Last(sum)
}

// watchRecording reports a write error of the recording when it
// happens: on stderr, and on the HUD. The run goes on; the file holds the
// run up to the error, and the summary and the exit code say so.
func (a *app) watchRecording(ctx context.Context) {
	select {
	case <-a.recorder.Failed():
	case <-ctx.Done():
		return
	}
	err := a.recorder.Err()
	fmt.Fprintf(os.Stderr, "tandem: -record %s: %v: the run goes on; the recording holds it up to here\n", a.opts.Record, err)
	msg := []byte(err.Error())
	a.recFailed.Store(&msg)
}

func (a *app) newGame(level *physics.Level) error {
	fw, fh := a.win.FramebufferSize()
	g, err := a.opts.Game.NewSim(SimConfig(a.opts, level, fw, fh))
	if err != nil {
		return err
	}
	a.game, a.look = g, g.Look()
	a.keys = newBindings(a.look.Bindings)
	return nil
}

func (a *app) newRenderer() (err error) {
	defer func() {
		if err != nil {
			a.deleteRenderer()
		}
	}()
	if a.atlas, err = gl.NewTexture(a.art.atlas.Image, true); err != nil {
		return err
	}
	// Room for what Setup spawned and reserved, and some to grow into.
	n := a.game.Slots() + 256
	if a.batch, err = gl.NewSpriteBatch(n, a.atlas, a.art.frames); err != nil {
		return err
	}
	t := a.look.Tiles
	if a.tiles, err = gl.NewTileLayer(gl.TileGrid{W: t.W, H: t.H, Size: physics.TileSize, Frames: t.Frames}, a.atlas, a.art.frames); err != nil {
		return err
	}
	if a.quads, err = gl.NewQuadBatch(4096, a.atlas, a.art.frames); err != nil {
		return err
	}
	a.hud = newHUD(a.art)
	return nil
}

func (a *app) deleteRenderer() {
	if a.quads != nil {
		a.quads.Delete()
	}
	if a.tiles != nil {
		a.tiles.Delete()
	}
	if a.batch != nil {
		a.batch.Delete()
	}
	if a.atlas != nil {
		a.atlas.Delete()
	}
	a.quads, a.tiles, a.batch, a.atlas = nil, nil, nil, nil
}

// replayReport checks the replay that just stopped against its
// recording. After the sim thread has stopped.
func (a *app) replayReport() *replayReport {
	rec := a.opts.Replay.Rec
	r := &replayReport{File: a.opts.Replay.File, EndTick: rec.End(), Complete: rec.Complete, LostBytes: rec.Lost,
		Checkpoints: a.verifier.Checked(), GameFlags: rec.Header.Flags}
	err := VerifyReplay(rec, a.verifier, a.runner.Stats().Ticks, a.game.Hash(), a.stoppedBy)
	if want, _, bad := a.verifier.Mismatch(); bad {
		r.Mismatch = &want.Tick
	}
	r.Verified = err == nil
	if err != nil {
		r.Error = err.Error()
	}
	return r
}
