package physics

import (
	"errors"
	"fmt"
	"math"
)

// CharacterTuning sets how a Character moves. Speeds are px/s,
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

// withDefaults returns t with its zero fields filled in.
func (t CharacterTuning) withDefaults() CharacterTuning {
	d := DefaultTuning()
	fill := func(v *float64, def float64) {
		if *v == 0 {
			*v = def
		}
	}
	fill(&t.Width, d.Width)
	fill(&t.Height, d.Height)
	fill(&t.MaxRunSpeed, d.MaxRunSpeed)
	fill(&t.GroundAccel, d.GroundAccel)
	fill(&t.GroundFriction, d.GroundFriction)
	fill(&t.AirAccel, d.AirAccel)
	fill(&t.AirFriction, d.AirFriction)
	fill(&t.JumpSpeed, d.JumpSpeed)
	fill(&t.JumpCut, d.JumpCut)
	fill(&t.MaxFallSpeed, d.MaxFallSpeed)
	fill(&t.CoyoteTime, d.CoyoteTime)
	fill(&t.JumpBuffer, d.JumpBuffer)
	return t
}

// ErrConfig is wrapped by every error about a bad tuning or
// configuration, here and in the games that build on the package.
var ErrConfig = errors.New("invalid config")

// CheckPositive reports an error wrapping ErrConfig, naming name, unless v
// is a finite number above zero.
func CheckPositive(name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return fmt.Errorf("physics: %w: %s is %v, want a finite number > 0 (or 0 for the default)", ErrConfig, name, v)
	}
	return nil
}

// validate checks a tuning after withDefaults.
func (t CharacterTuning) validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("physics: %w: %s", ErrConfig, fmt.Sprintf(format, args...))
	}
	for _, f := range []struct {
		name string
		v    float64
	}{
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
		if err := CheckPositive(f.name, f.v); err != nil {
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
