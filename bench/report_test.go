package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/simthread"
)

// benchLine is a benchmark line as golang.org/x/perf/benchfmt reads it: a
// name without spaces, an iteration count, then value-unit pairs, fields
// separated by tabs.
var benchLine = regexp.MustCompile(`^Benchmark\S+\t\d+(\t *[-+0-9.eE]+ \S+)+$`)

func TestWriteBenchTxt(t *testing.T) {
	results := []Result{
		{Name: "loop=decoupled/simcost=14ms/sprites=2000", Summary: sm(map[string]any{
			"fps_mean": 110.0, "judder": 0.0512, "anim_err_ms_p99": 1.5, "frame_ms_p99": 12.8,
			"latency_ms_p50": 20.1, "input_latency_ms_p50": 31.5, "tps": 60.0, "allocs_per_frame": 0.0, "state_hash": "00ff",
		})},
		// -1 and missing figures are left out; a space in the name becomes '_'.
		{Name: "loop=odd loop/simcost=14ms/sprites=2000", Summary: sm(map[string]any{
			"fps_mean": 47.3, "judder": -1.0, "anim_err_ms_p99": 3.25, "frame_ms_p99": 40.0,
			"tps": 59.9, "allocs_per_frame": 0.125,
		})},
		// No name: built from the cell. No fps: no ns/frame.
		{Loop: "coupled", SimCost: "2ms", Sprites: 100, Summary: sm(map[string]any{"tps": 60.0})},
		// Nothing measured: no line.
		{Name: "loop=coupled/simcost=2ms/sprites=200", Summary: sm(map[string]any{"fps_mean": -1.0, "judder": math.NaN()})},
	}
	wantNames := []string{
		"BenchmarkLoop/loop=decoupled/simcost=14ms/sprites=2000",
		"BenchmarkLoop/loop=odd_loop/simcost=14ms/sprites=2000",
		"BenchmarkLoop/loop=coupled/simcost=2ms/sprites=100",
	}
	wantUnits := [][]string{
		{"ns/frame", "fps", "judder", "anim-err-p99-ms", "frame-p99-ms", "latency-p50-ms", "input-latency-p50-ms", "tps", "allocs/frame"},
		{"ns/frame", "fps", "anim-err-p99-ms", "frame-p99-ms", "tps", "allocs/frame"},
		{"tps"},
	}
	unitFig := map[string]Figure{}
	for _, u := range benchUnits {
		unitFig[u.unit] = u.fig
	}

	var buf bytes.Buffer
	if err := WriteBenchTxt(&buf, results); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, h := range []string{"goos: ", "goarch: ", "pkg: github.com/tandem-engine/tandem\n", "Unit fps better=higher\n",
		"Unit latency-p50-ms better=lower\n", "Unit input-latency-p50-ms better=lower\n"} {
		if !strings.Contains(out, "\n"+h) && !strings.HasPrefix(out, h) {
			t.Errorf("no %q line in\n%s", h, out)
		}
	}
	// Judder is written but claims no direction: a slideshow's even frames
	// score lowest on it, so benchstat must not call lower better.
	if strings.Contains(out, "Unit judder") {
		t.Errorf("bench.txt gives judder a direction:\n%s", out)
	}
	var lines []string
	for l := range strings.Lines(out) {
		if strings.HasPrefix(l, "Benchmark") {
			lines = append(lines, strings.TrimSuffix(l, "\n"))
		}
	}
	if len(lines) != len(wantNames) {
		t.Fatalf("%d benchmark lines, want %d:\n%s", len(lines), len(wantNames), out)
	}
	for i, line := range lines {
		if !benchLine.MatchString(line) {
			t.Errorf("line %d %q is not in benchmark format", i, line)
		}
		f := strings.Fields(line)
		if len(f)%2 != 0 {
			t.Fatalf("line %d has %d fields, want a name, a count and pairs: %q", i, len(f), line)
		}
		if f[0] != wantNames[i] || f[1] != "1" {
			t.Errorf("line %d starts %q %q, want %q 1", i, f[0], f[1], wantNames[i])
		}
		vals := map[string]float64{}
		var units []string
		for j := 2; j < len(f); j += 2 {
			v, err := strconv.ParseFloat(f[j], 64)
			if err != nil {
				t.Errorf("line %d: value %q: %v", i, f[j], err)
			}
			units = append(units, f[j+1])
			vals[f[j+1]] = v
		}
		if !slices.Equal(units, wantUnits[i]) {
			t.Errorf("line %d units %q, want %q", i, units, wantUnits[i])
		}
		for u, v := range vals {
			want := 0.0
			if u == "ns/frame" {
				want = 1e9 / float64(results[i].Summary.FPSMean)
			} else {
				want, _ = unitFig[u].Value(&results[i].Summary)
			}
			// Printed with five significant digits or more.
			if math.Abs(v-want) > 1e-4*math.Abs(want)+1e-7 {
				t.Errorf("line %d: %v %s, want %v", i, v, u, want)
			}
		}
	}
}

// cellResults returns one result per fps value, reps counting from 0.
func cellResults(loop, simCost string, sprites int, fps, p99 []float64) []Result {
	var out []Result
	for i := range fps {
		out = append(out, Result{
			Loop: loop, SimCost: simCost, Sprites: sprites, Rep: i,
			Summary: sm(map[string]any{"fps_mean": fps[i], "frame_ms_p99": p99[i], "judder": -1.0, "hitches": 0.0}),
		})
	}
	return out
}

// mdCells returns the cells of the table row whose first cell is first,
// after the line holding after.
func mdCells(t *testing.T, md, after, first string) []string {
	t.Helper()
	i := strings.Index(md, after)
	if i < 0 {
		t.Fatalf("no %q in\n%s", after, md)
	}
	for l := range strings.Lines(md[i:]) {
		if c := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|"); strings.TrimSpace(c[0]) == first {
			for j := range c {
				c[j] = strings.TrimSpace(c[j])
			}
			return c
		}
	}
	t.Fatalf("no row %q after %q in\n%s", first, after, md)
	return nil
}

func TestWriteMarkdown(t *testing.T) {
	var results []Result
	// Two loops in a cell: medians 50 (odd count) and 110 (even count:
	// the mean of the middle two) fps, 22 and 11 ms p99.
	results = append(results, cellResults("decoupled", "14ms", 2000, []float64{120, 100}, []float64{10, 12})...)
	results = append(results, cellResults("coupled", "14ms", 2000, []float64{40, 60, 50}, []float64{20, 24, 22})...)
	// One loop only: a row, no side-by-side table.
	results = append(results, cellResults("coupled", "2ms", 100, []float64{200}, []float64{6})...)

	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, "bench 2026-01-01", results); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	if !strings.HasPrefix(md, "# bench 2026-01-01\n") {
		t.Errorf("no title heading:\n%s", md)
	}
	if n := strings.Count(md, "Side by side"); n != 1 {
		t.Errorf("%d side-by-side tables, want 1 (one cell holds two loops):\n%s", n, md)
	}

	head := mdCells(t, md, "# bench", "loop")
	want := []string{"loop", "simcost", "sprites", "rep", "`input_source`"}
	for _, m := range mdMetrics {
		want = append(want, "`"+m.fig.Name+"`")
	}
	want = append(want, "`host_steal_pct`") // per run only
	if !slices.Equal(head, want) {
		t.Errorf("header %q, want %q", head, want)
	}
	rows := 0
	for l := range strings.Lines(md[strings.Index(md, "## Runs"):strings.Index(md, "Side by side")]) {
		if strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| loop ") && !strings.HasPrefix(l, "| --- ") {
			rows++
		}
	}
	if rows != len(results) {
		t.Errorf("%d rows, want one per result (%d):\n%s", rows, len(results), md)
	}
	row := mdCells(t, md, "# bench", "decoupled")
	col := func(key string) int { return slices.Index(head, "`"+key+"`") }
	if got := [4]string{row[col("fps_mean")], row[col("frame_ms_p99")], row[col("judder")], row[col("tps")]}; got != [4]string{"120.0", "10.00", "–", "–"} {
		t.Errorf("first row fps, p99, judder, tps = %q, want 120.0 10.00 – –", got)
	}

	sbs := "Side by side: simcost=14ms, sprites=2000"
	if strings.Contains(md[strings.Index(md, sbs):], "host_steal_pct") {
		t.Errorf("a side-by-side table has host_steal_pct (a ratio of steal means nothing):\n%s", md)
	}
	if h := mdCells(t, md, sbs, "median over reps"); !slices.Equal(h, []string{"median over reps", "better", "coupled (n=3)", "decoupled (n=2)", "decoupled vs coupled"}) {
		t.Errorf("side-by-side header %q", h)
	}
	for key, want := range map[string][]string{
		"fps_mean":     {"50.0", "110.0", "2.20x"},
		"frame_ms_p99": {"22.00", "11.00", "0.50x"},
		"judder":       {"–", "–", "–"},
		"hitches":      {"0", "0", "–"}, // no ratio to zero
	} {
		if got := mdCells(t, md, sbs, "`"+key+"`")[2:]; !slices.Equal(got, want) {
			t.Errorf("side by side %s = %q, want %q", key, got, want)
		}
	}
}

// TestSideBySideSlideshowJudder: the coupled loop's 7.8 FPS slideshow
// (on_time_pct 13, every frame even) has the lowest judder; the side-by-side
// table marks it not comparable, ratios included, while the loops on time
// keep their ratio to each other's figures.
func TestSideBySideSlideshowJudder(t *testing.T) {
	figs := map[string]map[string]float64{
		"coupled":   {"judder": 0.001, "on_time_pct": 13},
		"decoupled": {"judder": 0.288, "on_time_pct": 100},
		"threaded":  {"judder": 0.3, "on_time_pct": 88}, // under 90 in every rep: a slideshow too
	}
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, "", matrixResults(figs)); err != nil {
		t.Fatal(err)
	}
	row := mdCells(t, buf.String(), "## Side by side: simcost=0s, sprites=1000", "`judder`")
	want := []string{"`judder`", "lower, among loops on time",
		"0.001 (slideshow, see `on_time_pct`: not comparable)", "0.288",
		"0.300 (slideshow, see `on_time_pct`: not comparable)", "not comparable", "not comparable"}
	if !slices.Equal(row, want) {
		t.Errorf("judder row %q,\nwant %q", row, want)
	}
	// A loop on time beside a coupled loop on time keeps its ratio.
	figs["coupled"]["on_time_pct"], figs["threaded"]["on_time_pct"] = 100, 100
	buf.Reset()
	if err := WriteMarkdown(&buf, "", matrixResults(figs)); err != nil {
		t.Fatal(err)
	}
	row = mdCells(t, buf.String(), "## Side by side: simcost=0s, sprites=1000", "`judder`")
	if row[2] != "0.001" || row[5] != "288.00x" {
		t.Errorf("all on time: judder row %q, want coupled 0.001 and decoupled 288.00x", row)
	}
}

func TestCSVRoundTrip(t *testing.T) {
	frames := []FrameRecord{
		{Start: 1, Present: 2, SimShown: 0, ProbeX: 1.0 / 3, Tick: 0, Age: -1, Delay: 2_500_000, Alpha: 1.0 / 3, Decide: 1, Hold: 21_000_000},
		{Start: math.MinInt64, Present: math.MaxInt64, SimShown: -5, ProbeX: -1e300, Tick: math.MaxUint64, Age: 123456789, Overdue: true},
		{Start: 1_700_000_000_000_000_000, Present: 1_700_000_000_016_666_667, SimShown: 16_666_666, ProbeX: 5e-324, Tick: 42, Age: 0},
	}
	ticks := []simthread.TickRecord{
		{Tick: 0, Due: 0, Start: 50_000, End: 1_050_000},
		{Tick: math.MaxUint64, Due: math.MinInt64, Start: math.MaxInt64, End: -1},
	}
	var fb, tb bytes.Buffer
	if err := WriteFramesCSV(&fb, frames); err != nil {
		t.Fatal(err)
	}
	if err := WriteTicksCSV(&tb, ticks); err != nil {
		t.Fatal(err)
	}
	if h, _, _ := strings.Cut(fb.String(), "\n"); h != "start_ns,present_ns,sim_shown_ns,probe_x_px,tick,age_ns,overdue,delay_ns,alpha,decide_ns,hold_ns" {
		t.Errorf("frames header %q", h)
	}
	if h, _, _ := strings.Cut(tb.String(), "\n"); h != "tick,due_ns,start_ns,end_ns" {
		t.Errorf("ticks header %q", h)
	}
	gotF, err := ReadFramesCSV(&fb)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gotF, frames) {
		t.Errorf("frames round trip:\n got %+v\nwant %+v", gotF, frames)
	}
	gotT, err := ReadTicksCSV(&tb)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gotT, ticks) {
		t.Errorf("ticks round trip:\n got %+v\nwant %+v", gotT, ticks)
	}

	// No records: the header alone, read back as none.
	fb.Reset()
	if err := WriteFramesCSV(&fb, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFramesCSV(&fb); err != nil || len(got) != 0 {
		t.Errorf("empty round trip: %v, %v", got, err)
	}

	// A frames.csv from before decide_ns and hold_ns still reads, with
	// those 0.
	old := "start_ns,present_ns,sim_shown_ns,probe_x_px,tick,age_ns,overdue,delay_ns,alpha\n1,2,3,4.5,6,-1,1,2000000,0.5\n"
	got, err := ReadFramesCSV(strings.NewReader(old))
	want := []FrameRecord{{Start: 1, Present: 2, SimShown: 3, ProbeX: 4.5, Tick: 6, Age: -1, Overdue: true, Delay: 2_000_000, Alpha: 0.5}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("old frames.csv: %+v, %v; want %+v", got, err, want)
	}
}

func TestPressesCSVRoundTrip(t *testing.T) {
	rows := []PressRow{
		{Press: Press{At: 100, Acked: 350, Down: true}, Stamp: 400, Tick: 7, TickStart: 16_666_667, Decide: 20_000_000, Present: 25_000_000},
		{Press: Press{At: math.MinInt64}, Stamp: math.MaxInt64, Tick: math.MaxUint64, TickStart: -1},
	}
	var b bytes.Buffer
	if err := WritePressesCSV(&b, rows); err != nil {
		t.Fatal(err)
	}
	if h, _, _ := strings.Cut(b.String(), "\n"); h != "press_ns,acked_ns,down,stamp_ns,tick,tick_start_ns,decide_ns,present_ns" {
		t.Errorf("inputs header %q", h)
	}
	got, err := ReadPressesCSV(&b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, rows) {
		t.Errorf("inputs round trip:\n got %+v\nwant %+v", got, rows)
	}
	if _, err := ReadPressesCSV(strings.NewReader("press_ns,acked_ns,down,stamp_ns,tick,tick_start_ns,decide_ns,present_ns\n1,2,yes,4,5,6,7,8\n")); err == nil || !strings.Contains(err.Error(), "line 2: down") {
		t.Errorf("a bad down field: %v, want an error naming line 2 and down", err)
	}
}

func TestReadCSVErrors(t *testing.T) {
	const fh = "start_ns,present_ns,sim_shown_ns,probe_x_px,tick,age_ns,overdue,delay_ns,alpha\n"
	const row = "1,2,3,4.5,6,-1,0,2000000,0.5\n"
	for _, tc := range []struct {
		name, in string
		want     []string // in the error
	}{
		{"empty", "", []string{"bench: frames csv", "header"}},
		{"header", "start,present\n" + row, []string{"line 1", "header"}},
		{"int", fh + row + "1,2x,3,4.5,6,-1,0,0,1\n", []string{"line 3", "present_ns", "2x"}},
		{"float", fh + row + row + "1,2,3,abc,6,-1,0,0,1\n", []string{"line 4", "probe_x_px"}},
		{"negative tick", fh + "1,2,3,4.5,-6,-1,0,0,1\n", []string{"line 2", "tick"}},
		{"overdue", fh + "1,2,3,4.5,6,-1,yes,0,1\n", []string{"line 2", "overdue", `"yes"`}},
		{"fields", fh + row + "1,2,3\n", []string{"line 3", "fields"}},
	} {
		_, err := ReadFramesCSV(strings.NewReader(tc.in))
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", tc.name, err, w)
			}
		}
	}
	// A field of megabytes (a stranger's file) is quoted cut short.
	huge := strings.Repeat("9", 1<<20)
	for _, in := range []string{huge + "\n", fh + "1," + huge + "x,3,4.5,6,-1,0,0,1\n", fh + "1,2,3,4.5,6,-1," + huge + ",0,1\n"} {
		_, err := ReadFramesCSV(strings.NewReader(in))
		if err == nil || len(err.Error()) > 400 || !strings.Contains(err.Error(), "99...") {
			t.Errorf("a field of 1 MiB: the error is %d bytes: %.200q; want it quoted cut short", len(fmt.Sprint(err)), err)
		}
	}
	_, err := ReadTicksCSV(strings.NewReader("tick,due_ns,start_ns,end_ns\n0,1,2,3\n1,2,,4\n"))
	if err == nil || !strings.Contains(err.Error(), "bench: ticks csv line 3: start_ns") {
		t.Errorf("ticks: error %v, want one naming line 3 and start_ns", err)
	}
}

func ExampleWriteMarkdown() {
	results := []Result{
		{Loop: "coupled", SimCost: "14ms", Sprites: 2000, Summary: sm(map[string]any{
			"fps_mean": 50.0, "frame_ms_p99": 31.25, "judder": 0.21, "tps": 60.0, "allocs_per_frame": 0.0, "latency_ms_p50": -1.0,
			"host_steal_pct": 0.31})},
		{Loop: "decoupled", SimCost: "14ms", Sprites: 2000, Summary: sm(map[string]any{
			"fps_mean": 110.0, "frame_ms_p99": 12.5, "judder": 0.042, "tps": 60.0, "allocs_per_frame": 0.0, "latency_ms_p50": 24.5,
			"host_steal_pct": 9.12})},
	}
	if err := WriteMarkdown(os.Stdout, "", results); err != nil {
		fmt.Println(err)
	}
	// Output:
	// ## Which loop
	//
	// Input source: unknown in 2 of 2 runs.
	//
	// Each loop's median over its reps, the spread as (min–max). Every pair of loops is compared on every figure: a two-sided Mann-Whitney test, exact with ties up to 30 reps a side, its p Holm-corrected over all the pairs compared on that figure in that cell; and the difference between the two as named (a/b: the ratio of a's to b's, for rates; a−b: the difference in the figure's unit, otherwise), a Hodges-Lehmann estimate with its 95% interval. Each pair then gets one of three words: **behind** (corrected p < 0.05, the interval leaving out no difference and reaching beyond the margin), **level** (the whole interval within the margin, `level within`), **cannot tell** (neither: more reps may tell; -reps auto runs until they do). "not behind" lists the loops behind no other on the figure. With n reps a side the smallest p is 2/C(2n,n): at 4 reps 0.029, 0.17 once corrected over the six pairs of four loops, so nothing can be behind; at 5, 0.008 and 0.048. An interval needs 4 reps a side: with fewer, nothing is level either. The correction is within a figure in a cell, not across the figures and cells: over this many, an odd "behind" can be chance; a loop that is behind in cell after cell is not.
	//
	// ### Load: sim
	//
	// simcost=14ms, sprites=2000:
	//
	// | figure | better | level within | coupled (n=1) | decoupled (n=1) | not behind | behind | level | cannot tell |
	// | --- | --- | --- | --- | --- | --- | --- | --- | --- |
	// | `fps_mean` | higher is better | ±2% | 50.00 | 110.0 | coupled, decoupled |  |  | coupled/decoupled 0.455 (0 to ∞), p=1.00 |
	// | `frame_ms_p99` | lower is better | ±0.5 ms | 31.25 | 12.50 | coupled, decoupled |  |  | coupled−decoupled +18.75 ms (−∞ to ∞), p=1.00 |
	// | `tps` | higher is better, up to `hz` | ±2% | 60.00 | 60.00 | coupled, decoupled |  |  | coupled/decoupled 1.000 (0 to ∞), p=1.00 |
	// | `latency_ms_p50` | lower is better | ±0.5 ms | – | 24.50 | decoupled, (only one loop measured it) |  |  |  |
	//
	// **Recommendation (sim):** no loop is behind another on any of the 3 figures compared: level within the margin in 0 of their comparisons, and the reps cannot tell in 3. Level is not "the same" where the reps cannot tell: run more reps (-reps auto) before choosing, or choose on other grounds.
	//
	// ## Runs
	//
	// | loop | simcost | sprites | rep | `input_source` | `fps_mean` | `frame_ms_p50` | `frame_ms_p99` | `hitches` | `tps` | `tick_jitter_ms_p99` | `anim_err_ms_p99` | `judder` | `on_time_pct` | `latency_ms_p50` | `input_latency_ms_p50` | `allocs_per_frame` | `host_steal_pct` |
	// | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
	// | coupled | 14ms | 2000 | 0 | – | 50.0 | – | 31.25 | 0 | 60.0 | – | – | 0.210 | – | – | – | 0 | 0.3 |
	// | decoupled | 14ms | 2000 | 0 | – | 110.0 | – | 12.50 | 0 | 60.0 | – | – | 0.042 | – | 24.50 | – | 0 | 9.1 |
	//
	// ## Side by side: simcost=14ms, sprites=2000
	//
	// | median over reps | better | coupled (n=1) | decoupled (n=1) | decoupled vs coupled |
	// | --- | --- | --- | --- | --- |
	// | `fps_mean` | higher | 50.0 | 110.0 | 2.20x |
	// | `frame_ms_p50` | lower | – | – | – |
	// | `frame_ms_p99` | lower | 31.25 | 12.50 | 0.40x |
	// | `hitches` | lower | 0 | 0 | – |
	// | `tps` | higher, up to hz | 60.0 | 60.0 | 1.00x |
	// | `tick_jitter_ms_p99` | lower | – | – | – |
	// | `anim_err_ms_p99` | lower | – | – | – |
	// | `judder` | lower, among loops on time | 0.210 | 0.042 | 0.20x |
	// | `on_time_pct` | higher | – | – | – |
	// | `latency_ms_p50` | lower | – | 24.50 | – |
	// | `input_latency_ms_p50` | lower | – | – | – |
	// | `allocs_per_frame` | lower | 0 | 0 | – |
}

// sm is the Summary a JSON line with m's fields decodes to: NaN (and -1
// in the tests' older tables) stands for "not measured", which the line
// writes null.
func sm(m map[string]any) Summary {
	clean := map[string]any{}
	for k, v := range m {
		if f, ok := v.(float64); ok && (math.IsNaN(f) || f == -1) {
			v = nil
		}
		clean[k] = v
	}
	b, err := json.Marshal(clean)
	if err != nil {
		panic(err)
	}
	s, err := ReadSummary(b)
	if err != nil {
		panic(err)
	}
	return s
}
