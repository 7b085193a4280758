package racecap

import (
	"slices"
	"testing"
)

func TestArgs(t *testing.T) {
	capped := func(args ...string) []string {
		if !enabled {
			return args
		}
		return append(args, "-fps-cap", FPS)
	}
	for _, tc := range []struct{ args, want []string }{
		{[]string{"-seconds", "2"}, capped("-seconds", "2")},
		{[]string{"run", "-seconds", "2"}, capped("run", "-seconds", "2")},
		{[]string{"replay", "-verify", "x.tdr"}, capped("replay", "-verify", "x.tdr")},
		{nil, capped()},
		// The test's own pacing, and the bench, stay as they are.
		{[]string{"-fps-cap", "30"}, []string{"-fps-cap", "30"}},
		{[]string{"--fps-cap=30"}, []string{"--fps-cap=30"}},
		{[]string{"-present-hold", "2ms"}, []string{"-present-hold", "2ms"}},
		{[]string{"-vsync"}, []string{"-vsync"}},
		{[]string{"-emulate-vsync", "60"}, []string{"-emulate-vsync", "60"}},
		{[]string{"bench", "-seconds", "1"}, []string{"bench", "-seconds", "1"}},
	} {
		in := slices.Clone(tc.args)
		if got := Args(tc.args); !slices.Equal(got, tc.want) {
			t.Errorf("Args(%q) = %q, want %q", in, got, tc.want)
		}
		if !slices.Equal(tc.args, in) {
			t.Errorf("Args changed its input %q to %q", in, tc.args)
		}
	}
}
