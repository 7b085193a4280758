package cli

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/bench"
)

// TestSweepOrder checks each rep's order: every cell once, the cells of a
// block (one load, every loop) next to each other, drawn afresh each rep
// (no loop keeps a place within its block or the rep), and the same again
// from the same seed.
func TestSweepOrder(t *testing.T) {
	cells := matrixCells(matrixSprites, []string{""}, matrixSimcosts)
	firstOf := map[string]map[int]bool{} // loop -> places it held first in its block
	lastBlock := map[string]bool{}       // the blocks that ran last in a rep
	for rep := range 40 {
		order := sweepOrder(cells, 7, rep)
		if !slices.Equal(order, sweepOrder(cells, 7, rep)) {
			t.Fatalf("rep %d: two orders from one seed", rep)
		}
		seen := map[int]bool{}
		var blocks []string
		for k, i := range order {
			if seen[i] {
				t.Fatalf("rep %d: cell %d twice", rep, i)
			}
			seen[i] = true
			b := cells[i].block
			if k == 0 || cells[order[k-1]].block != b {
				if slices.Contains(blocks, b) {
					t.Fatalf("rep %d: block %s split: %v", rep, b, order)
				}
				blocks = append(blocks, b)
				loop := strings.SplitN(cells[i].name, "/", 2)[0]
				if firstOf[loop] == nil {
					firstOf[loop] = map[int]bool{}
				}
				firstOf[loop][rep] = true
			}
		}
		if len(seen) != len(cells) {
			t.Fatalf("rep %d: %d of %d cells", rep, len(seen), len(cells))
		}
		lastBlock[blocks[len(blocks)-1]] = true
	}
	if len(firstOf) != 4 {
		t.Errorf("over 40 reps only %d loops ever ran first in a block: %v", len(firstOf), firstOf)
	}
	if len(lastBlock) < 4 {
		t.Errorf("over 40 reps only %d blocks ever ran last", len(lastBlock))
	}
	if slices.Equal(sweepOrder(cells, 7, 0), sweepOrder(cells, 8, 0)) {
		t.Error("seeds 7 and 8 drew the same order")
	}
}

// TestOrderNote checks that the report states the seed and each rep's
// order as run, block by block.
func TestOrderNote(t *testing.T) {
	cells := matrixCells(matrixSprites[:1], []string{""}, matrixSimcosts)
	var rs []bench.Result
	for rep := range 2 {
		for _, i := range sweepOrder(cells, 42, rep) {
			rs = append(rs, bench.Result{Name: cells[i].name, Rep: rep})
		}
	}
	note := orderNote(cells, 42, rs)
	if !strings.Contains(note, "seed 42 (`-order-seed 42`") {
		t.Errorf("no seed in %q", note)
	}
	lines := strings.Split(note, "\n")
	rep0 := lines[len(lines)-2]
	if !strings.HasPrefix(rep0, "- rep 0: simcost=") || strings.Count(rep0, "loop=") != 16 || strings.Count(rep0, ";") != 3 {
		t.Errorf("rep 0's line %q: want 4 blocks of 4 loops", rep0)
	}
	// The first block's loops in the order they ran.
	first := rs[0].Name
	if !strings.Contains(rep0, ": "+strings.SplitN(first, "/", 2)[0]+", ") {
		t.Errorf("rep 0's line %q does not start with the first run, %s", rep0, first)
	}
}

// fakeCell writes a script that stands for a cell's process: it prints a
// summary whose fps_mean is fps[loop] plus a few hundredths that differ
// from rep to rep, and writes empty records where -out says.
func fakeCell(t *testing.T, fps map[string]float64) string {
	t.Helper()
	var cases strings.Builder
	for loop, v := range fps {
		fmt.Fprintf(&cases, "%s) base=%g;;\n", loop, v)
	}
	script := `#!/bin/sh
loop=; out=
while [ $# -gt 0 ]; do
  case "$1" in -loop) loop=$2;; -out) out=$2;; esac
  shift
done
case "$loop" in
` + cases.String() + `esac
rep=${out##*rep}
mkdir -p "$out"
echo 'start_ns,present_ns,sim_shown_ns,probe_x_px,tick,age_ns,overdue,delay_ns,alpha,decide_ns,hold_ns' > "$out/frames.csv"
echo 'tick,due_ns,start_ns,end_ns' > "$out/ticks.csv"
echo "{\"loop\":\"$loop\",\"simcost\":\"0s\",\"sprites\":1000,\"fps_mean\":$base.$(( (rep * 7) % 10 ))$(( (rep * 3) % 10 ))}"
`
	path := filepath.Join(t.TempDir(), "cell.sh")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRepsAuto checks -reps auto on cells whose figures are made up: four
// loops 100 FPS apart are told apart at the fewest reps that can at half
// the level (6), and
// it stops there; two loops 1% apart with reps within 0.1% are level (the
// interval inside ±2%), not behind; a pair whose ratio's interval reaches
// past the margin stays "cannot tell", and reps are added until the most
// or the budget.
func TestRepsAuto(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("its cells are /bin/sh scripts")
	}
	o, err := testProgram.parseFlags("bench", []string{"-matrix", "-reps", "auto", "-seconds", "1", "-warmup", "0"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	cells := matrixCells(matrixSprites[:1], []string{""}, matrixSimcosts)[:4]
	plan := newRepPlan(o, cells)
	// The first look at half the level: 6 reps (12/924 = 0.013 < 0.025),
	// then looks after 9, 14, 21 and 30, each at 0.025/4.
	if !plan.auto || plan.reps != 6 || plan.loops != 4 || plan.alpha(6) != 0.025 || plan.alpha(8) != 0.025 ||
		math.Abs(plan.alpha(9)-0.025/4) > 1e-15 || !slices.Equal(plan.looks().Reps(), []int{6, 9, 14, 21, 30}) {
		t.Fatalf("plan %+v, looks %v, alpha %g then %g: want auto from 6 reps over 4 loops, at 0.025 then 0.025/4", plan, plan.looks().Reps(), plan.alpha(6), plan.alpha(9))
	}
	text := plan.text("-matrix")
	for _, want := range []string{"4 cells a rep, each about 3s", "about 12s a rep", "-reps auto: 6 reps first", "at p < 0.025, half the level", "about 1m12s",
		"judged again after 9 14 21 30 reps (each later look at p < 0.0063", "or -reps-budget 30m0s: at most 30 reps, about 6m0s"} {
		if !strings.Contains(text, want) {
			t.Errorf("plan %q: no %q", text, want)
		}
	}
	if got := loadsText(matrixCells([]int{0}, matrixRendercosts, matrixSimcosts[:2])); got != "bench: -matrix loads, each run by every loop: simcost=0s/sprites=own; simcost=0s/sprites=own/rendercost=8ms; simcost=8ms/sprites=own; simcost=8ms/sprites=own/rendercost=8ms" {
		t.Errorf("loads: %q", got)
	}
	run := func(fps map[string]float64, plan repPlan) ([]bench.Result, string) {
		dir, cleanup, err := sweepDir(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer cleanup()
		sw := sweep{self: fakeCell(t, fps), dir: dir, input: "synthetic", stop: &sweepStop{}, seed: 1}
		rs, _, ended, err := sw.run(o, cells, plan, io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return rs, ended
	}
	rs, ended := run(map[string]float64{"coupled": 100, "decoupled": 200, "pipelined": 300, "threaded": 400}, plan)
	if len(rs) != 24 || !strings.Contains(ended, "ran 6 reps") || !strings.Contains(ended, "every one of the 6 comparisons decided (6 behind, 0 level, 0 cannot tell)") {
		t.Errorf("four loops far apart: %d runs, %q; want 6 reps, every pair behind", len(rs), ended)
	}
	// 1000 against 1010 FPS, reps a few hundredths apart: 1% apart, behind
	// at 5 reps but level with no pair: -2% < ratio < 0 ... the interval
	// inside ±2%: level, not behind (level comes first).
	rs, ended = run(map[string]float64{"coupled": 1000, "decoupled": 1010, "pipelined": 2000, "threaded": 3000}, plan)
	if len(rs) != 24 || !strings.Contains(ended, "(5 behind, 1 level, 0 cannot tell)") {
		t.Errorf("1000 against 1010: %d runs, %q; want 6 reps, five behind and one level", len(rs), ended)
	}
	// 10 against 10 FPS, the reps up to 0.99 apart: the interval of their
	// ratio reaches past ±2% and 7 reps do not narrow it enough: the most
	// reps (7 here), one pair cannot tell.
	plan.max = 9
	rs, ended = run(map[string]float64{"coupled": 10, "decoupled": 10, "pipelined": 300, "threaded": 400}, plan)
	if len(rs) != 36 || !strings.Contains(ended, "ran 9 reps") || !strings.Contains(ended, "the most it runs") || !strings.Contains(ended, "5 behind, 0 level, 1 cannot tell") {
		t.Errorf("10 against 10: %d runs, %q; want 9 reps, the most, one cannot tell", len(rs), ended)
	}
	// The same with a budget another rep would pass: the budget's reason.
	plan.max, plan.budget = 30, 0
	if _, ended = run(map[string]float64{"coupled": 10, "decoupled": 10, "pipelined": 300, "threaded": 400}, plan); !strings.Contains(ended, "ran 6 reps") || !strings.Contains(ended, "would pass -reps-budget") {
		t.Errorf("a spent budget: %q, want it to stop after the first 6 reps, saying why", ended)
	}
}

// TestRepsWarning checks that a fixed -reps too few to decide says so
// before the sweep starts, and how many would do.
func TestRepsWarning(t *testing.T) {
	cells := matrixCells(matrixSprites, []string{""}, matrixSimcosts)
	for _, c := range []struct {
		reps string
		want string
	}{
		{"1", "-reps 1 cannot decide which loop is behind: with 1 reps a side the smallest p, Holm-corrected over the 6 pairs of 4 loops, is 1.00, never under 0.05, and with fewer than 4 no interval exists, so none is level either"},
		{"4", "-reps 4 cannot decide which loop is behind: with 4 reps a side the smallest p, Holm-corrected over the 6 pairs of 4 loops, is 0.17, never under 0.05: pairs can be level, none behind. Use -reps 5 or more, or -reps auto"},
		{"5", ""},
	} {
		o, err := testProgram.parseFlags("bench", []string{"-matrix", "-reps", c.reps}, os.Stderr)
		if err != nil {
			t.Fatal(err)
		}
		if got := newRepPlan(o, cells).warning(); (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("-reps %s: warning %q, want %q", c.reps, got, c.want)
		}
	}
	o, err := testProgram.parseFlags("bench", []string{"-matrix", "-reps", "auto", "-reps-budget", "5m"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if got := newRepPlan(o, cells).warning(); !strings.Contains(got, "-reps-budget 5m0s holds 1 of the 6 reps") {
		t.Errorf("-reps auto -reps-budget 5m over 32 cells: %q, want it said that the budget holds too few", got)
	}
	for _, bad := range [][]string{{"-matrix", "-reps", "many"}, {"-pacing", "-reps", "auto"}, {"-matrix", "-reps", "auto", "-reps-budget", "10s"}, {"-matrix", "-reps-budget", "1h"}} {
		if _, err := testProgram.parseFlags("bench", bad, io.Discard); err == nil {
			t.Errorf("%q: want an error", bad)
		} else {
			t.Logf("%q: %v", bad, err)
		}
	}
}
