package bench

import (
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
// call it, which way is better, and the margin within which two loops
// are level.
type decideFigure struct {
	key, name string
	higher    bool
	// capKey names the Summary figure that bounds this one: a tick rate
	// above the run's hz is no better than hz itself.
	capKey string
	// ratio compares the figure as a ratio of one loop's to another's (a
	// rate: 2% of 60 FPS is not 2% of 800), margin then a share (0.02:
	// within ±2%); otherwise as a difference in unit, margin in unit.
	ratio  bool
	margin float64
	unit   string
}

// decideFigures are the figures "## Which loop" weighs: the frame rate,
// the worst frames, the smoothness a viewer sees, the sim keeping its rate,
// and the two latencies, each with its margin of "level".
var decideFigures = []decideFigure{
	{key: "fps_mean", name: "frame rate", higher: true, ratio: true, margin: 0.02},
	{key: "frame_ms_p99", name: "frame time p99", margin: 0.5, unit: "ms"},
	{key: "on_time_pct", name: "on time", higher: true, margin: 1, unit: "points"},
	{key: "anim_err_ms_p99", name: "animation error p99", margin: 0.5, unit: "ms"},
	{key: "tps", name: "ticks per second", higher: true, capKey: "hz", ratio: true, margin: 0.02},
	{key: "latency_ms_p50", name: "latency p50", margin: 0.5, unit: "ms"},
	{key: "input_latency_ms_p50", name: "input latency p50", margin: 0.5, unit: "ms"},
}

// marginText says f's margin of "level": "±2%", "±0.5 ms".
func (f decideFigure) marginText() string {
	if f.ratio {
		return fmt.Sprintf("±%g%%", 100*f.margin)
	}
	return fmt.Sprintf("±%g %s", f.margin, f.unit)
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

// The three words of a comparison of two loops on one figure.
const (
	// Behind: the test tells the two apart (Holm-corrected p < Alpha)
	// and the interval of the difference reaches beyond the margin.
	Behind = "behind"
	// Level: the whole 95% interval of the difference lies within the
	// figure's margin (a difference may be there, smaller than it).
	Level = "level"
	// CannotTell: neither: more reps may tell.
	CannotTell = "cannot tell"
)

// Confidence is the level of each difference's interval.
const Confidence = 0.95

// pairVerdict compares two loops on one figure: a before b in the cell's
// order.
type pairVerdict struct {
	a, b *CellLoop
	// p is Mann-Whitney's two-sided p, Holm-corrected over every pair
	// compared on the figure in the cell; NaN when untestable.
	p float64
	// eff is b against a: b/a for a ratio figure (a Hodges-Lehmann shift
	// of the logarithms, taken back), b - a otherwise, with its interval.
	eff  Shift
	word string
	// behind is the loop behind when word is Behind.
	behind *CellLoop
}

// figureVerdict is the verdict on one figure in one cell: each loop that
// measured it with its median, and every pair of them compared.
type figureVerdict struct {
	fig   decideFigure
	loops []*CellLoop // those that measured it, in the cell's order
	meds  []float64
	pairs []pairVerdict
	// slideshows are the loops that fall behind where the best keeps up: on
	// on_time_pct, every rep under behindPct while the best median is at
	// least keptPct (a slideshow, however even its frames).
	slideshows []string
}

// A loop falls behind on on_time_pct when every rep of it shows the right
// picture less than behindPct of the display time while the best loop's
// median is at least keptPct: it is then not recommended, whatever else
// it wins.
const behindPct, keptPct = 90, 99

// comparePair returns b against a on fig from their reps (each at least
// one), the word left to the caller's correction.
func comparePair(fig decideFigure, xa, xb []float64) (raw float64, eff Shift) {
	raw = MannWhitneyP(xa, xb)
	if !fig.ratio {
		return raw, HodgesLehmann(xa, xb, Confidence)
	}
	if slices.Min(xa) <= 0 || slices.Min(xb) <= 0 {
		return raw, Shift{math.NaN(), math.NaN(), math.NaN()}
	}
	la, lb := make([]float64, len(xa)), make([]float64, len(xb))
	for i, x := range xa {
		la[i] = math.Log(x)
	}
	for i, x := range xb {
		lb[i] = math.Log(x)
	}
	s := HodgesLehmann(la, lb, Confidence)
	return raw, Shift{math.Exp(s.Est), math.Exp(s.Lo), math.Exp(s.Hi)}
}

// word returns what a pair's p and interval say, and which loop is behind.
func (f decideFigure) word(p float64, eff Shift, a, b *CellLoop) (string, *CellLoop) {
	zero, lo, hi := 0.0, -f.margin, f.margin
	if f.ratio {
		zero, lo, hi = 1, 1-f.margin, 1+f.margin
	}
	switch {
	case math.IsNaN(eff.Est):
		return CannotTell, nil
	case eff.Lo >= lo && eff.Hi <= hi:
		return Level, nil
	case p < Alpha && eff.Est != zero:
		// b above a: a is behind where higher is better.
		if (eff.Est > zero) == f.higher {
			return Behind, a
		}
		return Behind, b
	}
	return CannotTell, nil
}

// verdict judges fig in c: every pair of the loops that measured it, each
// tested (Mann-Whitney, exact with ties) with the p-values Holm-corrected
// over all the pairs, so that naming any loop behind on the figure is no
// likelier by chance than Alpha; each difference with its interval, and
// the word they give.
func verdict(c *Cell, fig decideFigure) figureVerdict {
	v := figureVerdict{fig: fig}
	var vals [][]float64
	for _, l := range c.Loops {
		if xs := fig.values(l); len(xs) > 0 {
			v.loops = append(v.loops, l)
			v.meds = append(v.meds, median(slices.Clone(xs)))
			vals = append(vals, xs)
		}
	}
	if len(v.loops) == 0 {
		return v
	}
	best := slices.Max(v.meds)
	if !fig.higher {
		best = slices.Min(v.meds)
	}
	if fig.key == "on_time_pct" && best >= keptPct {
		for i, l := range v.loops {
			if slices.Max(vals[i]) < behindPct {
				v.slideshows = append(v.slideshows, l.Loop)
			}
		}
	}
	var raws []float64
	for i := range v.loops {
		for j := i + 1; j < len(v.loops); j++ {
			raw, eff := comparePair(fig, vals[i], vals[j])
			raws = append(raws, raw)
			v.pairs = append(v.pairs, pairVerdict{a: v.loops[i], b: v.loops[j], eff: eff})
		}
	}
	for k, p := range Holm(raws) {
		pv := &v.pairs[k]
		pv.p = p
		if math.IsNaN(raws[k]) {
			pv.p = math.NaN()
		}
		pv.word, pv.behind = fig.word(pv.p, pv.eff, pv.a, pv.b)
	}
	return v
}

// leaders returns the loops behind no other on the figure, in the cell's
// order.
func (v figureVerdict) leaders() []string {
	var out []string
	for _, l := range v.loops {
		if !slices.ContainsFunc(v.pairs, func(p pairVerdict) bool { return p.behind == l }) {
			out = append(out, l.Loop)
		}
	}
	return out
}

// isBehind reports whether loop is behind another on the figure.
func (v figureVerdict) isBehind(loop string) bool {
	return slices.ContainsFunc(v.pairs, func(p pairVerdict) bool { return p.behind != nil && p.behind.Loop == loop })
}

// CellVerdicts is what the verdicts of a matrix say, counted: every pair of
// loops on every figure in every cell with more than one loop.
type CellVerdicts struct {
	Behind, Level, CannotTell int
}

// Verdicts counts the words of every comparison the report's "## Which
// loop" makes over results: what -reps auto reads to decide whether
// another rep is needed.
func Verdicts(results []Result) CellVerdicts {
	var n CellVerdicts
	for _, c := range GroupCells(results) {
		if len(c.Loops) < 2 {
			continue
		}
		for _, fig := range decideFigures {
			for _, p := range verdict(c, fig).pairs {
				switch p.word {
				case Behind:
					n.Behind++
				case Level:
					n.Level++
				default:
					n.CannotTell++
				}
			}
		}
	}
	return n
}

// FewestReps returns the fewest reps a side at which a comparison among
// loops loops can call one behind: where the exact test's smallest p,
// Holm-corrected over every pair (the first step multiplies it by the
// pairs), is under Alpha. 0 when no count up to max can.
func FewestReps(loops, max int) int {
	pairs := loops * (loops - 1) / 2
	for n := 2; n <= max; n++ {
		if float64(pairs)*SmallestP(n) < Alpha {
			return n
		}
	}
	return 0
}

// FewestLevelReps returns the fewest reps a side at which two loops can
// be called level: where a 95% interval of their difference exists.
func FewestLevelReps() int {
	for n := 2; ; n++ {
		if shiftK(n, n, (1-Confidence)/2) >= 1 {
			return n
		}
	}
}

// writeWhichLoop writes the report's "## Which loop": notes first (an
// axis the game ignored, the order the runs came in, the input source),
// then for each load the cells it covers, each figure's loops with their
// medians and every pair's word, and a recommendation drawn from those
// verdicts. Nothing in it is fixed in advance: a loop is named behind only
// where its reps say so.
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
	fmt.Fprintf(w, "Each loop's median over its reps, the spread as (min–max). Every pair of loops is compared on every figure: "+
		"a two-sided Mann-Whitney test, exact with ties up to %d reps a side, its p Holm-corrected over all the pairs compared on that figure in that cell; "+
		"and the difference between the two as named (a/b: the ratio of a's to b's, for rates; a−b: the difference in the figure's unit, otherwise), "+
		"a Hodges-Lehmann estimate with its %g%% interval. Each pair then gets one of three words: "+
		"**behind** (corrected p < %.2f, and the interval reaches beyond the margin), "+
		"**level** (the whole interval within the margin, `level within`), "+
		"**cannot tell** (neither: more reps may tell; -reps auto runs until they do). "+
		"\"not behind\" lists the loops behind no other on the figure. "+
		"With n reps a side the smallest p is 2/C(2n,n): at 4 reps %.3f, %.2f once corrected over the six pairs of four loops, so nothing can be behind; at 5, %.3f and %.3f. "+
		"An interval needs %d reps a side: with fewer, nothing is level either. "+
		"The correction is within a figure in a cell, not across the figures and cells: over this many, an odd \"behind\" can be chance; "+
		"a loop that is behind in cell after cell is not.\n\n", exactMax, 100*Confidence, Alpha,
		SmallestP(4), 6*SmallestP(4), SmallestP(5), 6*SmallestP(5), FewestLevelReps())
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
func writeVerdicts(w io.Writer, c *Cell) []figureVerdict {
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
		v := verdict(c, fig)
		if len(v.loops) == 0 {
			continue
		}
		vs = append(vs, v)
		row := []string{"`" + fig.key + "`", fig.direction(), fig.marginText()}
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
	case math.IsNaN(e.Est):
		d = "no difference measurable"
	case f.ratio:
		d = fmt.Sprintf("%s/%s %.3f (%s to %s)", a.Loop, b.Loop, 1/e.Est, fmtBound(1/e.Hi, 3), fmtBound(1/e.Lo, 3))
	default:
		d = fmt.Sprintf("%s−%s %+.2f %s (%s to %s)", a.Loop, b.Loop, -e.Est, f.unit, fmtBound(-e.Hi, 2), fmtBound(-e.Lo, 2))
	}
	switch {
	case p.word == Behind:
		return fmt.Sprintf("%s behind %s: %s, p=%.3f", a.Loop, b.Loop, d, p.p)
	case math.IsNaN(p.p):
		return d
	}
	return fmt.Sprintf("%s, p=%.2f", d, p.p)
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
		return fmt.Sprintf("%+.2f", v)
	}
	return fmt.Sprintf("%.*f", d, v)
}

// recommend writes a sentence or two from a load's verdicts: the loops
// behind another on the fewest figures, together (a set, not one winner,
// when the reps cannot tell them apart), what they were found level on
// and what the reps could not tell, and what each other loop is behind
// on; a loop that falls behind on time (a slideshow) is never recommended.
func recommend(vs []figureVerdict) string {
	var loops, slideshows []string
	behindOn := map[string][]string{} // loop -> figures it is behind on, once each
	count := map[string]int{}         // loop -> verdicts it is behind in
	compared := 0
	for _, v := range vs {
		if len(v.loops) < 2 {
			continue
		}
		compared++
		for _, l := range v.slideshows {
			if !slices.Contains(slideshows, l) {
				slideshows = append(slideshows, l)
			}
		}
		for _, l := range v.loops {
			if !slices.Contains(loops, l.Loop) {
				loops = append(loops, l.Loop)
			}
			if v.isBehind(l.Loop) {
				count[l.Loop]++
				if !slices.Contains(behindOn[l.Loop], v.fig.name) {
					behindOn[l.Loop] = append(behindOn[l.Loop], v.fig.name)
				}
			}
		}
	}
	slices.Sort(loops)
	var s string
	if len(count) == 0 {
		level, unsure := wordsAmong(vs, loops)
		s = fmt.Sprintf("no loop is behind another on any of the %d figures compared: %s. ", compared, levelText(level, unsure)) +
			"Level is not \"the same\" where the reps cannot tell: run more reps (-reps auto) before choosing, or choose on other grounds."
	} else {
		s = recommendSet(vs, loops, slideshows, behindOn, count, compared)
	}
	if len(slideshows) > 0 {
		s += fmt.Sprintf(" Not %s: under this load each showed the right picture less than %d%% of the display time where another loop kept it %d%% or more (on_time_pct), a slideshow, whatever it wins.",
			strings.Join(slideshows, " nor "), behindPct, keptPct)
	}
	return s
}

// wordsAmong counts the pairs among set's loops, over vs, found level and
// those the reps cannot tell.
func wordsAmong(vs []figureVerdict, set []string) (level, unsure int) {
	for _, v := range vs {
		for _, p := range v.pairs {
			if !slices.Contains(set, p.a.Loop) || !slices.Contains(set, p.b.Loop) {
				continue
			}
			switch p.word {
			case Level:
				level++
			case CannotTell:
				unsure++
			}
		}
	}
	return level, unsure
}

// levelText says how many comparisons were level and how many the reps
// could not tell.
func levelText(level, unsure int) string {
	return fmt.Sprintf("level within the margin in %d of their comparisons, and the reps cannot tell in %d", level, unsure)
}

// recommendSet names the loops, slideshows left out, that are behind in
// the fewest verdicts, what is known between them, then what every other
// loop is behind on.
func recommendSet(vs []figureVerdict, loops, slideshows []string, behindOn map[string][]string, count map[string]int, compared int) string {
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
		s = fmt.Sprintf("use the %s loop: it is behind no other loop on any of the %d figures compared", set[0], compared)
	case fewest == 0:
		level, unsure := wordsAmong(vs, set)
		s = fmt.Sprintf("use the %s loop: none of %s is behind another on any of the %d figures compared; between them, %s",
			orList(set, "or"), orList(set, "and"), compared, levelText(level, unsure))
	default:
		var each []string
		for _, l := range set {
			each = append(each, fmt.Sprintf("%s on %s", l, strings.Join(behindOn[l], ", ")))
		}
		n := fmt.Sprint(fewest)
		if len(set) > 1 {
			n += " each"
		}
		s = fmt.Sprintf("use the %s loop: behind another in the fewest of the %d figures compared (%s: %s); where what matters most is one of those, take a loop not behind on it",
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
