//go:build cgo

package tandem

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

func TestCoupledProfileSplits(t *testing.T) {
	// The coupled loop runs its ticks on the main thread, inside the
	// frame: its CPU profile still tells them apart, labelled thread=sim
	// by what the code does, not by the thread it is on. At -simcost 8ms
	// and 60 Hz the ticks spin 48% of the wall time on the one thread
	// that draws the rest of the time: about half the labelled samples
	// are the sim's. A profile counts the CPU time each role got, which
	// other processes on the same cores (make test's -race pass runs
	// packages side by side) bend: make test runs this alone.
	if raceEnabled {
		t.Skip("splits CPU samples, which the race detector and the packages tested beside it bend; make test runs it alone without -race")
	}
	needDisplay(t)
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	code, _, errs := tandemMain("bench", "-loop", "coupled", "-simcost", "8ms", "-sprites", "100", "-seconds", "2", "-warmup", "0.3",
		"-input", "synthetic", "-cpuprofile", prof)
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, errs)
	}
	out, err := exec.Command("go", "tool", "pprof", "-tags", prof).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof -tags: %v: %s", err, out)
	}
	share := map[string]float64{}
	for _, m := range regexp.MustCompile(`\(\s*([0-9.]+)%\): (sim|render)\b`).FindAllStringSubmatch(string(out), -1) {
		share[m[2]], _ = strconv.ParseFloat(m[1], 64)
	}
	if share["sim"] < 25 || share["sim"] > 85 || share["render"] < 10 {
		t.Fatalf("thread=sim %.1f%%, thread=render %.1f%% of the labelled samples: want the ticks' share, about half, as sim\n%s",
			share["sim"], share["render"], out)
	}
}
