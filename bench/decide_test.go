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
// from the figures: each load, each figure's direction, the best loop,
// whether it is beyond the noise, and a recommendation that follows the
// data (swap the figures and it names the other loop).
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
	fps := mdCells(t, md, "### Load: sim\n", "`fps_mean`")
	if best, noise := fps[len(fps)-2], fps[len(fps)-1]; best != "threaded" || !strings.HasPrefix(noise, "yes (p=0.008 vs decoupled)") {
		t.Errorf("sim load, fps_mean: best %q, noise %q; want threaded, yes (p=0.008 vs decoupled)", best, noise)
	}
	lat := mdCells(t, md, "### Load: sim\n", "`input_latency_ms_p50`")
	if best := lat[len(lat)-2]; best != "coupled" {
		t.Errorf("sim load, input latency: best %q, want coupled (lowest)", best)
	}
	// 90.2 against 90.1, each spread ±1%: overlapping reps, not beyond
	// the noise.
	on := mdCells(t, md, "### Load: sim\n", "`on_time_pct`")
	if noise := on[len(on)-1]; !strings.HasPrefix(noise, "no (") {
		t.Errorf("on_time_pct 90.2 vs 90.1 over overlapping reps: %q, want no", noise)
	}
	if !strings.Contains(which, "**Recommendation (sim):** use the threaded loop: it is best beyond the noise on 1 of the 3 figures compared (frame rate). Where what matters most is a figure another loop wins beyond the noise, take that one instead: coupled (input latency p50).") {
		t.Errorf("sim recommendation not drawn from the data:\n%s", which)
	}

	// The same report with the loops' figures swapped names the other.
	figs["coupled"], figs["threaded"] = figs["threaded"], figs["coupled"]
	buf.Reset()
	if err := WriteMatrixMarkdown(&buf, "matrix", matrixResults(figs), nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "**Recommendation (none):** use the coupled loop") {
		t.Errorf("swapped figures: want coupled recommended:\n%s", buf.String())
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
// nothing: 61.4 and 60 ticks a second at 60 Hz tie, while a sim held to
// 30 loses.
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
	if row[1] != "higher is better, up to `hz`" || row[len(row)-2] != "tie" {
		t.Errorf("tps row %q: want higher is better up to hz, and a tie at 60", row)
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
