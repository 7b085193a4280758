//go:build cgo

package app

import (
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/replay"
)

func TestOtherBuild(t *testing.T) {
	// A mismatch in a recording made by another build says so, the
	// build a file holds quoted (it could hold escape sequences that
	// rewrite the terminal); by this build, it says nothing more.
	rec := &replay.Recording{Header: replay.Header{Build: "0123abc\x1b[2J"}}
	if got := otherBuild(rec); !strings.Contains(got, `recorded by build "0123abc\x1b[2J", replayed by "`+Build()+`"`) {
		t.Errorf("another build: %q", got)
	}
	rec.Header.Build = Build()
	if got := otherBuild(rec); got != "" {
		t.Errorf("this build: %q", got)
	}
}
