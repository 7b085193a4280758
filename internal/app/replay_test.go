//go:build cgo

package app

import (
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/replay"
)

func TestOtherBuild(t *testing.T) {
	// A mismatch in a recording made by another build says so; by this
	// build, it says nothing more.
	rec := &replay.Recording{Header: replay.Header{Build: "0123abc"}}
	if got := otherBuild(rec); !strings.Contains(got, "recorded by build 0123abc, replayed by "+Build()) {
		t.Errorf("another build: %q", got)
	}
	rec.Header.Build = Build()
	if got := otherBuild(rec); got != "" {
		t.Errorf("this build: %q", got)
	}
}
