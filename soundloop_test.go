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

	"github.com/tandem-engine/tandem/audio"
	"github.com/tandem-engine/tandem/internal/jsonline"
	"github.com/tandem-engine/tandem/internal/soundtest"
)

// clicker plays its beep n times (40 when 0), on ticks 3 to 14 apart
// drawn from its seed: a rhythm no frame grid or buffer grid lines up
// with.
type clicker struct {
	beep      Sound
	n         int
	next, rng uint64
	played    int
}

func (g *clicker) Info() Info { return Info{Name: "clicker"} }

func (g *clicker) Setup(s *Setup) error {
	g.beep = s.Sound("beep", beepWAV())
	g.rng, g.next = s.Seed()|1, 30
	if g.n == 0 {
		g.n = 40
	}
	s.World().Spawn(Sprite{X: 1, Y: 1})
	return nil
}

func (g *clicker) Tick(w *World) {
	if w.Tick() != g.next || g.played == g.n {
		return
	}
	w.Play(g.beep, 1, 0)
	g.played++
	g.rng ^= g.rng << 13
	g.rng ^= g.rng >> 7
	g.rng ^= g.rng << 17
	g.next += 3 + g.rng%12
}

// TestLoopClicksHeard plays beeps on random ticks through the whole loop
// into a PulseAudio null sink and finds them in its recorded monitor:
// none lost or doubled, and each gap between two onsets compared with the
// gap between the instants they were aimed at (sounds.csv's aimed_ns,
// their ticks' times plus the run's one offset), measured against that
// gap itself, not rounded to ticks. Started on their samples (40 beeps),
// the gaps must be within 1 ms at p99; with -audio-on-call (24 beeps, to
// keep it short), each beep starts at the device's next pull, as in an
// engine that plays on call, and the gaps must then be off by at least
// 5 ms at p99: the pulls' granularity, which sample-exact starts remove.
// The summary must say which (audio_timing), and its start errors must
// agree: p99 − p1 within 1 ms on the samples, at least 5 ms on call.
// make test runs the threaded loop under 25 ms of render work, both
// ways; TANDEM_SOUND_RUNS names others (LOOP:RENDERCOST[:on-call],...)
// for docs/results.
func TestLoopClicksHeard(t *testing.T) {
	if raceEnabled {
		t.Skip("times the sound device against the sim, which the race detector slows: make test runs it alone without -race")
	}
	if soundtest.InChildEnv() {
		loopClicksChild(t, os.Getenv("TANDEM_SOUND_RUN"))
		return
	}
	s := soundtest.Start(t)
	runs := os.Getenv("TANDEM_SOUND_RUNS")
	if runs == "" {
		runs = "threaded:25ms,threaded:25ms:on-call"
	}
	for _, run := range strings.Split(runs, ",") {
		t.Run(run, func(t *testing.T) {
			soundtest.Child(t, "TestLoopClicksHeard", append(s.Env(), "TANDEM_SOUND_RUN="+run)...)
		})
	}
}

// loopClicksChild is TestLoopClicksHeard's run LOOP:RENDERCOST[:on-call],
// in a process of its own whose sound goes to the test's null sink.
func loopClicksChild(t *testing.T, run string) {
	loop, cost, _ := strings.Cut(run, ":")
	cost, mode, _ := strings.Cut(cost, ":")
	onCall := mode == "on-call"
	// With the default seed, 40 beeps end by tick 298 (5 s), 24 by tick
	// 201 (3.4 s).
	game, seconds, extra := &clicker{n: 40}, "7", []string{}
	if onCall {
		game.n, seconds, extra = 24, "4", []string{"-audio-on-call"}
	}
	out := t.TempDir()
	args := append([]string{"bench", "-loop", loop, "-rendercost", cost, "-seconds", seconds, "-warmup", "0",
		"-input", "synthetic", "-json", "-out", out}, extra...)
	stop := soundtest.Record(t)
	var stdout, stderr bytes.Buffer
	code := 0
	onMain(func() { code = Command(args, &stdout, &stderr, game) })
	rec := stop()
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, stderr.String())
	}
	t.Logf("%s: %s", run, stdout.String())
	// A device that ran dry, by the mixer's count or the server's, moved
	// every later beep by the silence it played: the gaps cannot hold, and
	// the parent runs the child again (soundtest.Child).
	underruns, _ := jsonline.Field(t, stdout.String(), "audio_underruns").(float64)
	serverUnderflows, _ := jsonline.Field(t, stdout.String(), "audio_server_underflows").(float64)
	dry := int64(max(underruns, serverUnderflows))
	// The beeps' aimed instants, ns (the bench clicks only with its key,
	// which the synthetic input has not).
	aimed := soundsColumn(t, filepath.Join(out, "sounds.csv"), 1)
	if len(aimed) != game.n {
		t.Fatalf("sounds.csv has %d beeps, want %d", len(aimed), game.n)
	}
	on := soundtest.Onsets(rec, soundtest.Peak(rec)/4, soundtest.Rate/100)
	if len(on) != len(aimed) {
		soundtest.Underran(t, dry)
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
	t.Logf("%s: gap error p50 %.3f ms, p99 %.3f ms, max %.3f ms over %d gaps", run, errs[len(errs)/2], p99, errs[len(errs)-1], len(errs))
	soundtest.Underran(t, dry)
	late, _ := jsonline.Field(t, stdout.String(), "tick_late_ms_max").(float64)
	soundtest.LateTick(t, late, audio.DefaultMargin) // a beep of that tick started late
	switch {
	case !onCall && p99 > 1:
		t.Errorf("gaps between onsets off their aimed gaps by %.3f ms at p99: want within 1 ms", p99)
	case onCall && p99 < 5:
		t.Errorf("on call, gaps between onsets off their aimed gaps by %.3f ms at p99: want the device's pulls' granularity, at least 5 ms", p99)
	}
	checkAudioTiming(t, stdout.String(), onCall)
}

// checkAudioTiming checks that a bench's summary says how its sounds
// started, and that its start errors show it: p99 − p1 within 1 ms when
// each started on its sample, at least 5 ms (a pull's granularity) on
// call.
func checkAudioTiming(t *testing.T, summary string, onCall bool) {
	t.Helper()
	timing := "sample"
	if onCall {
		timing = "on-call"
	}
	if got := jsonline.Field(t, summary, "audio_timing"); got != timing {
		t.Errorf("audio_timing %v; want %q", got, timing)
	}
	p1, ok1 := jsonline.Field(t, summary, "audio_start_err_ms_p1").(float64)
	p99, ok99 := jsonline.Field(t, summary, "audio_start_err_ms_p99").(float64)
	if !ok1 || !ok99 {
		t.Fatalf("audio_start_err_ms_p1 and _p99 missing from the summary")
	}
	if spread := p99 - p1; !onCall && spread > 1 || onCall && spread < 5 {
		t.Errorf("audio_start_err_ms p1 %.3f, p99 %.3f (%s): want p99 - p1 within 1 ms on the samples, at least 5 ms on call", p1, p99, timing)
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
