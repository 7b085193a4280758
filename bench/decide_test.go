package bench

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestMannWhitneyP(t *testing.T) {
	for _, c := range []struct {
		name string
		a, b []float64
		want float64
	}{
		// All five of a below all five of b: 1 ordering of C(10,5) = 252
		// at each extreme.
		{"apart 5x5", []float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10}, 2.0 / 252},
		{"apart, b first", []float64{6, 7, 8, 9, 10}, []float64{1, 2, 3, 4, 5}, 2.0 / 252},
		// 3 a side: the extreme is 2/20 = 0.1, never beyond 0.05.
		{"apart 3x3", []float64{1, 2, 3}, []float64{4, 5, 6}, 0.1},
		{"the same", []float64{1, 1, 1}, []float64{1, 1, 1}, 1},
		{"interleaved", []float64{1, 3, 5, 7}, []float64{2, 4, 6, 8}, 0.6857},
	} {
		if got := MannWhitneyP(c.a, c.b); math.Abs(got-c.want) > 1e-3 {
			t.Errorf("%s: p = %.4f, want %.4f", c.name, got, c.want)
		}
	}
	if !math.IsNaN(MannWhitneyP(nil, []float64{1})) {
		t.Error("an empty sample: want NaN")
	}
	// Above 20 a side, the normal approximation: far apart is tiny.
	var a, b []float64
	for i := range 30 {
		a, b = append(a, float64(i)), append(b, float64(i+100))
	}
	if p := MannWhitneyP(a, b); p > 1e-6 {
		t.Errorf("30 vs 30 far apart: p = %g, want tiny", p)
	}
}

// matrixResults makes five reps of each loop in three cells (no load, sim
// load, render load), with the figures given per loop as a base value the
// reps spread around by ±1%.
func matrixResults(figs map[string]map[string]float64) []Result {
	var rs []Result
	for _, cell := range []struct {
		simcost string
		sprites int
	}{{"0s", 1000}, {"8ms", 1000}, {"0s", 5000}} {
		for rep := range 5 {
			for _, loop := range []string{"coupled", "decoupled", "threaded"} {
				m := map[string]any{"input_source": "xtest", "rendercost": "0s"}
				for key, v := range figs[loop] {
					m[key] = v * (1 + 0.005*float64(rep-2))
				}
				rs = append(rs, Result{Loop: loop, SimCost: cell.simcost, Sprites: cell.sprites, Rep: rep, Summary: sm(m)})
			}
		}
	}
	return rs
}

// verdictRow returns the cells of fig's row in the table after after,
// keyed by column: "not behind", "behind", "level", "cannot tell", and the
// loops' names for their medians.
func verdictRow(t *testing.T, md, after, fig string) map[string]string {
	t.Helper()
	i := strings.Index(md, after)
	if i < 0 {
		t.Fatalf("no %q in\n%s", after, md)
	}
	var head []string
	for l := range strings.Lines(md[i:]) {
		c := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|")
		for j := range c {
			c[j] = strings.TrimSpace(c[j])
		}
		if c[0] == "figure" {
			head = c
		}
		if c[0] == "`"+fig+"`" && head != nil {
			row := map[string]string{}
			for j, h := range head {
				row[strings.SplitN(h, " (n=", 2)[0]] = c[j]
			}
			return row
		}
	}
	t.Fatalf("no row %q after %q in\n%s", fig, after, md)
	return nil
}

// TestWhichLoop checks that report.md opens with "## Which loop", built
// from the figures: each load, each figure's direction and margin, every
// pair of loops with its word (behind, level, cannot tell), the loops
// behind none, and a recommendation that follows the data (swap the
// figures and it names the other loop).
func TestWhichLoop(t *testing.T) {
	figs := map[string]map[string]float64{
		"coupled":   {"fps_mean": 60, "input_latency_ms_p50": 20, "on_time_pct": 90},
		"decoupled": {"fps_mean": 300, "input_latency_ms_p50": 30, "on_time_pct": 90.1},
		"threaded":  {"fps_mean": 400, "input_latency_ms_p50": 25, "on_time_pct": 90.2},
	}
	var buf bytes.Buffer
	notes := []string{"sprites: ignored by the game."}
	if err := WriteMatrixMarkdown(&buf, "matrix", matrixResults(figs), notes); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	if !strings.HasPrefix(md, "# matrix\n\n## Which loop\n") {
		t.Fatalf("report does not open with ## Which loop:\n%s", md)
	}
	which := md[:strings.Index(md, "## Runs")]
	for _, want := range []string{
		"sprites: ignored by the game.",
		"Input source: xtest in 45 of 45 runs.",
		"### Load: none", "### Load: sim", "### Load: render",
		"| `fps_mean` | higher is better | ±2% |",
		"| `input_latency_ms_p50` | lower is better | ±0.5 ms |",
	} {
		if !strings.Contains(which, want) {
			t.Errorf("no %q in\n%s", want, which)
		}
	}
	// Each of three loops apart, 5 reps a side: p = 2/252 = 0.008 each,
	// 0.024 Holm-corrected over the three pairs; the ratios as made.
	fps := verdictRow(t, md, "### Load: sim\n", "fps_mean")
	if fps["not behind"] != "threaded" ||
		!strings.Contains(fps[Behind], "coupled behind decoupled: coupled/decoupled 0.200 (") ||
		!strings.Contains(fps[Behind], "decoupled behind threaded: decoupled/threaded 0.750 (0.739 to 0.761), p=0.024") ||
		!strings.Contains(fps[Behind], "coupled behind threaded") || fps[Level] != "" || fps[CannotTell] != "" {
		t.Errorf("sim load, fps_mean: %q; want threaded ahead, every pair behind at p=0.024", fps)
	}
	lat := verdictRow(t, md, "### Load: sim\n", "input_latency_ms_p50")
	if lat["not behind"] != "coupled" || !strings.Contains(lat[Behind], "threaded behind coupled: threaded−coupled +5.00 ms") {
		t.Errorf("sim load, input latency: %q, want coupled (lowest) behind none, threaded 5 ms behind it", lat)
	}
	// 90.2 against 90.1 and 90, each spread ±1%: overlapping reps whose
	// intervals reach past ±1 point: neither behind nor level.
	on := verdictRow(t, md, "### Load: sim\n", "on_time_pct")
	if on["not behind"] != "coupled, decoupled, threaded" || on[Behind] != "" || on[Level] != "" || strings.Count(on[CannotTell], ";") != 2 {
		t.Errorf("on_time_pct 90.2 vs 90.1 vs 90 over overlapping reps: %q; want the three pairs cannot tell", on)
	}
	if !strings.Contains(which, "**Recommendation (sim):** use the coupled or threaded loop: behind another in the fewest of the 3 figures compared (1 each: coupled on frame rate; threaded on input latency p50); where what matters most is one of those, take a loop not behind on it; decoupled is behind in 2 (frame rate, input latency p50).") {
		t.Errorf("sim recommendation not drawn from the data:\n%s", which)
	}

	// The same report with decoupled's figures made the best names it alone.
	figs["decoupled"] = map[string]float64{"fps_mean": 500, "input_latency_ms_p50": 10, "on_time_pct": 90}
	buf.Reset()
	if err := WriteMatrixMarkdown(&buf, "matrix", matrixResults(figs), nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "**Recommendation (none):** use the decoupled loop: it is behind no other loop on any of the 3 figures compared; coupled is behind in 2 (frame rate, input latency p50); threaded is behind in 2 (frame rate, input latency p50).") {
		t.Errorf("decoupled best on both: want decoupled recommended:\n%s", buf.String())
	}

	// One rep a loop: nothing is behind, nothing level, and it says so.
	var one []Result
	for _, r := range matrixResults(figs) {
		if r.Rep == 0 {
			one = append(one, r)
		}
	}
	buf.Reset()
	if err := WriteMarkdown(&buf, "", one); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "no loop is behind another on any of the 3 figures compared: level within the margin in 0 of their comparisons, and the reps cannot tell in 9.") {
		t.Errorf("one rep: want nothing decided:\n%s", buf.String())
	}
}

// TestWhichLoopGroup checks that the verdict names a group of winners and
// what is known between them: decoupled and threaded overlap rep for rep
// within the margin (level), both far ahead of coupled on the frame rate;
// on the latency, 0.5% apart over ±1% reps of 20 ms, every interval is
// inside ±0.5 ms: all three level.
func TestWhichLoopGroup(t *testing.T) {
	figs := map[string]map[string]float64{
		"coupled":   {"fps_mean": 60, "latency_ms_p50": 20.1},
		"decoupled": {"fps_mean": 300, "latency_ms_p50": 20},
		"threaded":  {"fps_mean": 301, "latency_ms_p50": 20.05},
	}
	var buf bytes.Buffer
	if err := WriteMatrixMarkdown(&buf, "matrix", matrixResults(figs), nil); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	fps := verdictRow(t, md, "### Load: none\n", "fps_mean")
	if fps["not behind"] != "decoupled, threaded" || fps[Level] != "decoupled/threaded 0.997 (0.982 to 1.012), p=0.69" ||
		strings.Count(fps[Behind], "coupled behind") != 2 {
		t.Errorf("fps_mean: %q; want decoupled and threaded level, coupled behind both", fps)
	}
	lat := verdictRow(t, md, "### Load: none\n", "latency_ms_p50")
	if lat["not behind"] != "coupled, decoupled, threaded" || strings.Count(lat[Level], ";") != 2 {
		t.Errorf("latency_ms_p50 0.5%% apart over ±1%% reps: %q, want all three level", lat)
	}
	want := "**Recommendation (none):** use the decoupled or threaded loop: none of decoupled and threaded is behind another on any of the 2 figures compared; between them, level within the margin in 2 of their comparisons, and the reps cannot tell in 0; coupled is behind in 1 (frame rate)."
	if !strings.Contains(md, want) {
		t.Errorf("want %q in\n%s", want, md)
	}
}

// TestWhichLoopHolm checks that the comparisons of a figure are corrected
// for being many: four loops of 4 reps, each apart from the next. Any pair
// alone gives p = 2/70 = 0.029, under 0.05; corrected over the six pairs
// each is 0.17, so none is behind (and the ratios, far from 1, are not
// level): every pair cannot tell.
func TestWhichLoopHolm(t *testing.T) {
	var rs []Result
	for rep := range 4 {
		for i, loop := range []string{"coupled", "decoupled", "pipelined", "threaded"} {
			rs = append(rs, Result{Loop: loop, SimCost: "0s", Sprites: 1000, Rep: rep,
				Summary: sm(map[string]any{"fps_mean": float64(100*(i+1) + rep)})})
		}
	}
	if p := MannWhitneyP([]float64{400, 401, 402, 403}, []float64{300, 301, 302, 303}); math.Abs(p-2.0/70) > 1e-9 {
		t.Fatalf("uncorrected p = %.4f, want 2/70", p)
	}
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, "", rs); err != nil {
		t.Fatal(err)
	}
	fps := verdictRow(t, buf.String(), "### Load: none\n", "fps_mean")
	if fps[Behind] != "" || strings.Count(fps[CannotTell], "p=0.17") != 6 {
		t.Errorf("4 reps a side, corrected over six pairs: %q; want all six cannot tell at p=0.17", fps)
	}
	if FewestReps(4, 100, Alpha) != 5 || FewestReps(2, 100, Alpha) != 4 || FewestLevelReps() != 4 {
		t.Errorf("fewest reps: 4 loops %d, 2 loops %d, level %d; want 5, 4, 4", FewestReps(4, 100, Alpha), FewestReps(2, 100, Alpha), FewestLevelReps())
	}
}

func TestHolm(t *testing.T) {
	for _, c := range []struct{ ps, want []float64 }{
		// Sorted 0.01, 0.03, 0.04: times 3, 2, 1 is 0.03, 0.06, 0.04,
		// each raised to the one before: 0.03, 0.06, 0.06.
		{[]float64{0.01, 0.04, 0.03}, []float64{0.03, 0.06, 0.06}},
		{[]float64{0.5, 0.9}, []float64{1, 1}},
		{[]float64{0.008}, []float64{0.008}},
		{[]float64{math.NaN(), 0.01}, []float64{1, 0.02}},
		{nil, []float64{}},
	} {
		got := Holm(c.ps)
		if len(got) != len(c.want) {
			t.Fatalf("Holm(%v) = %v, want %v", c.ps, got, c.want)
		}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("Holm(%v) = %v, want %v", c.ps, got, c.want)
				break
			}
		}
	}
}

// TestLoadOf checks which load each cell counts as.
func TestLoadOf(t *testing.T) {
	cell := func(simcost string, sprites int, rendercost string) *Cell {
		return &Cell{SimCost: simcost, Sprites: sprites, Loops: []*CellLoop{{Loop: "coupled",
			Results: []Result{{Summary: sm(map[string]any{"rendercost": rendercost})}}}}}
	}
	for _, c := range []struct {
		c    *Cell
		want string
	}{
		{cell("0s", 1000, "0s"), "none"},
		{cell("8ms", 1000, "0s"), "sim"},
		{cell("0s", 5000, "0s"), "render"},
		{cell("0s", 1000, "5ms"), "render"},
		{cell("25ms", 5000, "0s"), "sim+render"},
		{cell("0s", 0, "0s"), "own"},
		{cell("8ms", 0, "0s"), "sim"},
		{cell("0s", 0, "8ms"), "render"},
		{&Cell{SimCost: "0s", Knobs: "horde"}, "game: horde"},
	} {
		if got := Load(c.c, 1000); got != c.want {
			t.Errorf("simcost %s sprites %d: load %q, want %q", c.c.SimCost, c.c.Sprites, got, c.want)
		}
	}
}

// TestWhichLoopTickRate checks that a tick rate above the run's hz wins
// nothing: 61.4 and 60 ticks a second at 60 Hz are level, while a sim
// held to 30 is behind.
func TestWhichLoopTickRate(t *testing.T) {
	var rs []Result
	for rep := range 5 {
		for loop, tps := range map[string]float64{"coupled": 30, "decoupled": 61.4, "threaded": 60} {
			rs = append(rs, Result{Loop: loop, SimCost: "25ms", Sprites: 1000, Rep: rep,
				Summary: sm(map[string]any{"tps": tps, "hz": 60.0})})
		}
	}
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, "", rs); err != nil {
		t.Fatal(err)
	}
	row := verdictRow(t, buf.String(), "### Load: sim\n", "tps")
	if row["better"] != "higher is better, up to `hz`" || row["not behind"] != "decoupled, threaded" ||
		row[Level] != "decoupled/threaded 1.000 (1.000 to 1.000), p=1.00" || strings.Count(row[Behind], "coupled behind") != 2 {
		t.Errorf("tps row %q: want higher is better up to hz, decoupled and threaded level at 60, coupled behind", row)
	}
	if row["coupled"] != "30.00 (30.00–30.00)" {
		t.Errorf("coupled's tps %q, want its median and spread, 30.00 (30.00–30.00)", row["coupled"])
	}
}

// TestWhichLoopSlideshow: a loop that wins figures beyond the noise but
// shows the right picture a fraction of the time (a slideshow, like the
// coupled loop at -simcost 25ms: 7.8 FPS, on_time_pct 13) is not the one
// recommended, and the recommendation says why.
func TestWhichLoopSlideshow(t *testing.T) {
	figs := map[string]map[string]float64{
		"coupled":   {"fps_mean": 7.8, "anim_err_ms_p99": 1, "latency_ms_p50": 28, "on_time_pct": 13},
		"decoupled": {"fps_mean": 380, "anim_err_ms_p99": 2.6, "latency_ms_p50": 40, "on_time_pct": 100},
		"threaded":  {"fps_mean": 300, "anim_err_ms_p99": 2.8, "latency_ms_p50": 41, "on_time_pct": 100},
	}
	var buf bytes.Buffer
	if err := WriteMatrixMarkdown(&buf, "matrix", matrixResults(figs), nil); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	i := strings.Index(md, "**Recommendation (none):**")
	if i < 0 {
		t.Fatalf("no recommendation for the load none:\n%s", md)
	}
	rec := md[i : i+strings.Index(md[i:], "\n")]
	if strings.Contains(rec, "use the coupled loop") || !strings.Contains(rec, "use the decoupled loop") || !strings.Contains(rec, "Not coupled") {
		t.Errorf("recommendation %q: want the decoupled loop, and not the coupled loop's slideshow", rec)
	}
}

// TestInputSourcesApart checks that input latencies measured from
// different sources (a real press, the synthetic button) are not
// compared: the pair cannot tell, and says why, and is no comparison of
// the Holm family (the one pair tested keeps its p, 2/252).
func TestInputSourcesApart(t *testing.T) {
	var rs []Result
	for rep := range 5 {
		for loop, src := range map[string]string{"coupled": "xtest", "threaded": "synthetic", "decoupled": "xtest"} {
			lat := map[string]float64{"coupled": 30, "threaded": 10, "decoupled": 20}[loop] + float64(rep)/10
			rs = append(rs, Result{Loop: loop, SimCost: "0s", Sprites: 1000, Rep: rep,
				Summary: sm(map[string]any{"input_latency_ms_p50": lat, "input_source": src})})
		}
	}
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, "", rs); err != nil {
		t.Fatal(err)
	}
	row := verdictRow(t, buf.String(), "### Load: none\n", "input_latency_ms_p50")
	if row[Behind] != "coupled behind decoupled: coupled−decoupled +10.00 ms (+9.70 to +10.30), p=0.008" ||
		!strings.Contains(row[CannotTell], "coupled, threaded: input sources differ (xtest, synthetic), not compared") {
		t.Errorf("input latency over two sources: %q", row)
	}
}

// TestPText checks that a behind pair's p never prints as 0.000.
func TestPText(t *testing.T) {
	for p, want := range map[float64]string{1e-9: "p<0.001", 0.0004: "p<0.001", 0.008: "p=0.008", 0.0495: "p=0.050"} {
		if got := pText(p); got != want {
			t.Errorf("pText(%v) = %q, want %q", p, got, want)
		}
	}
}

// TestVerdictSpread: a loop's spread in "## Which loop" is its reps'
// smallest and largest, whatever order they ran in (it was the first and
// the last rep).
func TestVerdictSpread(t *testing.T) {
	c := &Cell{SimCost: "0s", Sprites: 100}
	for _, loop := range []string{"coupled", "decoupled"} {
		l := &CellLoop{Loop: loop}
		for rep, fps := range []float64{90, 80, 100, 95, 85} {
			l.Results = append(l.Results, Result{Loop: loop, Rep: rep, Summary: sm(map[string]any{"fps_mean": fps})})
		}
		c.Loops = append(c.Loops, l)
	}
	var b strings.Builder
	writeVerdicts(&b, c, nil)
	if !strings.Contains(b.String(), "| 90.00 (80.00–100.0) | 90.00 (80.00–100.0) |") {
		t.Errorf("want each loop's median 90 with its spread 80 to 100:\n%s", b.String())
	}
}
