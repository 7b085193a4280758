package mainthread

import (
	"os"
	"testing"
)

// NeedDisplay skips a test that opens a window when there is no display,
// and fails it instead under CI=true: CI runs the GL tests under Xvfb, so a
// missing display there is a broken setup, not a reason to pass.
func NeedDisplay(tb testing.TB) {
	tb.Helper()
	if os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "" {
		return
	}
	if os.Getenv("CI") == "true" {
		tb.Fatal("no display under CI=true: run the tests under xvfb-run (make test does)")
	}
	tb.Skip("no display: run under xvfb-run (make test does)")
}
