package bench

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// The report's "## Which loop": the tables of the verdicts, cell by cell.

// writeWhichLoop writes the report's "## Which loop": notes first (an
// axis the game ignored, the order the runs came in, the input source),
// then for each load the cells it covers, each figure's loops with their
// medians and every pair's word, and a recommendation drawn from those
// verdicts. Nothing in it is fixed in advance: a loop is named behind only
// where its reps say so.
func writeWhichLoop(w io.Writer, results []Result, notes []string, looks *Looks) {
	alpha := Alpha
	if looks != nil {
		alpha = looks.Alpha(looks.First)
	}
	cells := GroupCells(results)
	fmt.Fprintf(w, "## Which loop\n\n")
	for _, n := range notes {
		fmt.Fprintf(w, "%s\n\n", n)
	}
	fmt.Fprintf(w, "%s\n\n", inputNote(results))
	fewest := math.MaxInt
	multi := 0
	for _, c := range cells {
		if c.Sprites > 0 {
			fewest = min(fewest, c.Sprites)
		}
		if len(c.Loops) > 1 {
			multi++
		}
	}
	if multi == 0 {
		fmt.Fprintf(w, "No cell ran more than one loop: nothing to compare.\n\n")
		return
	}
	fmt.Fprintf(w, "Each loop's median over its reps, the spread as (min–max). Every pair of loops is compared on every figure: "+
		"a two-sided Mann-Whitney test, exact with ties up to %d reps a side, its p Holm-corrected over all the pairs compared on that figure in that cell; "+
		"and the difference between the two as named (a/b: the ratio of a's to b's, for rates; a−b: the difference in the figure's unit, otherwise), "+
		"a Hodges-Lehmann estimate with its %g%% interval. Each pair then gets one of three words: "+
		"**behind** (corrected p < %.2f, the interval leaving out no difference and reaching beyond the margin), "+
		"**level** (the whole interval within the margin, `level within`), "+
		"**cannot tell** (neither: more reps may tell; -reps auto runs until they do). "+
		"\"not behind\" lists the loops behind no other on the figure. "+
		"With n reps a side the smallest p is 2/C(2n,n): at 4 reps %.3f, %.2f once corrected over the six pairs of four loops, so nothing can be behind; at 5, %.3f and %.3f. "+
		"An interval needs %d reps a side: with fewer, nothing is level either. "+
		"The correction is within a figure in a cell, not across the figures and cells: over this many, an odd \"behind\" can be chance; "+
		"a loop that is behind in cell after cell is not.\n\n", exactMax, 100*(1-alpha), alpha,
		SmallestP(4), 6*SmallestP(4), SmallestP(5), 6*SmallestP(5), FewestLevelReps())
	if looks != nil {
		reps := looks.Reps()
		fmt.Fprintf(w, "**-reps auto looked again as the reps grew**, after %s reps. The first look judged at p < %.3g with %g%% intervals; "+
			"each later look at its share of the other half of %.2f, p < %.2g with %.4g%% intervals, so that looking again and again "+
			"calls a loop behind by chance no more often than %.2f in all. A pair stands as the first look that decided it found it (\"at N reps\"); "+
			"a pair no look decided is as the last look found it.\n\n",
			strings.Trim(fmt.Sprint(reps), "[]"), looks.Alpha(reps[0]), 100*(1-looks.Alpha(reps[0])), Alpha,
			looks.Alpha(reps[min(1, len(reps)-1)]), 100*(1-looks.Alpha(reps[min(1, len(reps)-1)])), Alpha)
	}
	for _, load := range loadOrder(cells, fewest) {
		var in []*Cell
		for _, c := range cells {
			if len(c.Loops) > 1 && Load(c, fewest) == load {
				in = append(in, c)
			}
		}
		if len(in) == 0 {
			continue
		}
		fmt.Fprintf(w, "### Load: %s\n\n", load)
		var all []figureVerdict
		for _, c := range in {
			all = append(all, writeVerdicts(w, c, looks)...)
		}
		fmt.Fprintf(w, "**Recommendation (%s):** %s\n\n", load, recommend(all))
	}
}

// CellTitle names a cell by its load: its sim cost and sprites, its
// render cost when it has one, and its game knobs when it has them.
func CellTitle(c *Cell) string {
	s := fmt.Sprintf("simcost=%s, sprites=%s", c.SimCost, spritesText(c.Sprites))
	if c.RenderCost != "" {
		s += ", rendercost=" + c.RenderCost
	}
	if c.Knobs != "" {
		s += ", " + c.Knobs
	}
	return s
}

// CellLabel is a cell's short label for a chart's axis, two lines: its
// sim cost, then its sprites, render cost and game load.
func CellLabel(c *Cell) string {
	s := c.SimCost + "\n" + spritesText(c.Sprites) + " sprites"
	if c.RenderCost != "" {
		s += ", +" + c.RenderCost
	}
	if c.Knobs != "" {
		s += ", " + c.Knobs
	}
	return s
}

// spritesText is a cell's sprites: "own" for the game's own count (0: no
// -sprites given).
func spritesText(n int) string {
	if n == 0 {
		return "own"
	}
	return fmt.Sprint(n)
}

// writeVerdicts writes the table of c's verdicts, one row per figure, and
// returns them.
func writeVerdicts(w io.Writer, c *Cell, looks *Looks) []figureVerdict {
	fmt.Fprintf(w, "%s:\n\n", mdEscape(CellTitle(c)))
	head := []string{"figure", "better", "level within"}
	for _, l := range c.Loops {
		head = append(head, fmt.Sprintf("%s (n=%d)", mdEscape(l.Loop), len(l.Results)))
	}
	head = append(head, "not behind", Behind, Level, CannotTell)
	mdRow(w, head)
	mdRule(w, len(head))
	var vs []figureVerdict
	for _, fig := range decideFigures {
		v := judge(c, fig, looks)
		if len(v.loops) == 0 {
			continue
		}
		vs = append(vs, v)
		row := []string{"`" + fig.fig.Name + "`", fig.direction(), fig.marginText()}
		for _, l := range c.Loops {
			xs := fig.values(l)
			switch len(xs) {
			case 0:
				row = append(row, "–")
			case 1:
				row = append(row, fmtFig(xs[0]))
			default:
				med := Median(xs)
				row = append(row, fmt.Sprintf("%s (%s–%s)", fmtFig(med), fmtFig(slices.Min(xs)), fmtFig(slices.Max(xs))))
			}
		}
		lead := v.leaders()
		if len(v.loops) < 2 {
			lead = append(lead, "(only one loop measured it)")
		}
		row = append(row, mdEscape(strings.Join(lead, ", ")))
		for _, word := range []string{Behind, Level, CannotTell} {
			var parts []string
			for _, p := range v.pairs {
				if p.word == word {
					parts = append(parts, fig.pairText(p))
				}
			}
			row = append(row, mdEscape(strings.Join(parts, "; ")))
		}
		mdRow(w, row)
	}
	fmt.Fprintln(w)
	return vs
}

// pairText says a pair's verdict in a few words: the loops, the
// difference with its interval, and the corrected p.
func (f decideFigure) pairText(p pairVerdict) string {
	a, b, e := p.a, p.b, p.eff
	if p.word == Behind && p.behind == b {
		// The one behind first.
		a, b = b, a
		if f.ratio {
			e = Shift{1 / e.Est, 1 / e.Hi, 1 / e.Lo}
		} else {
			e = Shift{-e.Est, -e.Hi, -e.Lo}
		}
	}
	var d string
	switch {
	case p.apart:
		d = fmt.Sprintf("%s, %s: input sources differ (%s, %s), not compared", a.Loop, b.Loop, inputSource(a), inputSource(b))
	case math.IsNaN(e.Est):
		d = "no difference measurable"
	case f.ratio:
		d = fmt.Sprintf("%s/%s %.3f (%s to %s)", a.Loop, b.Loop, 1/e.Est, fmtBound(1/e.Hi, 3), fmtBound(1/e.Lo, 3))
	default:
		d = fmt.Sprintf("%s−%s %s %s (%s to %s)", a.Loop, b.Loop, fmtBound(-e.Est, 2), f.unit, fmtBound(-e.Hi, 2), fmtBound(-e.Lo, 2))
	}
	switch {
	case p.word == Behind:
		return fmt.Sprintf("%s behind %s: %s, %s%s", a.Loop, b.Loop, d, pText(p.p), lookText(p.look))
	case math.IsNaN(p.p):
		return d
	}
	return fmt.Sprintf("%s, p=%.2f%s", d, p.p, lookText(p.look))
}

// pText is a behind pair's p: three decimals, or "p<0.001" where they
// would print 0.000.
func pText(p float64) string {
	if p < 0.0005 {
		return "p<0.001"
	}
	return fmt.Sprintf("p=%.3f", p)
}

// lookText says at how many reps -reps auto's look decided a pair: "" for
// a verdict of one look.
func lookText(reps int) string {
	if reps == 0 {
		return ""
	}
	return fmt.Sprintf(", at %d reps", reps)
}

// fmtBound prints an interval's bound with d decimals (signed for a
// difference), "∞" when there is none.
func fmtBound(v float64, d int) string {
	switch {
	case math.IsInf(v, 1):
		return "∞"
	case v == 0 && d == 3:
		return "0" // a ratio's bound when there is none
	case math.IsInf(v, -1):
		return "−∞"
	case d == 2:
		if math.Abs(v) < 0.005 {
			v = 0 // not "-0.00"
		}
		return fmt.Sprintf("%+.2f", v)
	}
	return fmt.Sprintf("%.*f", d, v)
}
