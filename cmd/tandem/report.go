package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/bench/charts"
)

// report draws the charts of the bench run whose report is in the
// directory args names (tandem bench -out DIR, from any game's binary):
// frame_time.png, frame_hist.png, tick_lateness.png and probe_error.png,
// from its frames.csv and ticks.csv. It returns the exit code.
func report(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(stderr, "usage: tandem report DIR\n\nDIR is a bench report (tandem bench -out DIR, or any game's GAME bench -out DIR):\nits charts are drawn from its frames.csv and ticks.csv into DIR.")
		if len(args) == 1 {
			return 0
		}
		return 2
	}
	dir := args[0]
	frames, err := bench.ReadCSVFile(filepath.Join(dir, "frames.csv"), bench.ReadFramesCSV)
	if err != nil {
		fmt.Fprintf(stderr, "tandem report: %v (is %s a bench report? tandem bench -out DIR writes one)\n", err, dir)
		return 1
	}
	ticks, err := bench.ReadCSVFile(filepath.Join(dir, "ticks.csv"), bench.ReadTicksCSV)
	if err != nil {
		fmt.Fprintf(stderr, "tandem report: %v\n", err)
		return 1
	}
	names, err := charts.Run(dir, frames, ticks, title(dir))
	if err != nil {
		fmt.Fprintf(stderr, "tandem report: %v\n", err)
		return 1
	}
	for _, n := range names {
		fmt.Fprintln(stdout, filepath.Join(dir, n))
	}
	return 0
}

// title is the charts' title: the run's loop and sim cost from its
// report.json, or "" when there is none.
func title(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
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
