package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/signal"
	"time"

	"github.com/tandem-engine/tandem/internal/app"
	"github.com/tandem-engine/tandem/replay"
)

// openRecording reads o.Replay.File and sets the world's options from its
// header: the scene, level, seed, tick rate, sprite count and arena. A cut
// file is replayed as far as it goes, with a warning.
func (p *Program) openRecording(o *options, stderr io.Writer) error {
	games := p.Games
	rec, err := replay.Open(o.Replay.File)
	if err != nil {
		return err
	}
	h := rec.Header
	o.Game = nil
	var names []string
	for _, g := range games {
		in := g.Info()
		names = append(names, in.Name)
		if in.Name == h.Scene {
			o.Game, o.Info = g, in
		}
	}
	if o.Game == nil {
		return fmt.Errorf("replay: %s: recorded in scene %q, which this program does not have (it has %s)", o.Replay.File, h.Scene, orList(names))
	}
	if o.World.LevelFile != "" && o.Info.Level == nil {
		return fmt.Errorf("replay: %s: -level: scene %s takes no level", o.Replay.File, h.Scene)
	}
	o.Scene, o.World.Seed, o.World.Hz, o.World.Sprites = h.Scene, h.Seed, h.Hz, h.Sprites
	o.World.ArenaW, o.World.ArenaH = h.ArenaW, h.ArenaH
	if h.ArenaW >= 64 && h.ArenaH >= 64 {
		o.Window.Width, o.Window.Height = h.ArenaW, h.ArenaH
	}
	if o.World.LevelFile == "" && o.Info.Level != nil {
		o.World.LevelFile = h.Level
	}
	if o.World.Hz < 1 || o.World.Hz > 1000 || o.World.Sprites > 1_000_000 {
		return fmt.Errorf("replay: %s: header out of range (%d Hz, %d sprites)", o.Replay.File, o.World.Hz, o.World.Sprites)
	}
	if rec.Cut != nil {
		fmt.Fprintf(stderr, "%s replay: warning: %s\n", p.Name, rec.Cut)
	}
	if err := rec.CheckComplete(); err != nil && o.verify {
		// A verify that checks less than the file promises is a failure
		// unless the user says a cut file is what they mean to check.
		switch {
		case errors.Is(err, replay.ErrNoCheckpoint):
			return fmt.Errorf("replay: %s: -verify: the file holds no checkpoint and no end record: there is nothing to check", o.Replay.File)
		case !o.allowCut:
			return fmt.Errorf("replay: %s: -verify: the file was cut short, so its final state cannot be checked; add -allow-cut to check the %d ticks it holds", o.Replay.File, rec.End())
		}
	}
	if rec.End() == 0 && !o.fast {
		return fmt.Errorf("replay: %s: the file holds no ticks: nothing to replay", o.Replay.File)
	}
	if rec.Complete && h.Build != app.Build() {
		fmt.Fprintf(stderr, "%s replay: note: recorded by build %s, replayed by %s\n", p.Name, h.Build, app.Build())
	}
	o.Replay.Rec = rec
	return nil
}

// fastReport is the JSON line of replay -fast -json.
type fastReport struct {
	File           string  `json:"file"`
	Scene          string  `json:"scene"`
	Ticks          uint64  `json:"ticks"`
	EndTick        uint64  `json:"end_tick"`
	Seconds        float64 `json:"seconds"`
	TicksPerSecond float64 `json:"ticks_per_second"`
	Checkpoints    int     `json:"checkpoints_checked"`
	Verified       bool    `json:"verified"`
	Mismatch       *uint64 `json:"first_mismatch_tick,omitempty"`
	StateHash      string  `json:"state_hash"`
	StoppedBy      string  `json:"stopped_by"`
	// Error is why -verify failed, when it did (the exit code is 1).
	Error string `json:"error,omitempty"`
}

// runFast replays a recording with the sim alone, as fast as it steps: no
// window, no GL. Ctrl-C stops it between seconds of sim time.
func (p *Program) runFast(o options, stdout, stderr io.Writer) int {
	level, err := app.GameLevel(o.Options)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
		return exitError
	}
	g, err := o.Game.NewSim(app.SimConfig(o.Options, level, o.World.ArenaW, o.World.ArenaH))
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
		return exitError
	}
	ctx, stop := signal.NotifyContext(context.Background(), app.StopSignals...)
	defer stop()
	rec := o.Replay.Rec
	v := rec.NewVerifier()
	start := time.Now()
	ticks, err := replay.Fast(ctx, g, rec, v)
	el := time.Since(start).Seconds()
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
		return exitError
	}
	r := fastReport{File: o.Replay.File, Scene: o.Scene, Ticks: ticks, EndTick: rec.End(), Seconds: app.Round(el, 3),
		Checkpoints: v.Checked(), StateHash: fmt.Sprintf("%016x", g.Hash()), StoppedBy: app.StopEnd}
	if el > 0 {
		r.TicksPerSecond = app.Round(float64(ticks)/el, 0)
	}
	if ctx.Err() != nil {
		r.StoppedBy = app.StopSignal
	}
	code := exitOK
	verr := app.VerifyReplay(rec, v, ticks, g.Hash(), r.StoppedBy)
	if want, _, bad := v.Mismatch(); bad {
		r.Mismatch = &want.Tick
	}
	r.Verified = verr == nil
	fmt.Fprintf(stderr, "%s replay: %s: %d of %d ticks in %.2f s (%.0f ticks/s), %d checkpoints checked\n", p.Name,
		o.Replay.File, ticks, rec.End(), el, r.TicksPerSecond, r.Checkpoints)
	if verr != nil {
		fmt.Fprintf(stderr, "%s replay: %v\n", p.Name, verr)
		if o.verify {
			code = exitError
			r.Error = verr.Error()
		}
	} else if o.verify {
		fmt.Fprintf(stderr, "%s replay: verified: %s\n", p.Name, app.VerifiedWhat(rec))
	}
	if o.json {
		if err := app.WriteJSONLine(stdout, r); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
			return exitError
		}
	}
	return code
}
