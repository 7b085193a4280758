package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/bench"
)

func TestReportReplacesSymlinks(t *testing.T) {
	// bench -out DIR into a folder from someone else's archive whose
	// report.md and bench.txt link to the user's files: the links are
	// replaced by the report, their targets untouched.
	dir, home := t.TempDir(), t.TempDir()
	for _, n := range []string{"report.md", "bench.txt"} {
		victim := filepath.Join(home, n+".victim")
		if err := os.WriteFile(victim, []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(victim, filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
	rs := []bench.Result{{Name: "loop=coupled/simcost=0s/sprites=10", Loop: "coupled", SimCost: "0s", Sprites: 10,
		Summary: map[string]any{"fps_mean": 60.0}}}
	if err := writeResults(dir, "tandem bench", rs, bench.WriteMarkdown); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"report.md", "bench.txt"} {
		if b, _ := os.ReadFile(filepath.Join(home, n+".victim")); string(b) != "mine" {
			t.Errorf("%s's target was written: %.40q", n, b)
		}
		fi, err := os.Lstat(filepath.Join(dir, n))
		if err != nil || !fi.Mode().IsRegular() {
			t.Fatalf("%s: %v %v", n, fi, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "report.md")); !strings.Contains(string(b), "# tandem bench") {
		t.Errorf("report.md holds %.80q", b)
	}
}
