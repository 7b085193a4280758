package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/simthread"
)

// writeCell writes a matrix cell's directory as tandem bench -matrix -out
// does: report.json, frames.csv and ticks.csv.
func writeCell(t *testing.T, dir, name string, sum map[string]any) {
	t.Helper()
	cd := filepath.Join(dir, "cells", name)
	if err := os.MkdirAll(cd, 0o755); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(sum)
	var fr []bench.FrameRecord
	var ticks []simthread.TickRecord
	for i := range 120 {
		at := int64(1e9 + i*8_000_000)
		fr = append(fr, bench.FrameRecord{Start: at - 4_000_000, Present: at, SimShown: at - 1e9, ProbeX: float64(i) * 2, Age: -1, Alpha: 0.5})
	}
	for i := range 60 {
		at := int64(1e9 + i*16_666_667)
		ticks = append(ticks, simthread.TickRecord{Due: at, Start: at, End: at + 1e6})
	}
	var f, tk bytes.Buffer
	if err := bench.WriteFramesCSV(&f, fr); err != nil {
		t.Fatal(err)
	}
	if err := bench.WriteTicksCSV(&tk, ticks); err != nil {
		t.Fatal(err)
	}
	for n, data := range map[string][]byte{"report.json": b, "frames.csv": f.Bytes(), "ticks.csv": tk.Bytes()} {
		if err := os.WriteFile(filepath.Join(cd, n), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReportMatrix checks that tandem report draws a matrix directory's
// charts, from its cells, input latency and latency per loop among them; and that the
// sprites a cell asked for, not the live entities its summary counts,
// place it.
func TestReportMatrix(t *testing.T) {
	dir := t.TempDir()
	for _, loop := range []string{"coupled", "threaded"} {
		for _, sprites := range []int{1000, 5000} {
			for rep := range 2 {
				// The game makes 152 entities whatever -sprites says.
				writeCell(t, dir, fmt.Sprintf("loop=%s-simcost=14ms-sprites=%d-rep%d", loop, sprites, rep), map[string]any{
					"loop": loop, "simcost": "14ms", "sprites": 152.0, "fps_mean": 60.0 + float64(rep),
					"frame_ms_p99": 20.0, "input_latency_ms_p50": 30.0, "latency_ms_p50": 12.0, "on_time_pct": 80.0, "input_source": "xtest",
				})
			}
		}
	}
	results, err := readMatrix(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 8 {
		t.Fatalf("%d results, want 8", len(results))
	}
	if cells := bench.GroupCells(results); len(cells) != 2 {
		t.Errorf("%d cells, want 2 (sprites 1000 and 5000, not merged by the summary's 152)", len(cells))
	}
	var out, errs bytes.Buffer
	if code := report([]string{dir}, &out, &errs); code != 0 {
		t.Fatalf("tandem report %s: exit %d: %s", dir, code, errs.String())
	}
	for _, name := range []string{"matrix_fps.png", "matrix_frame_p99.png", "matrix_input_latency.png", "matrix_latency.png", "matrix_on_time.png", "matrix_frame_time.png"} {
		if !strings.Contains(out.String(), filepath.Join(dir, name)) {
			t.Errorf("no %s in %q", name, out.String())
		}
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}

	// A pacing sweep's cells are no matrix: the error says where its
	// figures are.
	pacing := t.TempDir()
	writeCell(t, pacing, "delay=auto-cap=0-rep0", map[string]any{"loop": "decoupled"})
	errs.Reset()
	if code := report([]string{pacing}, &out, &errs); code != 1 || !strings.Contains(errs.String(), "report.md") {
		t.Errorf("a pacing sweep: exit %d, %q; want 1 and where its figures are", code, errs.String())
	}
}
