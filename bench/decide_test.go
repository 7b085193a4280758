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
				rs = append(rs, Result{Loop: loop, SimCost: cell.simcost, Sprites: cell.sprites, Rep: rep, Summary: m})
			}
		}
	}
	return rs
}

// TestWhichLoop checks that report.md opens with "## Which loop", built
// from the figures: each load, each figure's direction, the loops level
// with the best, which are behind beyond the noise, and a recommendation
// that follows the data (swap the figures and it names the other loop).
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
		"| `fps_mean` | higher is better |",
		"| `input_latency_ms_p50` | lower is better |",
	} {
		if !strings.Contains(which, want) {
			t.Errorf("no %q in\n%s", want, which)
		}
	}
	// Each of three loops apart, 5 reps a side: p = 2/252 = 0.008 each,
	// 0.016 Holm-corrected over the two comparisons.
	fps := mdCells(t, md, "### Load: sim\n", "`fps_mean`")
	if best, noise := fps[len(fps)-2], fps[len(fps)-1]; best != "threaded" || noise != "yes, ahead of decoupled (p=0.016), coupled (p=0.016)" {
		t.Errorf("sim load, fps_mean: best %q, noise %q; want threaded, ahead of both at p=0.016", best, noise)
	}
	lat := mdCells(t, md, "### Load: sim\n", "`input_latency_ms_p50`")
	if best := lat[len(lat)-2]; best != "coupled" {
		t.Errorf("sim load, input latency: best %q, want coupled (lowest)", best)
	}
	// 90.2 against 90.1 and 90, each spread ±1%: overlapping reps, all
	// three level.
	on := mdCells(t, md, "### Load: sim\n", "`on_time_pct`")
	if best, noise := on[len(on)-2], on[len(on)-1]; best != "threaded, decoupled, coupled" || !strings.HasPrefix(noise, "no (") {
		t.Errorf("on_time_pct 90.2 vs 90.1 vs 90 over overlapping reps: best %q, noise %q; want all three level, no", best, noise)
	}
	if !strings.Contains(which, "**Recommendation (sim):** use the coupled or threaded loop: behind another beyond the noise in the fewest of the 3 figures compared (1 each: coupled on frame rate; threaded on input latency p50); where what matters most is one of those, take a loop level on it; decoupled is behind in 2 (frame rate, input latency p50).") {
		t.Errorf("sim recommendation not drawn from the data:\n%s", which)
	}

	// The same report with decoupled's figures made the best names it alone.
	figs["decoupled"] = map[string]float64{"fps_mean": 500, "input_latency_ms_p50": 10, "on_time_pct": 90}
	buf.Reset()
	if err := WriteMatrixMarkdown(&buf, "matrix", matrixResults(figs), nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "**Recommendation (none):** use the decoupled loop: it is behind no other loop beyond the noise on any of the 3 figures compared; coupled is behind in 2 (frame rate, input latency p50); threaded is behind in 2 (frame rate, input latency p50).") {
		t.Errorf("decoupled best on both: want decoupled recommended:\n%s", buf.String())
	}

	// One rep a loop: nothing is beyond the noise, and it says so.
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
	if !strings.Contains(buf.String(), "no loop is better beyond the noise") || !strings.Contains(buf.String(), "cannot tell: 1 rep") {
		t.Errorf("one rep: want no verdict beyond the noise:\n%s", buf.String())
	}
}

// TestWhichLoopGroup checks that the verdict names a group of winners:
// decoupled and threaded overlap rep for rep on every figure, both far
// ahead of coupled on the frame rate, so both are best, level, and both
// are recommended, with coupled behind on the frame rate.
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
	fps := mdCells(t, md, "### Load: none\n", "`fps_mean`")
	if best, noise := fps[len(fps)-2], fps[len(fps)-1]; best != "threaded, decoupled" || noise != "yes, ahead of coupled (p=0.016)" {
		t.Errorf("fps_mean: best %q, noise %q; want threaded and decoupled level, ahead of coupled at p=0.016", best, noise)
	}
	lat := mdCells(t, md, "### Load: none\n", "`latency_ms_p50`")
	if best := lat[len(lat)-2]; best != "decoupled, threaded, coupled" {
		t.Errorf("latency_ms_p50 0.5%% apart over ±1%% reps: best %q, want all three level", best)
	}
	want := "**Recommendation (none):** use the decoupled or threaded loop: decoupled and threaded, level, none behind another beyond the noise on any of the 2 figures compared; coupled is behind in 1 (frame rate)."
	if !strings.Contains(md, want) {
		t.Errorf("want %q in\n%s", want, md)
	}
}

// TestWhichLoopHolm checks that the comparisons of a verdict are
// corrected for being many: four loops of 4 reps, each apart from the
// next. The best against any other alone gives p = 2/70 = 0.029, under
// 0.05 (the old verdict, best against runner-up only, called it beyond
// the noise); corrected over the three comparisons each is 0.086, so all
// four are level and nothing is claimed.
func TestWhichLoopHolm(t *testing.T) {
	var rs []Result
	for rep := range 4 {
		for i, loop := range []string{"coupled", "decoupled", "pipelined", "threaded"} {
			rs = append(rs, Result{Loop: loop, SimCost: "0s", Sprites: 1000, Rep: rep,
				Summary: map[string]any{"fps_mean": float64(100*(i+1) + rep)}})
		}
	}
	if p := MannWhitneyP([]float64{400, 401, 402, 403}, []float64{300, 301, 302, 303}); math.Abs(p-2.0/70) > 1e-9 {
		t.Fatalf("uncorrected p = %.4f, want 2/70", p)
	}
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, "", rs); err != nil {
		t.Fatal(err)
	}
	fps := mdCells(t, buf.String(), "### Load: none\n", "`fps_mean`")
	if best, noise := fps[len(fps)-2], fps[len(fps)-1]; best != "threaded, pipelined, decoupled, coupled" || noise != "no (p=0.09 vs pipelined)" {
		t.Errorf("4 reps a side, corrected over three: best %q, noise %q; want all level, no (p=0.09 vs pipelined)", best, noise)
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
			Results: []Result{{Summary: map[string]any{"rendercost": rendercost}}}}}}
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
				Summary: map[string]any{"tps": tps, "hz": 60.0}})
		}
	}
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, "", rs); err != nil {
		t.Fatal(err)
	}
	row := mdCells(t, buf.String(), "### Load: sim\n", "`tps`")
	if row[1] != "higher is better, up to `hz`" || row[len(row)-2] != "decoupled, threaded" || row[len(row)-1] != "yes, ahead of coupled (p=0.016)" {
		t.Errorf("tps row %q: want higher is better up to hz, decoupled and threaded level at 60, coupled behind", row)
	}
	if row[2] != "30.00 (30.00–30.00)" {
		t.Errorf("coupled's tps %q, want its median and spread, 30.00 (30.00–30.00)", row[2])
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
