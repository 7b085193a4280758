package cli

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tandem-engine/tandem/bench"
)

// A sweep's plan: the order of its cells in each rep, and how many reps.

// sweepOrder returns the order rep runs cells in: the blocks (the cells of
// one load, which differ only in their loop) in a random order, and each
// block's cells in a random order, next to each other, so that the
// machine's drift over a rep (warming, throttling, a neighbour's load)
// falls on every loop of a load alike and lines up with none. The order
// is drawn afresh for each rep from seed and the rep alone: a report's
// seed repeats it.
func sweepOrder(cells []benchCell, seed uint64, rep int) []int {
	rng := rand.New(rand.NewPCG(seed, uint64(rep)))
	var blocks []string
	in := map[string][]int{}
	for i, c := range cells {
		if _, ok := in[c.block]; !ok {
			blocks = append(blocks, c.block)
		}
		in[c.block] = append(in[c.block], i)
	}
	rng.Shuffle(len(blocks), func(i, j int) { blocks[i], blocks[j] = blocks[j], blocks[i] })
	order := make([]int, 0, len(cells))
	for _, b := range blocks {
		idx := slices.Clone(in[b])
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		order = append(order, idx...)
	}
	return order
}

// orderNote is the report's paragraph on the order the runs came in: the
// seed, then a line per rep with its blocks in the order run, each with
// its cells' order.
func orderNote(cells []benchCell, seed uint64, results []bench.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Order.** Each rep ran its cells in a fresh random order, the cells of one load next to each other, "+
		"so that the machine's drift falls on every loop of a load alike: seed %d (`-order-seed %d` runs the same order again). "+
		"After each run, the share of the machine other processes took while it ran, where measured (others 3%%).\n", seed, seed)
	for i, r := range results {
		first := i == 0 || results[i-1].Rep != r.Rep
		switch {
		case first:
			fmt.Fprintf(&b, "\n- rep %d: %s: ", r.Rep, blockOf(cells, r.Name))
		case blockOf(cells, results[i-1].Name) != blockOf(cells, r.Name):
			fmt.Fprintf(&b, "; %s: ", blockOf(cells, r.Name))
		default:
			b.WriteString(", ")
		}
		b.WriteString(cellLabel(cells, r.Name))
		if r.OtherPct != nil {
			fmt.Fprintf(&b, " (others %.0f%%)", *r.OtherPct)
		}
	}
	return b.String()
}

// blockOf and cellLabel return the block of the cell called name and what
// tells it apart within its block.
func blockOf(cells []benchCell, name string) string {
	if i := slices.IndexFunc(cells, func(c benchCell) bool { return c.name == name }); i >= 0 {
		return cells[i].block
	}
	return name
}

func cellLabel(cells []benchCell, name string) string {
	if b := blockOf(cells, name); b != name {
		return strings.Trim(strings.Replace(name, b, "", 1), "/")
	}
	return name
}

// repPlan is how many reps a sweep runs: reps, or with auto from reps
// on, a rep at a time, while a comparison is undecided, up to max reps
// and within budget.
type repPlan struct {
	reps, max int
	auto      bool
	budget    time.Duration
	cells     int
	loops     int           // the most loops a block compares
	perCell   time.Duration // the time a cell is expected to take
}

// cellStart is about how long a cell's process takes beyond its warm-up
// and measured seconds: starting, making its window and GL context,
// writing its report.
const cellStart = 2 * time.Second

// autoMaxReps is the most reps -reps auto runs: the exact test's limit.
const autoMaxReps = 30

func newRepPlan(opts options, cells []benchCell) repPlan {
	p := repPlan{reps: max(opts.reps, 1), max: max(opts.reps, 1), auto: opts.repsAuto, budget: opts.repsBudget,
		cells: len(cells), perCell: opts.Measure.Warmup + opts.Seconds + cellStart}
	in := map[string]int{}
	for _, c := range cells {
		in[c.block]++
		p.loops = max(p.loops, in[c.block])
	}
	if p.auto {
		p.reps = max(bench.FewestReps(p.loops, autoMaxReps, bench.Alpha/2), 1)
		p.max = autoMaxReps
	}
	return p
}

// looks returns -reps auto's looks, nil for a fixed number of reps.
func (p repPlan) looks() *bench.Looks {
	if !p.auto {
		return nil
	}
	return &bench.Looks{First: p.reps, Max: p.max}
}

// alpha returns the verdict's level after reps: Alpha for a fixed number
// of reps; with -reps auto, its look's share (bench.LookAlpha).
func (p repPlan) alpha(reps int) float64 {
	if l := p.looks(); l != nil {
		return l.Alpha(reps)
	}
	return bench.Alpha
}

// text is the plan, said before the first run: the cells, the time each
// is expected to take, the reps and the whole time.
func (p repPlan) text(what string) string {
	rep := p.perCell * time.Duration(p.cells)
	s := fmt.Sprintf("bench: %s plan: %d cells a rep, each about %v (warm-up, measured seconds, about %v to start), about %v a rep; ",
		what, p.cells, p.perCell, cellStart, rep.Round(time.Second))
	if !p.auto {
		return s + fmt.Sprintf("%d reps, about %v in all", p.reps, (rep*time.Duration(p.reps)).Round(time.Second))
	}
	fit := p.reps // the first reps run whatever the budget; then the looks that fit
	for _, n := range p.looks().Reps() {
		if rep*time.Duration(n) <= p.budget {
			fit = max(fit, n)
		}
	}
	looks := p.looks().Reps()
	return s + fmt.Sprintf("-reps auto: %d reps first (the fewest at which Holm over the %d pairs of %d loops can call one behind at p < %.3g, half the level), about %v, "+
		"then more reps, judged again after %s reps (each later look at p < %.2g, the other half shared by them), until every pair of loops on every figure is behind or level, "+
		"or -reps-budget %v: at most %d reps, about %v on a quiet machine (a run other processes disturb, taking %d%% of the machine or more, is run again after a wait for quiet, within the budget)",
		p.reps, p.loops*(p.loops-1)/2, p.loops, p.alpha(p.reps), (rep*time.Duration(p.reps)).Round(time.Second),
		strings.Trim(fmt.Sprint(looks[1:]), "[]"), p.alpha(looks[min(1, len(looks)-1)]), p.budget, fit, (rep*time.Duration(fit)).Round(time.Second), disturbedPct)
}

// loadsText names the matrix's loads, each run by every loop, before the
// first run: the game's own first.
func loadsText(cells []benchCell) string {
	var blocks []string
	for _, c := range cells {
		if !slices.Contains(blocks, c.block) {
			blocks = append(blocks, c.block)
		}
	}
	return fmt.Sprintf("bench: -matrix loads, each run by every loop: %s", strings.Join(blocks, "; "))
}

// warning says, before the first run, what the plan cannot decide: a
// fixed -reps too few for any loop to be behind (or level), a budget too
// short for the fewest reps that can.
func (p repPlan) warning() string {
	if p.loops < 2 {
		return ""
	}
	pairs := p.loops * (p.loops - 1) / 2
	fewest := bench.FewestReps(p.loops, 100, bench.Alpha)
	rep := p.perCell * time.Duration(p.cells)
	switch {
	case p.auto && p.budget < rep*time.Duration(p.reps):
		return fmt.Sprintf("bench: -reps-budget %v holds %d of the %d reps at which a loop can first be called behind: the verdicts will say \"cannot tell\"; give -reps-budget %v or more",
			p.budget, int(p.budget/rep), p.reps, (rep * time.Duration(p.reps)).Round(time.Minute))
	case p.auto || p.reps >= fewest:
		return ""
	}
	s := fmt.Sprintf("bench: -reps %d cannot decide which loop is behind: with %d reps a side the smallest p, Holm-corrected over the %d pairs of %d loops, is %.2f, never under %.2f",
		p.reps, p.reps, pairs, p.loops, min(1, float64(pairs)*bench.SmallestP(p.reps)), bench.Alpha)
	if p.reps < bench.FewestLevelReps() {
		s += fmt.Sprintf(", and with fewer than %d no interval exists, so none is level either: every verdict will say \"cannot tell\"", bench.FewestLevelReps())
	} else {
		s += ": pairs can be level, none behind"
	}
	return s + fmt.Sprintf(". Use -reps %d or more, or -reps auto", fewest)
}

// more returns "" when -reps auto should run another rep after reps done
// in elapsed, or why not: at a look, every comparison decided, the most
// reps run, or the budget, which the reps to the next look at the pace so
// far would pass. Between looks it runs on, unless the budget is spent.
func (p repPlan) more(results []bench.Result, reps int, elapsed time.Duration) string {
	l := p.looks()
	if !l.IsLook(reps) {
		if elapsed > p.budget {
			// Waits for a quiet machine and runs run again can pass the
			// budget between looks: the reps past the last look are not
			// judged.
			return fmt.Sprintf("-reps auto ran %d reps in %v: -reps-budget %v is spent (waiting for a quiet machine and running disturbed runs again); the verdicts are the last look's",
				reps, elapsed.Round(time.Second), p.budget)
		}
		return ""
	}
	next := reps
	for _, r := range l.Reps() {
		if r > reps {
			next = r
			break
		}
	}
	v := bench.Verdicts(results, p.looks())
	all := v.Behind + v.Level + v.CannotTell
	done := fmt.Sprintf("-reps auto ran %d reps in %v: ", reps, elapsed.Round(time.Second))
	counts := fmt.Sprintf("%d behind, %d level, %d cannot tell", v.Behind, v.Level, v.CannotTell)
	perRep := elapsed / time.Duration(reps)
	switch {
	case v.CannotTell == 0:
		return done + fmt.Sprintf("every one of the %d comparisons decided (%s)", all, counts)
	case reps >= p.max:
		return done + fmt.Sprintf("the most it runs; of the %d comparisons, %s", all, counts)
	case elapsed+perRep*time.Duration(next-reps) > p.budget:
		return done + fmt.Sprintf("the %d more to the next look, at about %v a rep, would pass -reps-budget %v; of the %d comparisons, %s",
			next-reps, perRep.Round(time.Second), p.budget, all, counts)
	}
	return ""
}

// repsValue is -reps: a whole number, or auto.
type repsValue struct{ o *options }

func (r repsValue) String() string {
	switch {
	case r.o == nil || r.o.reps == 0 && !r.o.repsAuto:
		return "" // the default, which depends on the sweep
	case r.o.repsAuto:
		return "auto"
	}
	return strconv.Itoa(r.o.reps)
}

func (r repsValue) Set(s string) error {
	if s == "auto" {
		r.o.repsAuto = true
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("parse error")
	}
	r.o.reps, r.o.repsAuto = n, false
	return nil
}
