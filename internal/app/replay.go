package app

import (
	"fmt"
	"path/filepath"
	"runtime/debug"

	"github.com/tandem-engine/tandem/physics"
	"github.com/tandem-engine/tandem/replay"
)

// StopEnd is stopped_by for a replay that reached the end of its
// recording.
const StopEnd = "end"

// build returns this build's version for a recording's header: the VCS
// revision when the binary carries one.
func Build() string {
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

// recordHeader is what a recording of this run says about its world: the
// level itself (its text, so a replay opens no file the recording names;
// the file's base name, for messages only) and the game's own flags.
func recordHeader(o Options, level *physics.Level, arenaW, arenaH int) replay.Header {
	h := replay.Header{
		Scene: o.Scene, Seed: o.World.Seed, Hz: o.World.Hz, Sprites: o.World.Sprites,
		ArenaW: arenaW, ArenaH: arenaH, CheckpointEvery: o.World.Hz, Build: Build(), Flags: o.World.GameFlags,
	}
	if o.World.LevelFile != "" {
		h.Level = filepath.Base(o.World.LevelFile)
	}
	if level != nil {
		h.LevelHash = level.Hash()
		// A level built by hand that the file format cannot say is left
		// out: its replay plays the game's own level, checked by hash.
		if text, err := level.Text(); err == nil {
			h.LevelText = text
		}
	}
	return h
}

// checkLevel refuses to replay a recording on a level other than the one
// it was made on.
func checkLevel(o Options, level *physics.Level) error {
	if o.Replay.Rec == nil || level == nil || level.Hash() == o.Replay.Rec.Header.LevelHash {
		return nil
	}
	name := o.World.LevelFile
	if name == "" {
		name = "the game's own level"
	}
	return fmt.Errorf("replay: %s: byte %d: recorded on another level than %s (level hash %016x, recorded %016x): give the level it was recorded on with -level",
		o.Replay.File, o.Replay.Rec.LevelHashOffset(), name, level.Hash(), o.Replay.Rec.Header.LevelHash)
}

// VerifyReplay compares a replay that stopped (for stoppedBy) after ticks
// ticks at state hash with its recording: every checkpoint it reached,
// and the final tick and hash when it ran to the end.
func VerifyReplay(rec *replay.Recording, v *replay.Verifier, ticks, hash uint64, stoppedBy string) error {
	if stoppedBy != StopEnd {
		if want, got, bad := v.Mismatch(); bad {
			return fmt.Errorf("state differs at tick %d: hash %016x, recorded %016x%s", want.Tick, got, want.Hash, otherBuild(rec))
		}
		return fmt.Errorf("stopped (%s) at tick %d of %d: %d checkpoints matched, the rest were not reached", stoppedBy, ticks, rec.End(), v.Checked())
	}
	if err := rec.Verify(v, ticks, hash); err != nil {
		return fmt.Errorf("%w%s", err, otherBuild(rec))
	}
	return nil
}

// otherBuild says, beside a mismatch, that rec was made by another build
// than this one: a changed game or engine steps to other states.
func otherBuild(rec *replay.Recording) string {
	if b := Build(); rec.Header.Build != b {
		return fmt.Sprintf(" (recorded by build %q, replayed by %q: a change to the game or the engine between them changes its states)", rec.Header.Build, b)
	}
	return ""
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
	// GameFlags are the game's own flags the recording set, NAME=VALUE.
	GameFlags []string `json:"game_flags,omitempty"`
}

// VerifiedWhat says what a verified replay of rec matched.
func VerifiedWhat(rec *replay.Recording) string {
	n := len(rec.Checkpoints)
	switch {
	case !rec.Complete:
		return fmt.Sprintf("all %d checkpoints it holds match (the file was cut short: it has no final state to check)", n)
	case n == 0:
		return "the final state matches (the file holds no checkpoint before it)"
	}
	return "every checkpoint and the final state match"
}
