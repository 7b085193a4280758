package cli

import (
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
	cells := matrixCells(matrixSprites)
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
	cells := matrixCells(matrixSprites[:1])
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
