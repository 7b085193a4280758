//go:build cgo && linux

package tandem

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/internal/soundtest"
)

// clicker plays its beep 40 times, on ticks 3 to 14 apart drawn from its
// seed: a rhythm no frame grid or buffer grid lines up with.
type clicker struct {
	beep      Sound
	next, rng uint64
	played    int
}

func (g *clicker) Info() Info { return Info{Name: "clicker"} }

func (g *clicker) Setup(s *Setup) error {
	g.beep = s.Sound("beep", beepWAV())
	g.rng, g.next = s.Seed()|1, 30
	s.World().Spawn(Sprite{X: 1, Y: 1})
	return nil
}

func (g *clicker) Tick(w *World) {
	if w.Tick() != g.next || g.played == 40 {
		return
	}
	w.Play(g.beep, 1, 0)
	g.played++
	g.rng ^= g.rng << 13
	g.rng ^= g.rng >> 7
	g.rng ^= g.rng << 17
	g.next += 3 + g.rng%12
}

// TestLoopClicksHeard plays 40 beeps on random ticks through the whole
// loop into a PulseAudio null sink and finds them in its recorded
// monitor: none lost or doubled, and each gap between two onsets is the
// gap between the instants they were aimed at (sounds.csv's aimed_ns,
// their ticks' times plus the run's one offset) within 1 ms at p99,
// measured against that gap itself, not rounded to ticks. make test runs
// the threaded loop under 25 ms of render work; TANDEM_SOUND_RUNS names
// others (LOOP:RENDERCOST,...) for docs/results.
func TestLoopClicksHeard(t *testing.T) {
	if raceEnabled {
		t.Skip("times the sound device against the sim, which the race detector slows: make test runs it alone without -race")
	}
	if !soundtest.InChildEnv() {
		s := soundtest.Start(t)
		runs := os.Getenv("TANDEM_SOUND_RUNS")
		if runs == "" {
			runs = "threaded:25ms"
		}
		for _, run := range strings.Split(runs, ",") {
			t.Run(run, func(t *testing.T) {
				soundtest.Child(t, "TestLoopClicksHeard", append(s.Env(), "TANDEM_SOUND_RUN="+run)...)
			})
		}
		return
	}
	loop, cost, _ := strings.Cut(os.Getenv("TANDEM_SOUND_RUN"), ":")
	out := t.TempDir()
	stop := soundtest.Record(t)
	var stdout, stderr bytes.Buffer
	code := 0
	onMain(func() {
		code = Command([]string{"bench", "-loop", loop, "-rendercost", cost, "-seconds", "7", "-warmup", "0", "-input", "synthetic",
			"-json", "-out", out}, &stdout, &stderr, &clicker{})
	})
	rec := stop()
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, stderr.String())
	}
	t.Logf("%s %s: %s", loop, cost, stdout.String())
	// The beeps' aimed instants, ns (the bench clicks only with its key,
	// which the synthetic input has not).
	aimed := soundsColumn(t, filepath.Join(out, "sounds.csv"), 1)
	if len(aimed) != 40 {
		t.Fatalf("sounds.csv has %d beeps, want 40", len(aimed))
	}
	on := soundtest.Onsets(rec, soundtest.Peak(rec)/4, soundtest.Rate/100)
	if len(on) != len(aimed) {
		t.Fatalf("%d onsets in the monitor's recording, want the %d beeps played", len(on), len(aimed))
	}
	var errs []float64
	for i := 1; i < len(on); i++ {
		heard := float64(on[i]-on[i-1]) * 1e3 / soundtest.Rate
		want := float64(aimed[i]-aimed[i-1]) / 1e6
		errs = append(errs, math.Abs(heard-want))
	}
	sort.Float64s(errs)
	p99 := errs[int(math.Ceil(0.99*float64(len(errs))))-1]
	t.Logf("%s %s: gap error p50 %.3f ms, p99 %.3f ms, max %.3f ms over %d gaps", loop, cost, errs[len(errs)/2], p99, errs[len(errs)-1], len(errs))
	if p99 > 1 {
		t.Errorf("gaps between onsets off their aimed gaps by %.3f ms at p99: want within 1 ms", p99)
	}
}

// soundsColumn returns column col of sounds.csv (tick, aimed_ns,
// start_ns), a row each.
func soundsColumn(t *testing.T, name string, col int) []int64 {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("%s: %v", name, err)
	}
	var out []int64
	for _, r := range rows[1:] {
		v, err := strconv.ParseInt(r[col], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}
