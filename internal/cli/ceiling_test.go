package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/internal/engine"
)

// TestWriteScaling checks -scaling's table on made-up runs: medians,
// ranges, the ratio of the medians, the ratios pair by pair and what
// their interval says of the bar; and the runs' CSV.
func TestWriteScaling(t *testing.T) {
	runs := func(fps ...float64) []scalingRun {
		r := make([]scalingRun, len(fps))
		for i, f := range fps {
			r[i] = scalingRun{FPS: f, TPS: 60}
		}
		return r
	}
	rows := []scalingRow{{
		sprites: 20000,
		game:    []scalingRun{{FPS: 30, TPS: 60, P50: 33.3, AnimP: 4.5, RenderCPU: ptr(31.5), RenderRunq: ptr(0.25), Others: ptr(12.5)}, {FPS: 36, TPS: 60.2}, {FPS: 33, TPS: 59.9}},
		ceiling: []scalingRun{{FPS: 40, P50: 25, RenderCPU: ptr(24.0), RenderRunq: ptr(0.0), Others: ptr(6.0)}, {FPS: 40}, {FPS: 30}},
	},
		{sprites: 50000}, // no runs: no row
		{sprites: 1000, game: runs(95, 92, 99, 91, 94, 96), ceiling: runs(100, 100, 100, 100, 100, 100)},
		{sprites: 5000, game: runs(95, 85, 99, 91, 94, 96), ceiling: runs(100, 100, 100, 100, 100, 100)},
		{sprites: 100000, game: runs(8, 8.5, 8.9, 7, 8.2, 8.1), ceiling: runs(10, 10, 10, 10, 10, 10)},
		{sprites: 20001, game: runs(8.999, 9.5, 9.6, 9.7, 9.8, 9.9), ceiling: runs(10, 10, 10, 10, 10, 10)}, // 0.8999: not the bar
	}
	var b bytes.Buffer
	writeScaling(&b, "title", rows)
	out := b.String()
	for _, want := range []string{
		"# title",
		"| 20000 | 33.0 (30.0–36.0) | 40.0 (30.0–40.0) | 0.82× | 0.90 (0.75–1.10) | can't tell: 3 pairs, 6 at least | 60.0 (59.9–60.2) | 0.000 (0.000–0.000) |",
		"| 1000 | 94.5 (91.0–99.0) | 100.0 (100.0–100.0) | 0.94× | 0.94 (0.91–0.99) | at least (0.91–0.99) |",
		"| 5000 | 94.5 (85.0–99.0) | 100.0 (100.0–100.0) | 0.94× | 0.94 (0.85–0.99) | can't tell (0.85–0.99) |",
		"| 100000 | 8.1 (7.0–8.9) | 10.0 (10.0–10.0) | 0.81× | 0.81 (0.70–0.89) | below (0.70–0.89) |",
		"| 20001 | 9.6 (9.0–9.9) | 10.0 (10.0–10.0) | 0.96× | 0.96 (0.90–0.99) | can't tell (0.89–0.99) |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "| 50000 |") {
		t.Errorf("a count with no runs has a row:\n%s", out)
	}

	b.Reset()
	if err := writeScalingRuns(&b, rows[:1]); err != nil {
		t.Fatal(err)
	}
	want := "sprites,rep,program,fps_mean,frame_ms_p50,frame_ms_p99,tps,allocs_per_frame,anim_err_ms_p99,render_cpu_ms_per_frame,render_runq_ms_per_frame,other_threads_cpu_pct\n" +
		"20000,0,game,30,33.3,0,60,0,4.5,31.5,0.25,12.5\n20000,1,game,36,0,0,60.2,0,0,,,\n20000,2,game,33,0,0,59.9,0,0,,,\n" +
		"20000,0,ceiling,40,25,0,,0,,24,0,6\n20000,1,ceiling,40,0,0,,0,,,,\n20000,2,ceiling,30,0,0,,0,,,,\n"
	if got := b.String(); got != want {
		t.Errorf("runs.csv:\n%s\nwant:\n%s", got, want)
	}

	b.Reset()
	if err := writeScalingJSON(&b, "title", rows); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Title  string
		Counts []scalingCount
	}
	if err := json.Unmarshal(b.Bytes(), &rep); err != nil {
		t.Fatalf("report.json: %v\n%s", err, b.String())
	}
	verdicts := map[int]string{20000: "can't tell", 1000: "at least", 5000: "can't tell", 100000: "below", 20001: "can't tell"}
	if rep.Title != "title" || len(rep.Counts) != len(verdicts) {
		t.Fatalf("report.json: title %q, %d counts; want title and %d (no row for a count without runs)", rep.Title, len(rep.Counts), len(verdicts))
	}
	for _, c := range rep.Counts {
		if c.Verdict != verdicts[c.Sprites] || c.Bar != scalingBar {
			t.Errorf("report.json at %d sprites: verdict %q against %v, want %q", c.Sprites, c.Verdict, c.Bar, verdicts[c.Sprites])
		}
		if (c.Lo == nil) != (c.Pairs < 6) || (c.Lo != nil && (*c.Lo > c.PairRatio || *c.Hi < c.PairRatio)) {
			t.Errorf("report.json at %d sprites: %d pairs, interval %v to %v around %v", c.Sprites, c.Pairs, c.Lo, c.Hi, c.PairRatio)
		}
	}
	if c := rep.Counts[0]; c.Sprites != 20000 || c.GameFPS != 33 || c.CeilingFPS != 40 || c.GameTPS != 60 {
		t.Errorf("report.json's first count: %+v", c)
	}
	if !bytes.Contains(b.Bytes(), []byte(`"pair_ratio_ci95_lo": null`)) {
		t.Errorf("report.json: a count without an interval should say null:\n%s", b.String())
	}
}

func TestMedianSpread(t *testing.T) {
	for _, tc := range []struct {
		v    []float64
		want string
	}{
		{nil, "—"},
		{[]float64{2}, "2.0"},
		{[]float64{4, 1, 3, 2}, "2.5 (1.0–4.0)"},
	} {
		if got := spread(tc.v, "%.1f"); got != tc.want {
			t.Errorf("spread(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

// TestCeilingFlags checks the defaults -ceiling and -scaling set and that
// two modes at once are refused by name.
func TestCeilingFlags(t *testing.T) {
	o, err := testProgram.parseFlags("bench", []string{"-scaling"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if o.reps != scalingReps || o.World.SpriteSize != 16 {
		t.Errorf("-scaling: reps %d, sprite size %d; want %d and 16", o.reps, o.World.SpriteSize, scalingReps)
	}
	if o, err = testProgram.parseFlags("bench", []string{"-ceiling", "-sprites", "300"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !o.ceiling || o.World.Sprites != 300 || o.World.SpriteSize != 16 {
		t.Errorf("-ceiling -sprites 300: ceiling %v, %d sprites of %d px", o.ceiling, o.World.Sprites, o.World.SpriteSize)
	}
	_, err = testProgram.parseFlags("bench", []string{"-ceiling", "-matrix"}, io.Discard)
	if err == nil || err.Error() != "-matrix and -ceiling: run one, then the other" {
		t.Errorf("-ceiling -matrix: error %v", err)
	}
	// With no -sprites, the bench game's count (the default scene's may
	// read none).
	if o, err = testProgram.parseFlags("bench", []string{"-ceiling"}, io.Discard); err != nil || o.World.Sprites < 1 {
		t.Errorf("-ceiling alone: %d sprites, error %v; want the bench game's count", o.World.Sprites, err)
	}
	// A flag the ceiling would ignore is refused by name; its profiles are
	// its own.
	_, err = testProgram.parseFlags("bench", []string{"-ceiling", "-mute", "-loop", "threaded", "-mute"}, io.Discard)
	if err == nil || !strings.HasPrefix(err.Error(), "-ceiling draws the quads alone and does not read -loop, -mute: drop them (it reads -sprites,") {
		t.Errorf("-ceiling -mute -loop threaded: error %v", err)
	}
	if _, err = testProgram.parseFlags("bench", []string{"-ceiling", "-cpuprofile", "c.pprof", "-trace", "t.out", "-seconds", "2"}, io.Discard); err != nil {
		t.Errorf("-ceiling with its profiles: %v", err)
	}
	// The quads turn as the bench game's bunnies do with -spin.
	if o, err = testProgram.parseFlags("bench", []string{"-ceiling", "-spin"}, io.Discard); err != nil || !o.World.Spin {
		t.Errorf("-ceiling -spin: spin %v, error %v; want the quads turning", o.World.Spin, err)
	}
	// -scaling hands its ceiling runs only what they read, -spin with them.
	got := ceilingOnly([]string{"-mute=true", "-warmup=2s", "-loop=threaded", "-spin=true", "-width=800", "-probe=false", "-cpuprofile=g.pprof"})
	if want := []string{"-warmup=2s", "-spin=true", "-width=800"}; !slices.Equal(got, want) {
		t.Errorf("ceilingOnly: %q, want %q", got, want)
	}
}

// TestScalingIgnoredSprites checks that -scaling refuses, before any run,
// a game whose frame rate cannot change with -sprites.
func TestScalingIgnoredSprites(t *testing.T) {
	p := &Program{Name: "breakout", Games: []engine.Game{spritesGame{"breakout", false}}}
	o, err := p.parseFlags("bench", []string{"-scaling"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	if code := p.runScaling(o, io.Discard, &stderr); code != exitError || !strings.Contains(stderr.String(), "breakout never reads -sprites") {
		t.Errorf("-scaling on a game that ignores -sprites: exit %d, stderr %q", code, stderr.String())
	}
}

// TestScalingOrder checks that reps alternate the direction of the
// counts, so that the lightest count's pair never follows the heaviest
// count's run.
func TestScalingOrder(t *testing.T) {
	for rep, want := range [][]int{{0, 1, 2, 3, 4}, {4, 3, 2, 1, 0}, {0, 1, 2, 3, 4}} {
		if got := scalingOrder(5, rep); !slices.Equal(got, want) {
			t.Errorf("rep %d: order %v, want %v", rep, got, want)
		}
	}
}

func ptr(v float64) *float64 { return &v }
