//go:build cgo

package tandem

import (
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/app"
	"github.com/tandem-engine/tandem/internal/cli"
)

// TestOptionsOnePath feeds the same settings through Config and through
// the flags: the options the loop gets are the same, and a value out of
// range gets the same message both ways.
func TestOptionsOnePath(t *testing.T) {
	game := testGames[0]
	flags := func(args ...string) (app.Options, error) {
		return (&cli.Program{Name: "tandem", Games: adapt([]Game{game})}).Options("run", args, io.Discard)
	}
	config := func(cfg Config) (app.Options, error) { return cfg.options(context.Background(), game) }
	same := func(a, b app.Options) bool {
		a.Game, b.Game, a.Ctx, b.Ctx = nil, nil, nil, nil
		a.Info.Level, b.Info.Level = nil, nil // funcs
		// Config loads the level before the run, the command line at its
		// start: the file is the same.
		a.World.Level, b.World.Level = nil, nil
		return reflect.DeepEqual(a, b)
	}
	for _, tc := range []struct {
		cfg  Config
		args []string
	}{
		{Config{}, nil},
		{Config{Hz: 120, Seed: 7, Sprites: 300, Width: 640, Height: 360, Seconds: 2.5, Loop: Threaded, HUD: true},
			[]string{"-hz", "120", "-seed", "7", "-sprites", "300", "-width", "640", "-height", "360", "-seconds", "2.5", "-loop", "threaded", "-hud"}},
		{Config{NoVSync: true, Pacing: Pacing{FPSCap: 30, PresentHold: true, FixedDelay: true, Delay: 2500 * time.Microsecond, Extrapolate: 0.5}},
			[]string{"-vsync=false", "-fps-cap", "30", "-present-hold", "-interp-delay", "2.5", "-extrapolate", "0.5"}},
		{Config{Loop: Coupled, Pacing: Pacing{NoInterp: true, CatchUp: -1, EmulateVSync: 60}},
			[]string{"-loop", "coupled", "-interp", "off", "-catch-up", "0", "-emulate-vsync", "60"}},
		{Config{Pacing: Pacing{CatchUp: 2}}, []string{"-catch-up", "2"}},
		{Config{AudioBuffer: 60 * time.Millisecond, AVLock: true}, []string{"-audio-buffer", "60ms", "-av-lock"}},
	} {
		c, err := config(tc.cfg)
		if err != nil {
			t.Fatalf("%+v: %v", tc.cfg, err)
		}
		f, err := flags(tc.args...)
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if !same(c, f) {
			t.Errorf("%+v and %q give other options:\nConfig %+v\nflags  %+v", tc.cfg, tc.args, c, f)
		}
	}
	for _, tc := range []struct {
		cfg  Config
		args []string
	}{
		{Config{Hz: 5000}, []string{"-hz", "5000"}},
		{Config{Width: 10}, []string{"-width", "10"}},
		{Config{Sprites: -5}, []string{"-sprites", "-5"}},
		{Config{Seconds: -1}, []string{"-seconds", "-1"}},
		{Config{Loop: "sideways"}, []string{"-loop", "sideways"}},
		{Config{Pacing: Pacing{FPSCap: 20000}}, []string{"-fps-cap", "20000"}},
		{Config{Pacing: Pacing{CatchUp: 5}}, []string{"-catch-up", "5"}},
		{Config{Pacing: Pacing{FixedDelay: true, Delay: 200 * time.Millisecond}}, []string{"-interp-delay", "200"}},
		{Config{Pacing: Pacing{FixedDelay: true, Delay: -time.Millisecond}}, []string{"-interp-delay", "-1"}},
		{Config{Pacing: Pacing{PresentHold: true}}, []string{"-present-hold"}},
		{Config{AudioBuffer: time.Millisecond}, []string{"-audio-buffer", "1ms"}},
		{Config{AudioBuffer: 2 * time.Second}, []string{"-audio-buffer", "2s"}},
		{Config{NoVSync: true, Loop: Coupled, Pacing: Pacing{PresentHold: true}}, []string{"-vsync=false", "-loop", "coupled", "-present-hold"}},
	} {
		_, cerr := config(tc.cfg)
		_, ferr := flags(tc.args...)
		var co, fo *app.OptionError
		if !errors.As(cerr, &co) || !errors.As(ferr, &fo) {
			t.Fatalf("%+v: %v; %q: %v: want an option error both ways", tc.cfg, cerr, tc.args, ferr)
		}
		if co.Error() != fo.Error() || !strings.HasSuffix(cerr.Error(), fo.Error()) {
			t.Errorf("Config says %q, the flags %q", cerr, ferr)
		}
		var ce *ConfigError
		if !errors.As(cerr, &ce) || ce.Field != co.Field {
			t.Errorf("%v: want a *ConfigError naming %s", cerr, co.Field)
		}
	}
}
