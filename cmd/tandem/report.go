package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/bench/charts"
)

// report draws the charts of the bench run whose report is in the
// directory args names (tandem bench -out DIR, from any game's binary):
// frame_time.png, frame_hist.png, tick_lateness.png and probe_error.png,
// from its frames.csv and ticks.csv; or, for a matrix (tandem bench
// -matrix -out DIR, whose runs are in DIR/cells), the matrix's charts from
// every cell's report.json, frames.csv and ticks.csv. The folder may be a
// stranger's: each file is read as package bench reads its files back, a
// regular file under a cap. It returns the exit code.
func report(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(stderr, "usage: tandem report DIR\n\nDIR is a bench report (tandem bench -out DIR, or any game's GAME bench -out DIR):\nits charts are drawn from its frames.csv and ticks.csv into DIR;\nor a matrix (bench -matrix -out DIR): its charts are drawn from each run in DIR/cells.")
		if len(args) == 1 {
			return 0
		}
		return 2
	}
	dir := args[0]
	var names []string
	if st, err := os.Stat(filepath.Join(dir, "cells")); err == nil && st.IsDir() {
		results, err := readMatrix(dir)
		if err != nil {
			fmt.Fprintf(stderr, "tandem report: %v\n", err)
			return 1
		}
		if names, err = charts.Matrix(dir, results); err != nil {
			fmt.Fprintf(stderr, "tandem report: %v\n", err)
			return 1
		}
	} else {
		fp := filepath.Join(dir, "frames.csv")
		if _, err := os.Stat(fp); errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(stderr, "tandem report: %v (is %s a bench report? tandem bench -out DIR writes one, tandem bench -matrix -out DIR a matrix)\n", err, dir)
			return 1
		}
		var err error
		if names, err = charts.RunFiles(dir, fp, filepath.Join(dir, "ticks.csv"), title(dir)); err != nil {
			fmt.Fprintf(stderr, "tandem report: %v\n", err)
			return 1
		}
	}
	for _, n := range names {
		fmt.Fprintln(stdout, filepath.Join(dir, n))
	}
	return 0
}

// readMatrix reads the runs of the matrix in dir: each cell directory's
// report.json, frames.csv and ticks.csv, its place (loop, sim cost,
// sprites asked for, rep) from its name. A -pacing sweep, whose cells are
// not a matrix's, is an error that says where its figures are.
func readMatrix(dir string) ([]bench.Result, error) {
	cells := filepath.Join(dir, "cells")
	entries, err := os.ReadDir(cells)
	if err != nil {
		return nil, err
	}
	var results []bench.Result
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		r, ok := bench.ParseCellDir(e.Name())
		if !ok {
			return nil, fmt.Errorf("%s: not a matrix cell (want loop=L-simcost=C-sprites=N-repR, as bench -matrix -out names them; a -pacing sweep has no charts: its figures are in %s)",
				filepath.Join(cells, e.Name()), filepath.Join(dir, "report.md"))
		}
		cd := filepath.Join(cells, e.Name())
		b, err := bench.ReadFile(filepath.Join(cd, "report.json"), bench.MaxJSONBytes)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w (is %s a finished matrix? each cell writes its report.json when it ends)", err, dir)
		}
		if err != nil {
			return nil, err
		}
		sum, err := bench.ReadSummary(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(cd, "report.json"), err)
		}
		// The charts read a cell's frames only if they draw them, as they
		// draw them: a matrix's CSVs are not held (4 cells of 128 MiB).
		r.Summary = sum
		r.FramesFile = filepath.Join(cd, "frames.csv")
		results = append(results, r)
	}
	if len(results) == 0 {
		return nil, fmt.Errorf("%s holds no cells: run tandem bench -matrix -out %s", cells, dir)
	}
	slices.SortStableFunc(results, func(a, b bench.Result) int { return a.Rep - b.Rep })
	return results, nil
}

// title is the charts' title: the run's loop and sim cost from its
// report.json, or "" when there is none.
func title(dir string) string {
	b, err := bench.ReadFile(filepath.Join(dir, "report.json"), bench.MaxJSONBytes)
	if err != nil {
		return ""
	}
	var s struct {
		Scene, Loop, SimCost string
	}
	if json.Unmarshal(b, &s) != nil {
		return ""
	}
	return fmt.Sprintf("%s, %s loop, simcost %s", s.Scene, s.Loop, s.SimCost)
}
