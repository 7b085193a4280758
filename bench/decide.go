package bench

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// The verdict of a matrix: which loop is best on each figure, for each
// kind of load, and whether the difference is beyond the noise.

// Alpha is the significance level of the verdict's test: a difference
// whose two-sided Mann-Whitney p-value is below it is beyond the noise
// (benchstat's default too).
const Alpha = 0.05

// decideFigure is a figure the verdict weighs: its Summary key, what to
// call it, and which way is better.
type decideFigure struct {
	key, name string
	higher    bool
	// capKey names the Summary figure that bounds this one: a tick rate
	// above the run's hz is no better than hz itself.
	capKey string
}

// decideFigures are the figures "## Which loop" weighs: the frame rate,
// the worst frames, the smoothness a viewer sees, the sim keeping its rate,
// and the two latencies.
var decideFigures = []decideFigure{
	{key: "fps_mean", name: "frame rate", higher: true},
	{key: "frame_ms_p99", name: "frame time p99", higher: false},
	{key: "on_time_pct", name: "on time", higher: true},
	{key: "anim_err_ms_p99", name: "animation error p99", higher: false},
	{key: "tps", name: "ticks per second", higher: true, capKey: "hz"},
	{key: "latency_ms_p50", name: "latency p50", higher: false},
	{key: "input_latency_ms_p50", name: "input latency p50", higher: false},
}

func (f decideFigure) direction() string {
	switch {
	case f.capKey != "":
		return "higher is better, up to `" + f.capKey + "`"
	case f.higher:
		return "higher is better"
	}
	return "lower is better"
}

// values returns f's figure of l's reps that measured it, each bounded
// by its run's capKey figure when f has one.
func (f decideFigure) values(l *CellLoop) []float64 {
	var xs []float64
	for _, r := range l.Results {
		v, ok := summaryNum(r.Summary, f.key)
		if !ok {
			continue
		}
		if c, ok := summaryNum(r.Summary, f.capKey); ok && f.capKey != "" {
			v = min(v, c)
		}
		xs = append(xs, v)
	}
	return xs
}

// median returns the median of xs (the mean of the middle two for an even
// count), as [CellLoop.Median] does; xs is sorted in place.
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// Load names the kind of load a cell puts on the loops: "none", "sim"
// (a sim cost), "render" (more sprites than the matrix's fewest, or a
// render cost) or "sim+render".
func Load(c *Cell, fewestSprites int) string {
	sim := false
	if d, err := time.ParseDuration(c.SimCost); err == nil && d > 0 {
		sim = true
	}
	render := c.Sprites > fewestSprites
	for _, l := range c.Loops {
		for _, r := range l.Results {
			if s, ok := r.Summary["rendercost"].(string); ok {
				if d, err := time.ParseDuration(s); err == nil && d > 0 {
					render = true
				}
			}
		}
	}
	switch {
	case sim && render:
		return "sim+render"
	case sim:
		return "sim"
	case render:
		return "render"
	}
	return "none"
}

// loads is the order the verdict takes the loads in.
var loads = []string{"none", "sim", "render", "sim+render"}

// figureVerdict is the verdict on one figure in one cell: each loop that
// measured it, best median first, and which of them the best is ahead of
// beyond the noise.
type figureVerdict struct {
	fig    decideFigure
	ranked []rankedLoop // best median first; empty when no loop measured it
	// samples is the fewest reps of any loop in ranked: under 2, nothing
	// can be told apart.
	samples int
	// slideshows are the loops that fall behind where the best keeps up: on
	// on_time_pct, every rep under behindPct while the best's median is at
	// least keptPct (a slideshow, however even its frames).
	slideshows []string
}

// rankedLoop is one loop's place in a figureVerdict.
type rankedLoop struct {
	l   *CellLoop
	med float64
	// p is Mann-Whitney's two-sided p of the best loop's reps against this
	// loop's, Holm-corrected over the verdict's comparisons (one per loop
	// but the best); NaN for the best itself and when untestable.
	p float64
	// behind reports whether the best is ahead of this loop beyond the
	// noise: a worse median and a corrected p under Alpha.
	behind bool
}

// best returns the loop with the best median, or nil when no loop
// measured the figure.
func (v figureVerdict) best() *CellLoop {
	if len(v.ranked) == 0 {
		return nil
	}
	return v.ranked[0].l
}

// level returns the loops the best is not ahead of beyond the noise, the
// best first: the figure's winners, together.
func (v figureVerdict) level() []string {
	var out []string
	for _, r := range v.ranked {
		if !r.behind {
			out = append(out, r.l.Loop)
		}
	}
	return out
}

// A loop falls behind on on_time_pct when every rep of it shows the right
// picture less than behindPct of the display time while the best loop's
// median is at least keptPct: it is then not recommended, whatever else
// it wins.
const behindPct, keptPct = 90, 99

// verdict judges fig in c: the loop with the best median, tested against
// every other loop (Mann-Whitney), the p-values Holm-corrected over those
// comparisons, so that a verdict over four loops is no likelier to call a
// difference by chance than one over two. The loops not behind beyond the
// noise are level with the best.
func verdict(c *Cell, fig decideFigure) figureVerdict {
	v := figureVerdict{fig: fig}
	for _, l := range c.Loops {
		if xs := fig.values(l); len(xs) > 0 {
			v.ranked = append(v.ranked, rankedLoop{l: l, med: median(xs), p: math.NaN()})
		}
	}
	if len(v.ranked) == 0 {
		return v
	}
	// Best first; loops with the same median by name, so that a report
	// does not depend on the order its runs came in.
	slices.SortFunc(v.ranked, func(a, b rankedLoop) int {
		by := cmp.Compare(a.med, b.med)
		if fig.higher {
			by = -by
		}
		return cmp.Or(by, cmp.Compare(a.l.Loop, b.l.Loop))
	})
	best := v.ranked[0]
	v.samples = len(fig.values(best.l))
	if fig.key == "on_time_pct" && best.med >= keptPct {
		for _, r := range v.ranked[1:] {
			if slices.Max(fig.values(r.l)) < behindPct {
				v.slideshows = append(v.slideshows, r.l.Loop)
			}
		}
	}
	ps := make([]float64, len(v.ranked)-1)
	for i, r := range v.ranked[1:] {
		xs := fig.values(r.l)
		v.samples = min(v.samples, len(xs))
		ps[i] = MannWhitneyP(fig.values(best.l), xs)
	}
	for i, p := range Holm(ps) {
		r := &v.ranked[i+1]
		r.p = p
		r.behind = p < Alpha && r.med != best.med
	}
	return v
}

// writeWhichLoop writes the report's "## Which loop": notes first (an
// axis the game ignored, the input source), then for each load the cells
// it covers, each figure's best loop with its direction, the loops level
// with it and those behind beyond the noise, and a recommendation drawn
// from those verdicts. Nothing in it is fixed in advance: a loop is named
// best only where its reps say so.
func writeWhichLoop(w io.Writer, results []Result, notes []string) {
	cells := GroupCells(results)
	fmt.Fprintf(w, "## Which loop\n\n")
	for _, n := range notes {
		fmt.Fprintf(w, "%s\n\n", n)
	}
	fmt.Fprintf(w, "%s\n\n", inputNote(results))
	fewest := math.MaxInt
	multi := 0
	for _, c := range cells {
		fewest = min(fewest, c.Sprites)
		if len(c.Loops) > 1 {
			multi++
		}
	}
	if multi == 0 {
		fmt.Fprintf(w, "No cell ran more than one loop: nothing to compare.\n\n")
		return
	}
	fmt.Fprintf(w, "Each figure's best loop by its median over the reps, the spread as (min–max). "+
		"\"best\" lists the loops level with it: the best loop's reps are tested against each other loop's (Mann-Whitney), "+
		"the p-values Holm-corrected over the loops compared, and a loop is behind when its corrected p < %.2f; "+
		"\"beyond noise\" names the loops behind, each with its corrected p. "+
		"With fewer than 4 reps a side nothing can be (use -reps 5 or more: at 5 a side the smallest p is 0.008, 0.024 corrected over the three comparisons of four loops). "+
		"The correction is within a figure, not across the figures and cells: over this many, an odd \"yes\" can be chance; "+
		"a loop that is behind in cell after cell is not.\n\n", Alpha)
	for _, load := range loads {
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
			all = append(all, writeVerdicts(w, c)...)
		}
		fmt.Fprintf(w, "**Recommendation (%s):** %s\n\n", load, recommend(all))
	}
}

// writeVerdicts writes the table of c's verdicts, one row per figure, and
// returns them.
func writeVerdicts(w io.Writer, c *Cell) []figureVerdict {
	fmt.Fprintf(w, "simcost=%s, sprites=%d:\n\n", mdEscape(c.SimCost), c.Sprites)
	head := []string{"figure", "better"}
	for _, l := range c.Loops {
		head = append(head, fmt.Sprintf("%s (n=%d)", mdEscape(l.Loop), len(l.Results)))
	}
	head = append(head, "best", "beyond noise")
	mdRow(w, head)
	mdRule(w, len(head))
	var vs []figureVerdict
	for _, fig := range decideFigures {
		v := verdict(c, fig)
		if v.best() == nil {
			continue
		}
		vs = append(vs, v)
		row := []string{"`" + fig.key + "`", fig.direction()}
		for _, l := range c.Loops {
			xs := fig.values(l)
			switch len(xs) {
			case 0:
				row = append(row, "–")
			case 1:
				row = append(row, fmtFig(xs[0]))
			default:
				med := median(xs) // sorts xs
				row = append(row, fmt.Sprintf("%s (%s–%s)", fmtFig(med), fmtFig(xs[0]), fmtFig(xs[len(xs)-1])))
			}
		}
		row = append(row, mdEscape(strings.Join(v.level(), ", ")), v.noise())
		mdRow(w, row)
	}
	fmt.Fprintln(w)
	return vs
}

// noise says which loops v's best is ahead of beyond the noise, each with
// its corrected p, or why none is.
func (v figureVerdict) noise() string {
	switch {
	case len(v.ranked) < 2:
		return "only one loop measured it"
	case v.samples < 2:
		return fmt.Sprintf("cannot tell: %d rep", v.samples)
	}
	var behind []string
	for _, r := range v.ranked[1:] {
		if r.behind {
			behind = append(behind, fmt.Sprintf("%s (p=%.3f)", mdEscape(r.l.Loop), r.p))
		}
	}
	if len(behind) > 0 {
		return "yes, ahead of " + strings.Join(behind, ", ")
	}
	next := v.ranked[1]
	if next.med == v.ranked[0].med {
		return fmt.Sprintf("no (same median as %s)", mdEscape(next.l.Loop))
	}
	return fmt.Sprintf("no (p=%.2f vs %s)", next.p, mdEscape(next.l.Loop))
}

// recommend writes a sentence or two from a load's verdicts: the loops
// behind beyond the noise on the fewest figures, together (a set, not one
// winner, when the reps cannot tell them apart), and what each other loop
// is behind on; a loop that falls behind on time (a slideshow) is never
// recommended.
func recommend(vs []figureVerdict) string {
	var loops, slideshows []string
	behindOn := map[string][]string{} // loop -> figures it is behind on, once each
	count := map[string]int{}         // loop -> verdicts it is behind in
	compared := 0
	for _, v := range vs {
		if len(v.ranked) < 2 {
			continue
		}
		compared++
		for _, l := range v.slideshows {
			if !slices.Contains(slideshows, l) {
				slideshows = append(slideshows, l)
			}
		}
		for _, r := range v.ranked {
			if !slices.Contains(loops, r.l.Loop) {
				loops = append(loops, r.l.Loop)
			}
			if r.behind {
				count[r.l.Loop]++
				if !slices.Contains(behindOn[r.l.Loop], v.fig.name) {
					behindOn[r.l.Loop] = append(behindOn[r.l.Loop], v.fig.name)
				}
			}
		}
	}
	slices.Sort(loops)
	var s string
	if len(count) == 0 {
		s = fmt.Sprintf("no loop is better beyond the noise on any of the %d figures compared; run more reps (-reps 10) before choosing, or choose on other grounds.", compared)
	} else {
		s = recommendSet(loops, slideshows, behindOn, count, compared)
	}
	if len(slideshows) > 0 {
		s += fmt.Sprintf(" Not %s: under this load each showed the right picture less than %d%% of the display time where another loop kept it %d%% or more (on_time_pct), a slideshow, whatever it wins.",
			strings.Join(slideshows, " nor "), behindPct, keptPct)
	}
	return s
}

// recommendSet names the loops, slideshows left out, that are behind in
// the fewest verdicts, then what every other loop is behind on.
func recommendSet(loops, slideshows []string, behindOn map[string][]string, count map[string]int, compared int) string {
	fewest := math.MaxInt
	for _, l := range loops {
		if !slices.Contains(slideshows, l) {
			fewest = min(fewest, count[l])
		}
	}
	var set, others []string
	for _, l := range loops {
		switch {
		case !slices.Contains(slideshows, l) && count[l] == fewest:
			set = append(set, l)
		case count[l] > 0:
			others = append(others, fmt.Sprintf("%s is behind in %d (%s)", l, count[l], strings.Join(behindOn[l], ", ")))
		}
	}
	if len(set) == 0 {
		return "every loop is a slideshow under this load."
	}
	var s string
	switch {
	case fewest == 0 && len(set) == 1:
		s = fmt.Sprintf("use the %s loop: it is behind no other loop beyond the noise on any of the %d figures compared", set[0], compared)
	case fewest == 0:
		s = fmt.Sprintf("use the %s loop: %s, level, none behind another beyond the noise on any of the %d figures compared",
			orList(set, "or"), orList(set, "and"), compared)
	default:
		var each []string
		for _, l := range set {
			each = append(each, fmt.Sprintf("%s on %s", l, strings.Join(behindOn[l], ", ")))
		}
		n := fmt.Sprint(fewest)
		if len(set) > 1 {
			n += " each"
		}
		s = fmt.Sprintf("use the %s loop: behind another beyond the noise in the fewest of the %d figures compared (%s: %s); where what matters most is one of those, take a loop level on it",
			orList(set, "or"), compared, n, strings.Join(each, "; "))
	}
	if len(others) > 0 {
		s += "; " + strings.Join(others, "; ")
	}
	return s + "."
}

// orList joins names as "a", "a or b", "a, b or c" (with conj for "or").
func orList(names []string, conj string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}

// inputNote says where the reps' input latency was measured from.
func inputNote(results []Result) string {
	n := map[string]int{}
	var srcs []string
	for _, r := range results {
		s, _ := r.Summary["input_source"].(string)
		if s == "" {
			s = "unknown"
		}
		if n[s] == 0 {
			srcs = append(srcs, s)
		}
		n[s]++
	}
	var parts []string
	for _, s := range srcs {
		parts = append(parts, fmt.Sprintf("%s in %d of %d runs", s, n[s], len(results)))
	}
	note := "Input source: " + strings.Join(parts, ", ") + "."
	if n["synthetic"] > 0 {
		note += " A synthetic button is stamped when a frame polls, so its latency leaves out the wait for the poll, which the threaded loop removes: compare loops' input latency on xtest runs (-input xtest)."
	}
	return note
}

// fmtFig prints a figure with about four significant digits.
func fmtFig(v float64) string {
	switch a := math.Abs(v); {
	case a >= 100:
		return fmt.Sprintf("%.1f", v)
	case a >= 10:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3f", v)
}
