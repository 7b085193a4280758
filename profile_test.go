//go:build cgo && linux

package tandem

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/internal/jsonline"
)

func TestCoupledProfileSplits(t *testing.T) {
	// The coupled loop runs its ticks on the main thread, inside the
	// frame: its CPU profile still tells them apart, labelled thread=sim
	// by what the code does, not by the thread it is on. At -simcost 8ms
	// every tick spins 8 ms: the sim's samples are about the run's ticks
	// times 8 ms, and the rest of the main thread's are thread=render
	// (how many depends on where llvmpipe rasterizes: make test gives it
	// threads of its own, which the profile does not label). A profile
	// counts the CPU time each role got, which other processes on the
	// same cores bend: make test runs this alone, without -race.
	if raceEnabled {
		t.Skip("splits CPU samples, which the race detector and the packages tested beside it bend; make test runs it alone without -race")
	}
	needDisplay(t)
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	code, out, errs := tandemMain("bench", "-loop", "coupled", "-simcost", "8ms", "-sprites", "100", "-seconds", "2", "-warmup", "0.3",
		"-input", "synthetic", "-json", "-cpuprofile", prof)
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, errs)
	}
	ticks := jsonline.Field(t, strings.TrimSpace(out), "ticks").(float64)
	tags, err := exec.Command("go", "tool", "pprof", "-tags", prof).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof -tags: %v: %s", err, tags)
	}
	secs := map[string]float64{}
	for _, m := range regexp.MustCompile(`([0-9.]+)(ms|s) \(\s*[0-9.]+%\): (sim|render)\b`).FindAllStringSubmatch(string(tags), -1) {
		v, _ := strconv.ParseFloat(m[1], 64)
		if m[2] == "ms" {
			v /= 1000
		}
		secs[m[3]] = v
	}
	spin := ticks * 0.008
	if secs["sim"] < 0.7*spin || secs["sim"] > 1.5*spin+0.2 || secs["render"] == 0 {
		t.Fatalf("thread=sim %.2fs, thread=render %.2fs: want the %v ticks' spin, %.2fs, as sim, and the frames as render\n%s",
			secs["sim"], secs["render"], ticks, spin, tags)
	}
}
