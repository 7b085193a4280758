package physics

import (
	"errors"
	"fmt"
	"math"
)

// Config configures a World. Zero fields other than Hz, Seed and Bunnies
// take the values of DefaultConfig, so Config{Hz: 60} is a complete
// configuration; a field cannot be set to exactly zero.
type Config struct {
	Hz        int             // ticks per second (1..MaxHz); dt = float64(1)/float64(Hz) seconds exactly
	Seed      uint64          // seeds the world's RNG (bunny spawn and bounces)
	Bunnies   int             // number of bunnymark load bodies (0..MaxBunnies)
	Gravity   float64         // px/s², +y is down; default 1800
	Character CharacterTuning // the player's movement
}

// Limits checked by NewWorld.
const (
	MaxHz      = 100000
	MaxBunnies = 10000000
)

// CharacterTuning sets how the player moves. Speeds are px/s,
// accelerations px/s², times seconds. Zero fields take the defaults of
// DefaultTuning; negative, NaN or infinite values are errors.
type CharacterTuning struct {
	Width, Height  float64 // size of the player's box, px (default 12 x 24)
	MaxRunSpeed    float64 // top horizontal speed from running (default 240)
	GroundAccel    float64 // horizontal acceleration on the ground (default 2400)
	GroundFriction float64 // deceleration on the ground with no input; added to GroundAccel when turning (default 2400)
	AirAccel       float64 // horizontal acceleration in the air (default 1500)
	AirFriction    float64 // deceleration in the air with no input (default 400)
	JumpSpeed      float64 // upward speed at take-off (default 540: apex v²/2g = 81 px, about 5 tiles)
	JumpCut        float64 // factor applied to the upward speed when jump is released while rising, in (0, 1] (default 0.4)
	MaxFallSpeed   float64 // terminal falling speed (default 900)
	CoyoteTime     float64 // how long after leaving the ground a jump still works (default 0.1 s)
	JumpBuffer     float64 // how long before landing a jump press is remembered (default 0.1 s)
}

// DefaultTuning returns the default character tuning.
func DefaultTuning() CharacterTuning {
	return CharacterTuning{
		Width:          12,
		Height:         24,
		MaxRunSpeed:    240,
		GroundAccel:    2400,
		GroundFriction: 2400,
		AirAccel:       1500,
		AirFriction:    400,
		JumpSpeed:      540,
		JumpCut:        0.4,
		MaxFallSpeed:   900,
		CoyoteTime:     0.1,
		JumpBuffer:     0.1,
	}
}

// DefaultConfig returns a 60 Hz world with seed 1, no bunnies, gravity
// 1800 px/s² and the default tuning.
func DefaultConfig() Config {
	return Config{Hz: 60, Seed: 1, Gravity: 1800, Character: DefaultTuning()}
}

// withDefaults returns c with its zero fields filled in.
func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.Gravity == 0 {
		c.Gravity = d.Gravity
	}
	t, dt := &c.Character, d.Character
	fill := func(v *float64, def float64) {
		if *v == 0 {
			*v = def
		}
	}
	fill(&t.Width, dt.Width)
	fill(&t.Height, dt.Height)
	fill(&t.MaxRunSpeed, dt.MaxRunSpeed)
	fill(&t.GroundAccel, dt.GroundAccel)
	fill(&t.GroundFriction, dt.GroundFriction)
	fill(&t.AirAccel, dt.AirAccel)
	fill(&t.AirFriction, dt.AirFriction)
	fill(&t.JumpSpeed, dt.JumpSpeed)
	fill(&t.JumpCut, dt.JumpCut)
	fill(&t.MaxFallSpeed, dt.MaxFallSpeed)
	fill(&t.CoyoteTime, dt.CoyoteTime)
	fill(&t.JumpBuffer, dt.JumpBuffer)
	return c
}

// errConfig is wrapped by every configuration error.
var errConfig = errors.New("invalid config")

// validate checks a config after withDefaults.
func (c Config) validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("physics: %w: %s", errConfig, fmt.Sprintf(format, args...))
	}
	if c.Hz <= 0 || c.Hz > MaxHz {
		return bad("Hz is %d, want 1..%d ticks per second (60 is usual)", c.Hz, MaxHz)
	}
	if c.Bunnies < 0 || c.Bunnies > MaxBunnies {
		return bad("Bunnies is %d, want 0..%d", c.Bunnies, MaxBunnies)
	}
	finitePos := func(name string, v float64) error {
		if !(v > 0) || math.IsInf(v, 0) {
			return bad("%s is %v, want a finite number > 0 (or 0 for the default)", name, v)
		}
		return nil
	}
	t := c.Character
	for _, f := range []struct {
		name string
		v    float64
	}{
		{"Gravity", c.Gravity},
		{"Character.Width", t.Width},
		{"Character.Height", t.Height},
		{"Character.MaxRunSpeed", t.MaxRunSpeed},
		{"Character.GroundAccel", t.GroundAccel},
		{"Character.GroundFriction", t.GroundFriction},
		{"Character.AirAccel", t.AirAccel},
		{"Character.AirFriction", t.AirFriction},
		{"Character.JumpSpeed", t.JumpSpeed},
		{"Character.JumpCut", t.JumpCut},
		{"Character.MaxFallSpeed", t.MaxFallSpeed},
		{"Character.CoyoteTime", t.CoyoteTime},
		{"Character.JumpBuffer", t.JumpBuffer},
	} {
		if err := finitePos(f.name, f.v); err != nil {
			return err
		}
	}
	if t.JumpCut > 1 {
		return bad("Character.JumpCut is %v, want a factor in (0, 1]", t.JumpCut)
	}
	if t.Width > 8*TileSize || t.Height > 8*TileSize {
		return bad("Character size %vx%v is larger than %d px (8 tiles)", t.Width, t.Height, 8*TileSize)
	}
	if t.CoyoteTime > 10 || t.JumpBuffer > 10 {
		return bad("Character.CoyoteTime %v s / JumpBuffer %v s, want at most 10 s", t.CoyoteTime, t.JumpBuffer)
	}
	return nil
}

// ticks converts a duration in seconds to whole ticks at hz, rounding to
// nearest (halves away from zero).
func ticks(seconds float64, hz int) uint32 {
	return uint32(math.Round(float64(seconds * float64(hz))))
}
