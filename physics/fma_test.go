package physics

import (
	"os"
	"os/exec"
	"regexp"
	"testing"
)

// TestNoFusedMultiplyAdd compiles this package for arm64, where Go fuses
// x*y + z into one instruction whenever the product is not explicitly
// rounded, and fails if any fused multiply-add appears in the package's
// assembly: each one is a place where amd64 and arm64 would compute
// different bits (see the package comment). The first run builds the
// standard library for arm64, about 10 s; later runs hit the build cache.
func TestNoFusedMultiplyAdd(t *testing.T) {
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
