package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tandem-engine/tandem/internal/app"
	"github.com/tandem-engine/tandem/internal/regfile"
	"github.com/tandem-engine/tandem/physics"
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
	if o.Info.Level != nil && o.World.LevelFile == "" {
		if err := recordedLevel(o, rec); err != nil {
			return err
		}
	}
	if err := p.setGameFlags(o, h.Flags, stderr); err != nil {
		return err
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
		fmt.Fprintf(stderr, "%s replay: note: recorded by build %q, replayed by %q\n", p.Name, h.Build, app.Build())
	}
	o.Replay.Rec = rec
	return nil
}

// recordedLevel sets o's level to the one rec was made on, opening no
// path the file names: a version 3 recording holds its level's text,
// checked against its level hash; an older one names the -level it was
// made with, which is looked up only as a bare file name beside the
// recording (a name with a directory in it is refused: give -level). A
// recording of the game's own level, or of a level the file format could
// not hold, leaves it to the game, checked by hash.
func recordedLevel(o *options, rec *replay.Recording) error {
	h, file := rec.Header, o.Replay.File
	switch {
	case len(h.LevelText) > 0:
		l, err := physics.ParseLevel(fmt.Sprintf("%s (the level %q it holds)", file, h.Level), bytes.NewReader(h.LevelText))
		if err != nil {
			return fmt.Errorf("replay: %s: the level it holds does not parse, so the file is corrupt: %w", file, err)
		}
		if l.Hash() != h.LevelHash {
			return fmt.Errorf("replay: %s: byte %d: the level it holds has hash %016x, and the header says %016x: the file is corrupt",
				file, rec.LevelHashOffset(), l.Hash(), h.LevelHash)
		}
		o.World.Level = l
	case h.Level != "" && rec.Version < 3:
		name := h.Level
		if name != filepath.Base(name) || strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
			return fmt.Errorf("replay: %s: recorded on the level %q, a path; a replay opens no path a recording names: give the level with -level", file, name)
		}
		path := filepath.Join(filepath.Dir(file), name)
		l, err := levelBeside(file, name, path)
		if err != nil {
			return err
		}
		o.World.Level, o.World.LevelFile = l, path
	}
	return nil
}

// levelBeside loads the level a version 2 recording file names, name,
// from path beside it. The name is the recording's, and the directory may
// be a stranger's too (an unpacked archive): it is opened inside that
// directory only, so a symbolic link there that leads out of it (name ->
// ../private/level.txt) is refused, not followed, and an error quotes none
// of the file's bytes.
func levelBeside(file, name, path string) (*physics.Level, error) {
	f, _, err := regfile.OpenIn(filepath.Dir(file), name)
	var le *regfile.LinkError
	switch {
	case errors.As(err, &le):
		return nil, fmt.Errorf("replay: %s: recorded on the level %q; %s beside it is a symbolic link out of its folder, which a replay does not follow (it could point at any file): give the level with -level",
			file, name, path)
	case err != nil:
		return nil, fmt.Errorf("replay: %s: recorded on the level %q, looked up beside it: physics: load level: %w; give the level with -level", file, name, err)
	}
	defer f.Close()
	l, err := physics.ParseLevel(path, f)
	var pe *physics.ParseError
	switch {
	case errors.As(err, &pe):
		// The file's bytes stay out of the message: the name came from
		// the recording, not from the user.
		return nil, fmt.Errorf("replay: %s: recorded on the level %q; %s beside it is not that level (line %d, column %d does not parse): give the level with -level",
			file, name, path, pe.Line, pe.Col)
	case err != nil:
		return nil, fmt.Errorf("replay: %s: recorded on the level %q, looked up beside it: %w; give the level with -level", file, name, err)
	}
	return l, nil
}

// setGameFlags sets the game's own flags to the values a recording holds
// (NAME=VALUE each), but for those given on the replay's command line,
// which win with a note: a game's flags may change what it does, so a
// replay without them would not be the run recorded.
func (p *Program) setGameFlags(o *options, flags []string, stderr io.Writer) error {
	for _, nv := range flags {
		name, val, _ := strings.Cut(nv, "=")
		var f *flag.Flag
		if p.Flags != nil && !strings.HasPrefix(name, "test.") {
			f = p.Flags.Lookup(name)
		}
		if f == nil {
			return fmt.Errorf("replay: %s: recorded with the game flag %q, which %s does not have: replay it with the game that recorded it",
				o.Replay.File, "-"+nv, p.Name)
		}
		if given := slices.IndexFunc(o.set, func(s string) bool { return strings.HasPrefix(s, "-"+name+"=") }); given >= 0 {
			if o.set[given] != "-"+nv {
				fmt.Fprintf(stderr, "%s replay: note: %s given: it replaces the recording's %q, so the replay may not match\n", p.Name, o.set[given], "-"+nv)
			}
			continue
		}
		if err := f.Value.Set(val); err != nil {
			return fmt.Errorf("replay: %s: the recording's game flag %q: %v", o.Replay.File, "-"+nv, err)
		}
	}
	o.World.GameFlags = flags
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
	// GameFlags are the game's own flags the recording set, NAME=VALUE.
	GameFlags []string `json:"game_flags,omitempty"`
	// Error is why -verify failed, when it did (the exit code is 1).
	Error string `json:"error,omitempty"`
}

// runFast replays a recording with the sim alone, as fast as it steps: no
// window, no GL. Ctrl-C, or -seconds of wall time, stops it between
// seconds of sim time.
func (p *Program) runFast(o options, stdout, stderr io.Writer) int {
	level, err := app.GameLevel(o.Options)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
		return exitError
	}
	g, err := o.Game.NewSim(app.SimConfig(o.Options, level, o.World.ArenaW, o.World.ArenaH))
	if code, ok := p.gameFlagError(stderr, "replay", err); ok {
		return code
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
		return exitError
	}
	sig, stop := signal.NotifyContext(context.Background(), app.StopSignals...)
	defer stop()
	ctx := sig
	if o.Seconds > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(sig, o.Seconds)
		defer cancel()
	}
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
		Checkpoints: v.Checked(), StateHash: fmt.Sprintf("%016x", g.Hash()), StoppedBy: app.StopEnd, GameFlags: rec.Header.Flags}
	if el > 0 {
		r.TicksPerSecond = app.Round(float64(ticks)/el, 0)
	}
	switch {
	case sig.Err() != nil:
		r.StoppedBy = app.StopSignal
	case ctx.Err() != nil && ticks < rec.End():
		r.StoppedBy = app.StopSeconds
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
