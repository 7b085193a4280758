package engine

import (
	"fmt"
	"strings"
	"testing"
)

func TestKnownNames(t *testing.T) {
	set := func(names ...string) map[string]int {
		m := map[string]int{}
		for _, n := range names {
			m[n] = 1
		}
		return m
	}
	many := set()
	for i := range 45 {
		many[fmt.Sprintf("tile%02d", i)] = 1
	}
	for _, tc := range []struct {
		want string
		m    map[string]int
		says string
	}{
		{"hero", set(), "Setup has declared no images (before this call)"},
		{"heor", set("hero", "coin"), `did you mean "hero"? the images are coin, hero`},
		{"zebra", set("hero", "coin"), "the images are coin, hero"},
		// The closest of two at the same distance: the first in order.
		{"bat", set("cat", "hat"), `did you mean "cat"?`},
		{"tile99", many, "tile39 and 5 more"},
	} {
		got := KnownNames(tc.want, tc.m, "images")
		if !strings.Contains(got, tc.says) {
			t.Errorf("%q among %d names: %q, want it to say %q", tc.want, len(tc.m), got, tc.says)
		}
	}
	if got := KnownNames("zebra", set("hero", "coin"), "images"); strings.Contains(got, "did you mean") {
		t.Errorf("no name is close to zebra, yet: %q", got)
	}
	if d := editDistance(strings.Repeat("a", 1000), strings.Repeat("b", 1000)); d != 64 {
		t.Errorf("two long names: distance %d, want 64 (compared up to 64 bytes)", d)
	}
}
