package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
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
		Summary: bench.Summary{Figures: bench.Figures{FPSMean: 60}}}}
	if err := writeResults(dir, rs, func(w io.Writer) error { return bench.WriteMatrixMarkdown(w, "tandem bench", rs, nil) }); err != nil {
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

// checkArgs parses args of sub and checks their outputs.
func checkArgs(t *testing.T, sub string, args ...string) error {
	t.Helper()
	o, err := testProgram.parseFlags(sub, args, io.Discard)
	if err != nil {
		t.Fatalf("%s %q: %v", sub, args, err)
	}
	return checkOutputs(&o)
}

// TestOutputNamesReportFile checks that an output naming any file bench
// -out writes is refused before the run: sounds.csv was missing from the
// list, and -record DIR/sounds.csv was replaced by the CSV.
func TestOutputNamesReportFile(t *testing.T) {
	dir := t.TempDir()
	names := reportNames()
	if !slices.Contains(names, "sounds.csv") || !slices.Contains(names, bench.FrameTimeChart) {
		t.Fatalf("reportNames %q: want sounds.csv and the charts among them", names)
	}
	for _, n := range names {
		path := filepath.Join(dir, n)
		err := checkArgs(t, "bench", "-out", dir, "-record", path)
		if want := "-record " + path + " and -out's " + n + " name the same file"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("-record %s: %v; want %q", path, err, want)
		}
	}
}

// TestOutputIsStdout checks that an output naming stdout's own file
// (/dev/stdout, /proc/self/fd/1) is taken as -: refused when the JSON
// summary goes there, where it would have been written into the JSON.
func TestOutputIsStdout(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	saved := os.Stdout
	os.Stdout = w
	defer func() { os.Stdout = saved }()
	name := fmt.Sprintf("/proc/self/fd/%d", w.Fd())
	if _, err := os.Stat(name); err != nil {
		t.Skip(err)
	}
	err = checkArgs(t, "run", "-json", "-record", name)
	if want := "-record " + name + ": that is stdout, and stdout carries the JSON summary (-json)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("-json -record %s: %v; want %q", name, err, want)
	}
	if err := checkArgs(t, "run", "-record", name); err != nil {
		t.Errorf("-record %s, stdout free: %v", name, err)
	}
	err = checkArgs(t, "run", "-record", name, "-trace", "-")
	if err == nil || !strings.Contains(err.Error(), "both would write to stdout") {
		t.Errorf("-record %s -trace -: %v; want both refused", name, err)
	}
	// The process's own fd 1 by its names, unless it is /dev/null, which
	// takes both.
	os.Stdout = saved
	if fi, err := os.Stdout.Stat(); err != nil || isDevNull(fi) {
		return
	}
	for _, name := range []string{"/dev/stdout", "/proc/self/fd/1"} {
		if _, err := os.Stat(name); err != nil {
			continue
		}
		if err := checkArgs(t, "run", "-json", "-record", name); err == nil || !strings.Contains(err.Error(), "that is stdout") {
			t.Errorf("-json -record %s: %v; want it refused", name, err)
		}
	}
}

func isDevNull(fi os.FileInfo) bool {
	null, err := os.Stat(os.DevNull)
	return err == nil && os.SameFile(fi, null)
}
