package app

import (
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/physics"
)

// What the game is set up with: its level and its sim's settings.

// GameLevel loads the level of a game that takes one: the one already
// loaded (a recording's), else the file -level names, else the game's
// own; nil for a game without levels. A replay's level must be the one it
// was recorded on.
func GameLevel(o Options) (*physics.Level, error) {
	if o.Info.Level == nil {
		return nil, nil
	}
	if o.World.Level != nil {
		return o.World.Level, checkLevel(o, o.World.Level)
	}
	var l *physics.Level
	var err error
	if o.World.LevelFile == "" {
		l, err = o.Info.Level()
	} else {
		l, err = physics.LoadLevel(o.World.LevelFile)
	}
	if err != nil {
		return nil, err
	}
	return l, checkLevel(o, l)
}

// SimConfig is what the game is set up with: the run's flags, the level,
// and the arena (the framebuffer's size, or in a replay the recording's).
func SimConfig(o Options, level *physics.Level, fw, fh int) engine.SimConfig {
	if o.Replay.Rec != nil {
		fw, fh = o.World.ArenaW, o.World.ArenaH
	}
	return engine.SimConfig{Hz: o.World.Hz, Seed: o.World.Seed, Sprites: o.World.Sprites, SpriteSize: o.World.SpriteSize, Spin: o.World.Spin,
		Width: max(fw, 64), Height: max(fh, 64), Level: level}
}
