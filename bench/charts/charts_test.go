package charts

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/simthread"
)

func TestRunCharts(t *testing.T) {
	fr, ticks := testFrames(600)
	dir := filepath.Join(t.TempDir(), "run") // created by RunCharts
	names, err := Run(dir, fr, ticks, "decoupled 14ms")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"frame_time.png", "frame_hist.png", "tick_lateness.png", "probe_error.png"}
	if !slices.Equal(names, want) {
		t.Fatalf("wrote %q, want %q", names, want)
	}
	checkPNGs(t, dir, names)

	// Flat data: every frame 8 ms, every tick on time, one histogram bin.
	for i := range fr {
		fr[i].Present = int64(i) * 8e6
		fr[i].ProbeX = float64(i)
	}
	for i := range ticks {
		ticks[i].Start = ticks[i].Due
	}
	dir = t.TempDir()
	if names, err = Run(dir, fr, ticks, ""); err != nil || !slices.Equal(names, want) {
		t.Fatalf("flat data: wrote %q, %v; want %q", names, err, want)
	}
	checkPNGs(t, dir, names)

	// Nothing to chart: nothing written.
	dir = t.TempDir()
	names, err = Run(dir, fr[:1], nil, "")
	if err != nil || len(names) != 0 {
		t.Errorf("one frame, no ticks: wrote %q, %v; want nothing", names, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("one frame, no ticks: %d files in dir", len(ents))
	}
}

func TestChartsReplaceSymlinks(t *testing.T) {
	// A bench folder unpacked from someone else's archive, with
	// frame_time.png -> the user's ~/.bashrc: tandem report DIR replaces
	// the link with the chart and leaves its target as it was.
	fr, ticks := testFrames(600)
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), ".bashrc")
	if err := os.WriteFile(victim, []byte("export PATH\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, "frame_time.png")); err != nil {
		t.Fatal(err)
	}
	names, err := Run(dir, fr, ticks, "")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "export PATH\n" {
		t.Fatalf("the symlink's target was written: %.40q", b)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "frame_time.png")); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("frame_time.png is not a file of its own: %v %v", fi, err)
	}
	checkPNGs(t, dir, names)
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".*")); len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

func TestMatrixCharts(t *testing.T) {
	fr, _ := testFrames(300)
	var results []bench.Result
	for _, sc := range []string{"2ms", "14ms"} {
		for _, sprites := range []int{100, 2000} {
			for rep := range 2 {
				for i, loop := range []string{"decoupled", "coupled"} {
					r := bench.Result{Loop: loop, SimCost: sc, Sprites: sprites, Rep: rep, Summary: summaryOf(map[string]any{
						"fps_mean": 50 + 60*float64(i) + float64(rep), "frame_ms_p99": 20 - 10*float64(i),
						"input_latency_ms_p50": 30 + 10*float64(i), "on_time_pct": 90 - float64(rep),
						"latency_ms_p50": 20 - 8*float64(i) + float64(rep),
					})}
					if sc == "14ms" && sprites == 100 && !(loop == "coupled" && rep == 0) {
						r.Frames = fr
					}
					results = append(results, r)
				}
			}
		}
	}
	dir := t.TempDir()
	names, err := Matrix(dir, results)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"matrix_fps.png", "matrix_frame_p99.png", "matrix_input_latency.png", "matrix_latency.png", "matrix_on_time.png", "matrix_frame_time.png"}
	if !slices.Equal(names, want) {
		t.Fatalf("wrote %q, want %q", names, want)
	}
	checkPNGs(t, dir, names)

	// No frames kept: no frame-time chart.
	for i := range results {
		results[i].Frames = nil
	}
	names, err = Matrix(t.TempDir(), results)
	if err != nil || !slices.Equal(names, want[:5]) {
		t.Errorf("without frames: wrote %q, %v; want %q", names, err, want[:5])
	}
}

// TestMatrixLatencyBars checks the bars of matrix_latency.png: per cell,
// each loop's median latency_ms_p50 over its reps, and no bar for a loop
// that did not measure it or did not run there.
func TestMatrixLatencyBars(t *testing.T) {
	var results []bench.Result
	for rep, lat := range []float64{11, 13, 12} {
		results = append(results,
			bench.Result{Loop: "coupled", SimCost: "0s", Sprites: 1000, Rep: rep, Summary: summaryOf(map[string]any{"latency_ms_p50": lat})},
			bench.Result{Loop: "decoupled", SimCost: "0s", Sprites: 1000, Rep: rep, Summary: summaryOf(map[string]any{"latency_ms_p50": 2 * lat})},
			bench.Result{Loop: "coupled", SimCost: "8ms", Sprites: 1000, Rep: rep, Summary: summaryOf(map[string]any{"latency_ms_p50": -1.0})},
			bench.Result{Loop: "decoupled", SimCost: "8ms", Sprites: 1000, Rep: rep, Summary: summaryOf(map[string]any{"latency_ms_p50": 30 + lat})},
			bench.Result{Loop: "threaded", SimCost: "8ms", Sprites: 1000, Rep: rep, Summary: summaryOf(map[string]any{"latency_ms_p50": 40.0})},
		)
	}
	cells := bench.GroupCells(results)
	for loop, want := range map[string]plotter.Values{
		"coupled":   {12, 0}, // -1 is not measured: no bar
		"decoupled": {24, 42},
		"threaded":  {0, 40}, // not run at 0s
	} {
		if got := barValues(cells, loop, bench.FigLatencyMsP50); !slices.Equal(got, want) {
			t.Errorf("%s latency bars %v, want %v", loop, got, want)
		}
	}
	names, err := Matrix(t.TempDir(), results)
	if err != nil || !slices.Contains(names, "matrix_latency.png") {
		t.Errorf("Matrix wrote %q, %v; want matrix_latency.png among them", names, err)
	}
}

// testFrames returns n frames presented every 8 ms with one 70 ms hitch,
// showing a probe that moves 1 px per ms of sim time, and the 60 Hz ticks
// over the same time, every tenth 3 ms late.
func testFrames(n int) ([]bench.FrameRecord, []simthread.TickRecord) {
	const t0 = 5_000_000_000
	var fr []bench.FrameRecord
	at := int64(t0)
	for i := range n {
		if i == n/2 {
			at += 62e6
		}
		sim := at - t0 - 2e6
		fr = append(fr, bench.FrameRecord{Start: at - 7e6, Present: at, SimShown: sim, ProbeX: float64(sim) / 1e6, Tick: uint64(sim / 16_666_667), Age: -1})
		at += 8e6
	}
	var ticks []simthread.TickRecord
	for k := uint64(0); int64(k)*16_666_667 < at-t0; k++ {
		due := t0 + int64(k)*16_666_667
		late := int64(50e3)
		if k%10 == 0 {
			late = 3e6
		}
		ticks = append(ticks, simthread.TickRecord{Tick: k, Due: due, Start: due + late, End: due + late + 1e6})
	}
	return fr, ticks
}

// checkPNGs checks that every file decodes as a 768x384 PNG (8x4 inches
// at 96 dpi) with something drawn on it.
func checkPNGs(t *testing.T, dir string, names []string) {
	t.Helper()
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := img.Bounds().Size(); got != image.Pt(768, 384) {
			t.Errorf("%s is %v, want 768x384", name, got)
		}
		dark := 0
		for y := range 384 {
			for x := range 768 {
				if r, g, b, _ := img.At(x, y).RGBA(); r+g+b < 3*0x8000 {
					dark++
				}
			}
		}
		if dark < 500 {
			t.Errorf("%s has %d dark pixels: nearly blank", name, dark)
		}
	}
}

func TestFrameTimeCell(t *testing.T) {
	cellsOf := func(cells ...string) []*bench.Cell {
		var rs []bench.Result
		for _, c := range cells {
			sc, sprites, _ := strings.Cut(c, "/")
			n, _ := strconv.Atoi(sprites)
			rs = append(rs, bench.Result{Loop: "coupled", SimCost: sc, Sprites: n})
		}
		return bench.GroupCells(rs)
	}
	for _, tc := range []struct {
		cells []string
		want  string
	}{
		{[]string{"2ms/100", "14ms/5000", "14ms/2000", "20ms/100"}, "14ms/2000"},
		// No 14ms: the heaviest sim cost, by duration, not by text.
		{[]string{"5ms/100", "20ms/3000", "2ms/100", "20ms/1000"}, "20ms/1000"},
		{[]string{"x/7", "5ms/100"}, "5ms/100"},
		{[]string{"x/7"}, "x/7"},
	} {
		c := frameTimeCell(cellsOf(tc.cells...))
		if got := c.SimCost + "/" + strconv.Itoa(c.Sprites); got != tc.want {
			t.Errorf("frameTimeCell(%q) = %s, want %s", tc.cells, got, tc.want)
		}
	}
	if c := frameTimeCell(nil); c != nil {
		t.Errorf("frameTimeCell(nil) = %v, want nil", c)
	}
}

// summaryOf is the Summary a JSON line with m's fields decodes to; -1
// stands for "not measured", which the line writes null.
func summaryOf(m map[string]any) bench.Summary {
	for k, v := range m {
		if v == -1.0 {
			m[k] = nil
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	s, err := bench.ReadSummary(b)
	if err != nil {
		panic(err)
	}
	return s
}
