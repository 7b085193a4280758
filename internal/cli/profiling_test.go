package cli

import (
	"io"
	"testing"
)

// TestProfiling checks the summary's profiling field: which profilers ran.
func TestProfiling(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "none"},
		{[]string{"-trace", "t.out"}, "trace"},
		{[]string{"-cpuprofile", "c.prof"}, "cpuprofile"},
		{[]string{"-memprofile", "m.prof", "-trace", "t.out"}, "trace,memprofile"},
	} {
		o, err := testProgram.parseFlags("bench", c.args, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if got := profiling(o); got != c.want {
			t.Errorf("%q: profiling %q, want %q", c.args, got, c.want)
		}
	}
}
