// Package fmacheck checks a game's code for fused multiply-adds. Go fuses
// x*y + z into one instruction with one rounding on arm64 (and other
// targets) wherever the product is not explicitly rounded, so the same
// deterministic game computes different bits there than on amd64, and a
// recording made on one machine stops verifying on the other. The fix is
// to round the product: float32(x*y) + z.
//
// A game checks its own package from a test in its folder:
//
//	func TestNoFusedMultiplyAdd(t *testing.T) { fmacheck.Check(t) }
//
// tandem's physics and demo games check theirs the same way.
//
// Threads: Check and Fused run the go tool; call them from any goroutine
// (Check from the test's own).
package fmacheck

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// fused matches an arm64 fused multiply-add or -subtract in the
// compiler's assembly listing: FMADDD, FMSUBS, FNMADDD, FNMSUBS...
var fused = regexp.MustCompile(`(?m)^.*\bF(N)?M(ADD|SUB)[SD]\b.*$`)

// text matches a function's header in the listing: proof that the
// compiler printed the package's own code.
var text = regexp.MustCompile(`(?m)^\S+ STEXT\b`)

// Fused compiles the package in dir (its folder; "" for the working
// directory) for linux/arm64 without cgo and returns every line of its
// assembly that holds a fused multiply-add: each is a place where amd64
// and arm64 compute different bits. Only that package's code is listed,
// not its imports'. The first run builds the standard library for arm64,
// about 10 s; later runs hit the build cache.
func Fused(dir string) ([]string, error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return nil, errors.New("fmacheck: no go tool on PATH: install Go, or put its bin directory on PATH")
	}
	cmd := exec.Command(goTool, "build", "-o", os.DevNull, "-gcflags=-S", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=arm64", "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("fmacheck: go build for arm64 in %s: %w\n%s", where(dir), err, out)
	}
	if !text.Match(out) {
		return nil, fmt.Errorf("fmacheck: the compiler listed no function of the package in %s: nothing was checked (is it a Go package with code?)", where(dir))
	}
	var lines []string
	for _, m := range fused.FindAll(out, -1) {
		lines = append(lines, strings.TrimSpace(string(m)))
	}
	return lines, nil
}

func where(dir string) string {
	if dir == "" {
		return "the working directory"
	}
	return dir
}

// Check fails t for every fused multiply-add in the package of the test's
// working directory (its own folder), naming the source line, and tells
// how to fix it. It skips under -short, which it cross-compiles too long
// for.
func Check(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("fmacheck: cross-compiles for arm64 (skipped under -short)")
	}
	lines, err := Fused("")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		t.Errorf("fused multiply-add: round the product, e.g. float32(x*y) + z, or float64(x*y) + z:\n%s", l)
	}
}
