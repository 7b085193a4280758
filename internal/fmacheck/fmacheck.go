// Package fmacheck checks that a package's code holds no fused
// multiply-add: Go fuses x*y + z into one instruction with one rounding on
// arm64 (and other targets) wherever the product is not explicitly
// rounded, so the same program would compute different bits on different
// machines. Deterministic packages call Check from a test.
//
// Threads: Check runs the go tool; call it from a test's goroutine.
package fmacheck

import (
	"os"
	"os/exec"
	"regexp"
	"testing"
)

// Check compiles the package in the test's working directory (its own
// folder) for arm64 and fails t if any fused multiply-add appears in its
// assembly: each is a place where amd64 and arm64 would compute different
// bits. The first run builds the standard library for arm64, about 10 s;
// later runs hit the build cache.
func Check(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("cross-compiles for arm64")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	cmd := exec.Command(goTool, "build", "-gcflags=-S", ".")
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=arm64", "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build for arm64: %v\n%s", err, out)
	}
	fused := regexp.MustCompile(`(?m)^.*\bF(N)?M(ADD|SUB)[SD]\b.*$`)
	for _, m := range fused.FindAll(out, -1) {
		t.Errorf("fused multiply-add (wrap the product in float64(...) or float32(...)):\n%s", m)
	}
	if !regexp.MustCompile(`\bFMULD\b`).Match(out) {
		t.Fatal("no FMULD in the assembly: the check is not looking at this package's code")
	}
}
