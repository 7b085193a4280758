package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tandem-engine/tandem/bench"
)

// -scaling's reps: a fixed number for every count, or with -reps auto as
// many as each count needs for its verdict on scalingBar.

// scalingPlan is how many reps -scaling runs: reps at every count, or with
// looks (-reps auto) a rep at a time at each count until its verdict is
// decided at a look, looks.Max reps, or the budget.
type scalingPlan struct {
	reps   int          // a fixed number of reps; with looks, unused
	looks  *bench.Looks // -reps auto's looks; nil for a fixed number
	budget time.Duration
}

// newScalingPlan returns the plan opts ask for.
func newScalingPlan(opts options) scalingPlan {
	if !opts.repsAuto {
		return scalingPlan{reps: opts.reps}
	}
	return scalingPlan{looks: &bench.Looks{First: scalingFirstLook(), Max: autoMaxReps}, budget: opts.repsBudget}
}

// scalingFirstLook is the fewest pairs whose interval for the median ratio
// exists at the first look's level (bench.LookAlpha): 7, where a fixed
// number of reps needs 6 at 95%.
func scalingFirstLook() int { return fewestPairs(1 - bench.LookAlpha(0, 2)) }

// fewestPairs is the fewest pairs whose interval for the median ratio
// exists at level (bench.MedianCI).
func fewestPairs(level float64) int {
	for n := 1; ; n++ {
		if _, _, ok := bench.MedianCI(make([]float64, n), level); ok {
			return n
		}
	}
}

// text is the plan, said before the first run.
func (p scalingPlan) text() string {
	if p.looks == nil {
		return fmt.Sprintf("bench: -scaling plan: %d reps, every count", p.reps)
	}
	reps := p.looks.Reps()
	return fmt.Sprintf("bench: -scaling plan: -reps auto: each count's pairs are judged after %d reps (its interval at %.1f%%), then after %s (each at %.2f%%), "+
		"and a count whose interval is all at or above %.1f, or all under, runs no more; the rest run until %d reps, or until a rep would end past -reps-budget %v at the pace so far",
		reps[0], 100*(1-bench.LookAlpha(0, len(reps))), strings.Trim(fmt.Sprint(reps[1:]), "[]"), 100*(1-bench.LookAlpha(1, len(reps))),
		scalingBar, p.looks.Max, p.budget)
}

// scalingRunner runs one side of count k's pair in rep.
type scalingRunner func(k int, ceiling bool, rep int) (scalingRun, error)

// runReps runs p's reps at counts with run, in scalingOrder, the pair at
// each count side by side, and returns a row for each count (judged with
// p's looks). It returns early, with what ran, when stopped says so or
// run fails.
func (p scalingPlan) runReps(counts []int, run scalingRunner, stopped func() bool, stderr io.Writer) ([]scalingRow, error) {
	rows := make([]scalingRow, len(counts))
	for k, c := range counts {
		rows[k] = scalingRow{sprites: c, looks: p.looks}
	}
	spent := make([]time.Duration, len(counts)) // each count's pairs' time so far
	began := time.Now()
	i, of := 0, "" // the runs so far; " of N" when N is known (a fixed number of reps)
	if p.looks == nil {
		of = fmt.Sprintf(" of %d", 2*len(counts)*p.reps)
	}
	for rep := 0; ; rep++ {
		todo := p.todo(rows, rep, spent, time.Since(began))
		if len(todo) == 0 {
			return rows, nil
		}
		for _, k := range scalingOrder(len(counts), rep) {
			if !todo[k] {
				continue
			}
			start := time.Now()
			for _, ceiling := range []bool{rep%2 == 1, rep%2 == 0} {
				what := "game"
				if ceiling {
					what = "ceiling"
				}
				i++
				fmt.Fprintf(stderr, "bench: run %d%s: %s, %d sprites, rep %d; %s elapsed\n", i, of, what, counts[k], rep, time.Since(began).Round(time.Second))
				r, err := run(k, ceiling, rep)
				if stopped() {
					return rows, nil
				}
				if err != nil {
					return rows, err
				}
				if ceiling {
					rows[k].ceiling = append(rows[k].ceiling, r)
				} else {
					rows[k].game = append(rows[k].game, r)
				}
			}
			spent[k] += time.Since(start)
		}
		p.sayLook(rows, rep+1, stderr)
	}
}

// sayLook says, after reps, what a look there decided: each count it
// decided, with its verdict and interval, and the counts that run on.
func (p scalingPlan) sayLook(rows []scalingRow, reps int, stderr io.Writer) {
	if p.looks == nil || !p.looks.IsLook(reps) {
		return
	}
	var on []string
	for _, r := range rows {
		verdict, lo, hi, _, level, look := judge(r.pairs(), p.looks, false)
		switch {
		case look == reps:
			fmt.Fprintf(stderr, "bench: the look after %d reps decided %d sprites: %s %.1f× the ceiling (pairs %.2f–%.2f at %.3g%%)\n",
				reps, r.sprites, verdict, scalingBar, *lo, *hi, 100*level)
		case look == 0:
			on = append(on, fmt.Sprint(r.sprites))
		}
	}
	switch {
	case len(on) > 0 && reps >= p.looks.Max:
		fmt.Fprintf(stderr, "bench: the last look, after %d reps: %s sprites undecided\n", reps, strings.Join(on, ", "))
	case len(on) > 0:
		fmt.Fprintf(stderr, "bench: the look after %d reps: %s sprites undecided, running on\n", reps, strings.Join(on, ", "))
	}
}

// todo returns the counts that run rep (none: the sweep is done): with a
// fixed number, every count until then; with looks, the counts not yet
// decided, until looks.Max, or after the first look until a rep would end
// past the budget at the pace so far.
func (p scalingPlan) todo(rows []scalingRow, rep int, spent []time.Duration, elapsed time.Duration) map[int]bool {
	todo := map[int]bool{}
	if p.looks == nil {
		if rep < p.reps {
			for k := range rows {
				todo[k] = true
			}
		}
		return todo
	}
	if rep >= p.looks.Max {
		return todo
	}
	var next time.Duration // the rep's expected time
	for k, r := range rows {
		if _, _, _, _, _, look := judge(r.pairs(), p.looks, false); look == 0 {
			todo[k] = true
			if rep > 0 {
				next += spent[k] / time.Duration(rep)
			}
		}
	}
	if rep >= p.looks.First && elapsed+next > p.budget {
		return map[int]bool{}
	}
	return todo
}

// judge returns the verdict on scalingBar of pairs: at 95% without looks;
// with them, at the first look that decided it (its pairs, its level and
// its place), or, none having decided, at the last look. With final (the
// report's verdict), reps past the last look reached (a budget or an
// interrupt ended the run between looks) count as one more look, at the
// next look's share of the level, which no look used: the shares still add
// up to at most bench.Alpha. Without it (whether to run another rep) they
// count for nothing: a look after every rep at that one share would spend
// it again and again.
func judge(pairs []float64, looks *bench.Looks, final bool) (verdict string, lo, hi *float64, n int, level float64, look int) {
	at := []int{len(pairs)}
	if looks != nil {
		sched := looks.Reps()
		at = at[:0]
		for _, r := range sched {
			if r <= len(pairs) {
				at = append(at, r)
			}
		}
		if final && len(at) < len(sched) && (len(at) == 0 || at[len(at)-1] < len(pairs)) {
			at = append(at, len(pairs))
		}
	}
	for i, m := range at {
		level = bench.Confidence
		if looks != nil {
			level = 1 - bench.LookAlpha(i, len(looks.Reps()))
		}
		verdict, lo, hi, n = "can't tell", nil, nil, m
		l, h, ok := bench.MedianCI(pairs[:m], level)
		if !ok {
			continue
		}
		lo, hi = &l, &h
		switch {
		case l >= scalingBar:
			verdict = "at least"
		case h < scalingBar:
			verdict = "below"
		default:
			continue
		}
		if looks != nil {
			look = m
		}
		return verdict, lo, hi, n, level, look
	}
	return verdict, lo, hi, n, level, 0
}
