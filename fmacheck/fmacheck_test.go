package fmacheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// module writes a module of one package with src as its code, and
// returns its folder.
func module(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	gomod := "module fmatest\n\ngo 1.22\n"
	for name, data := range map[string]string{"go.mod": gomod, "p.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestFused checks that the check finds a product added unrounded, in
// float32 and float64 code, names its line, and passes the same code with
// the products rounded.
func TestFused(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles for arm64")
	}
	lines, err := Fused(module(t, `package p

func F(x, y, z float32) float32 { return x*y + z }

func G(x, y, z float64) float64 { return x*y - z }
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 || !strings.Contains(lines[0], "p.go:3") || !strings.Contains(lines[1], "p.go:5") {
		t.Errorf("fused lines %q, want one at p.go:3 and one at p.go:5", lines)
	}
	lines, err = Fused(module(t, `package p

func F(x, y, z float32) float32 { return float32(x*y) + z }

func G(x, y, z float64) float64 { return float64(x*y) - z }
`))
	if err != nil || len(lines) != 0 {
		t.Errorf("rounded products: %q, %v; want none", lines, err)
	}
	// A folder with no Go code is an error, not a pass.
	if _, err := Fused(t.TempDir()); err == nil {
		t.Error("a folder with no package: want an error")
	}
}
