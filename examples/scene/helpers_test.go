package scene

import (
	"slices"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/levels"
	"github.com/tandem-engine/tandem/physics"
)

// loadDemo returns the demo level (levels/demo.txt, built in).
func loadDemo(tb testing.TB) *physics.Level {
	tb.Helper()
	l, err := levels.Demo()
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

// mustParse parses a level written in the test, its first newline
// dropped.
func mustParse(tb testing.TB, src string) *physics.Level {
	tb.Helper()
	l, err := physics.ParseLevel(tb.Name(), strings.NewReader(strings.TrimPrefix(src, "\n")))
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

func newTestWorld(tb testing.TB, l *physics.Level, cfg WorldConfig) *World {
	tb.Helper()
	w, err := NewWorld(l, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return w
}

func hasOutcome(w *World, k OutcomeKind) bool {
	return slices.ContainsFunc(w.Outcomes(), func(e Outcome) bool { return e.Kind == k })
}
