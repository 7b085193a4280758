//go:build cgo

package tandem

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/tandem-engine/tandem/physics"
	"github.com/tandem-engine/tandem/replay"
)

// stopEnd is stopped_by for a replay that reached the end of its
// recording.
const stopEnd = "end"

// build returns this build's version for a recording's header: the VCS
// revision when the binary carries one.
func build() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" {
			v = s.Value
		}
	}
	return v
}

// recordHeader is what a recording of this run says about its world.
func recordHeader(o options, level *physics.Level, arenaW, arenaH int) replay.Header {
	h := replay.Header{
		Scene: o.scene, Level: o.level, Seed: o.seed, Hz: o.hz, Sprites: o.sprites,
		ArenaW: arenaW, ArenaH: arenaH, CheckpointEvery: o.hz, Build: build(),
	}
	if level != nil {
		h.LevelHash = level.Hash()
	}
	return h
}

// openRecording reads o.replayFile and sets the world's options from its
// header: the scene, level, seed, tick rate, sprite count and arena. A cut
// file is replayed as far as it goes, with a warning.
func openRecording(o *options, stderr io.Writer, games []Game) error {
	rec, err := replay.Open(o.replayFile)
	if err != nil {
		return err
	}
	h := rec.Header
	o.game = nil
	var names []string
	for _, g := range games {
		in := infoOf(g)
		names = append(names, in.Name)
		if in.Name == h.Scene {
			o.game, o.info = g, in
		}
	}
	if o.game == nil {
		return fmt.Errorf("replay: %s: recorded in scene %q, which this program does not have (it has %s)", o.replayFile, h.Scene, orList(names))
	}
	if o.level != "" && o.info.Level == nil {
		return fmt.Errorf("replay: %s: -level: scene %s takes no level", o.replayFile, h.Scene)
	}
	o.scene, o.seed, o.hz, o.sprites = h.Scene, h.Seed, h.Hz, h.Sprites
	o.arenaW, o.arenaH = h.ArenaW, h.ArenaH
	if h.ArenaW >= 64 && h.ArenaH >= 64 {
		o.width, o.height = h.ArenaW, h.ArenaH
	}
	if o.level == "" && o.info.Level != nil {
		o.level = h.Level
	}
	if o.hz < 1 || o.hz > 1000 || o.sprites > 1_000_000 {
		return fmt.Errorf("replay: %s: header out of range (%d Hz, %d sprites)", o.replayFile, o.hz, o.sprites)
	}
	if !rec.Complete {
		lost := "it ends on a whole chunk"
		if rec.Lost > 0 {
			lost = fmt.Sprintf("its last %d bytes, from byte %d, are not a whole chunk and are skipped", rec.Lost, rec.LostFrom)
		}
		fmt.Fprintf(stderr, "tandem replay: warning: %s was cut short (no end record; %s): replaying the %d ticks (%.1f s) it holds; at most the last %v of the run is lost\n",
			o.replayFile, lost, rec.End(), float64(rec.End())/float64(o.hz), replay.FlushEvery+time.Second/4)
	}
	if rec.Complete && h.Build != build() {
		fmt.Fprintf(stderr, "tandem replay: note: recorded by build %s, replayed by %s\n", h.Build, build())
	}
	o.rec = rec
	return nil
}

// checkLevel refuses to replay a recording on a level other than the one
// it was made on.
func checkLevel(o options, level *physics.Level) error {
	if o.rec == nil || level == nil || level.Hash() == o.rec.Header.LevelHash {
		return nil
	}
	name := o.level
	if name == "" {
		name = "the game's own level"
	}
	return fmt.Errorf("replay: %s: byte %d: recorded on another level than %s (level hash %016x, recorded %016x): give the level it was recorded on with -level",
		o.replayFile, o.rec.LevelHashOffset(), name, level.Hash(), o.rec.Header.LevelHash)
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
}

// runFast replays a recording with the sim alone, as fast as it steps: no
// window, no GL. Ctrl-C stops it between seconds of sim time.
func runFast(o options, stdout, stderr io.Writer) int {
	level, err := gameLevel(o)
	if err != nil {
		fmt.Fprintf(stderr, "tandem: %v\n", err)
		return exitError
	}
	g, err := newSim(o.game, simConfig(o, level, o.arenaW, o.arenaH))
	if err != nil {
		fmt.Fprintf(stderr, "tandem: %v\n", err)
		return exitError
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rec := o.rec
	v := rec.NewVerifier()
	start := time.Now()
	ticks, err := replay.Fast(ctx, g, rec, v)
	el := time.Since(start).Seconds()
	if err != nil {
		fmt.Fprintf(stderr, "tandem: %v\n", err)
		return exitError
	}
	r := fastReport{File: o.replayFile, Scene: o.scene, Ticks: ticks, EndTick: rec.End(), Seconds: round(el, 3),
		Checkpoints: v.Checked(), StateHash: fmt.Sprintf("%016x", g.Hash()), StoppedBy: stopEnd}
	if el > 0 {
		r.TicksPerSecond = round(float64(ticks)/el, 0)
	}
	if ctx.Err() != nil {
		r.StoppedBy = stopSignal
	}
	code := exitOK
	verr := verifyReplay(rec, v, ticks, g.Hash(), r.StoppedBy)
	if want, _, bad := v.Mismatch(); bad {
		r.Mismatch = &want.Tick
	}
	r.Verified = verr == nil
	fmt.Fprintf(stderr, "tandem replay: %s: %d of %d ticks in %.2f s (%.0f ticks/s), %d checkpoints checked\n",
		o.replayFile, ticks, rec.End(), el, r.TicksPerSecond, r.Checkpoints)
	if verr != nil {
		fmt.Fprintf(stderr, "tandem replay: %v\n", verr)
		if o.verify {
			code = exitError
		}
	} else if o.verify {
		fmt.Fprintf(stderr, "tandem replay: verified: %s\n", verifiedWhat(rec))
	}
	if o.json {
		if err := writeJSONLine(stdout, r); err != nil {
			fmt.Fprintf(stderr, "tandem: %v\n", err)
			return exitError
		}
	}
	return code
}

// verifyReplay compares a replay that stopped (for stoppedBy) after ticks
// ticks at state hash with its recording: every checkpoint it reached,
// and the final tick and hash when it ran to the end.
func verifyReplay(rec *replay.Recording, v *replay.Verifier, ticks, hash uint64, stoppedBy string) error {
	if stoppedBy != stopEnd {
		if want, got, bad := v.Mismatch(); bad {
			return fmt.Errorf("state differs at tick %d: hash %016x, recorded %016x", want.Tick, got, want.Hash)
		}
		return fmt.Errorf("stopped (%s) at tick %d of %d: %d checkpoints matched, the rest were not reached", stoppedBy, ticks, rec.End(), v.Checked())
	}
	return rec.Verify(v, ticks, hash)
}

// replayReport is the "replay" object of a replay's JSON summary.
type replayReport struct {
	File        string  `json:"file"`
	EndTick     uint64  `json:"end_tick"`
	Complete    bool    `json:"complete"`
	LostBytes   int64   `json:"lost_bytes"`
	Checkpoints int     `json:"checkpoints_checked"`
	Verified    bool    `json:"verified"`
	Mismatch    *uint64 `json:"first_mismatch_tick,omitempty"`
	Error       string  `json:"error,omitempty"`
}

// replayReport checks the replay that just stopped against its
// recording. After the sim thread has stopped.
func (a *app) replayReport() *replayReport {
	rec := a.opts.rec
	r := &replayReport{File: a.opts.replayFile, EndTick: rec.End(), Complete: rec.Complete, LostBytes: rec.Lost,
		Checkpoints: a.verifier.Checked()}
	err := verifyReplay(rec, a.verifier, a.runner.Stats().Ticks, a.game.Hash(), a.stoppedBy)
	if want, _, bad := a.verifier.Mismatch(); bad {
		r.Mismatch = &want.Tick
	}
	r.Verified = err == nil
	if err != nil {
		r.Error = err.Error()
	}
	return r
}

// verifiedWhat says what a verified replay of rec matched.
func verifiedWhat(rec *replay.Recording) string {
	if !rec.Complete {
		return "every checkpoint matches (the file was cut short: it has no final state to check)"
	}
	return "every checkpoint and the final state match"
}
