package bench

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// The verdict of a matrix: every pair of loops compared on each figure in
// each cell, and the word each comparison earns: behind, level or cannot
// tell.

// Alpha is the significance level of the verdict's test: a pair whose
// two-sided Mann-Whitney p-value, Holm-corrected over the pairs of its
// figure, is below it is told apart (benchstat's level too).
const Alpha = 0.05

// decideFigure is a figure the verdict weighs: the Summary's figure, what
// to call it, which way is better, and the margin within which two loops
// are level.
type decideFigure struct {
	fig    Figure
	name   string
	higher bool
	// cap is the Summary figure that bounds this one (none when its Of is
	// nil): a tick rate above the run's hz is no better than hz itself.
	cap Figure
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
	{fig: FigFPSMean, name: "frame rate", higher: true, ratio: true, margin: 0.02},
	{fig: FigFrameMsP99, name: "frame time p99", margin: 0.5, unit: "ms"},
	{fig: FigOnTimePct, name: "on time", higher: true, margin: 1, unit: "points"},
	{fig: FigAnimErrMsP99, name: "animation error p99", margin: 0.5, unit: "ms"},
	{fig: FigTPS, name: "ticks per second", higher: true, cap: FigHz, ratio: true, margin: 0.02},
	{fig: FigLatencyMsP50, name: "latency p50", margin: 0.5, unit: "ms"},
	{fig: FigInputLatencyP50, name: "input latency p50", margin: 0.5, unit: "ms"},
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
	case f.cap.Of != nil:
		return "higher is better, up to `" + f.cap.Name + "`"
	case f.higher:
		return "higher is better"
	}
	return "lower is better"
}

// values returns f's figure of l's reps that measured it, each bounded
// by its run's cap figure when f has one.
func (f decideFigure) values(l *CellLoop) []float64 {
	var xs []float64
	for _, r := range l.Results {
		v, ok := f.fig.Value(&r.Summary)
		if !ok {
			continue
		}
		if f.cap.Of != nil {
			if c, ok := f.cap.Value(&r.Summary); ok {
				v = min(v, c)
			}
		}
		xs = append(xs, v)
	}
	return xs
}

// Median returns the median of xs, the mean of the middle two for an
// even count (the reps' median of the reports and the Hodges-Lehmann
// shift, so that two reps do not report the lower one; a figure's
// percentiles within a run take the nearest rank instead,
// [quantile.Rank]); NaN for none. xs is not modified.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Load names the kind of load a cell puts on the loops: "own" (the
// game's own load: no -sprites given, no cost), "game: NAME" (a load the
// game declared for the matrix), "none" (the fewest sprites, no cost),
// "sim" (a sim cost), "render" (more sprites than the matrix's fewest, or
// a render cost) or "sim+render".
func Load(c *Cell, fewestSprites int) string {
	if c.Knobs != "" {
		return "game: " + c.Knobs
	}
	sim := positive(c.SimCost)
	render := c.Sprites > 0 && c.Sprites > fewestSprites || positive(c.RenderCost)
	for _, l := range c.Loops {
		for _, r := range l.Results {
			if positive(r.Summary.RenderCost) {
				render = true
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
	case c.Sprites == 0:
		return "own"
	}
	return "none"
}

// positive reports whether s is a duration over 0.
func positive(s string) bool {
	d, err := time.ParseDuration(s)
	return err == nil && d > 0
}

// loadOrder returns the loads of cells in the order the verdict takes
// them: the game's own, those it declared, then none, sim, render and
// sim+render.
func loadOrder(cells []*Cell, fewest int) []string {
	out := []string{"own"}
	for _, c := range cells {
		if l := Load(c, fewest); strings.HasPrefix(l, "game: ") && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return append(out, "none", "sim", "render", "sim+render")
}

// The three words of a comparison of two loops on one figure.
const (
	// Behind: the test tells the two apart (Holm-corrected p < Alpha),
	// the interval of the difference leaves out no difference, and it
	// reaches beyond the margin.
	Behind = "behind"
	// Level: the whole 95% interval of the difference lies within the
	// figure's margin (a difference may be there, smaller than it).
	Level = "level"
	// CannotTell: neither: more reps may tell.
	CannotTell = "cannot tell"
)

// Confidence is the level of each difference's interval at Alpha: the
// interval of a verdict at level alpha is at 1 - alpha.
const Confidence = 1 - Alpha

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
	// apart reports whether the two were measured from different input
	// sources: input latencies that measure different things, not compared.
	apart bool
	// look is the reps after which -reps auto's look decided the pair; 0
	// for a verdict of one look.
	look int
}

// inputSource returns the input_source of every rep of l, or "mixed".
func inputSource(l *CellLoop) string {
	src := ""
	for i, r := range l.Results {
		s := r.Summary.InputSource
		if i > 0 && s != src {
			return "mixed"
		}
		src = s
	}
	return src
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
func comparePair(fig decideFigure, xa, xb []float64, alpha float64) (raw float64, eff Shift) {
	raw = MannWhitneyP(xa, xb)
	if !fig.ratio {
		return raw, HodgesLehmann(xa, xb, 1-alpha)
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
	s := HodgesLehmann(la, lb, 1-alpha)
	return raw, Shift{math.Exp(s.Est), math.Exp(s.Lo), math.Exp(s.Hi)}
}

// word returns what a pair's p and interval say, and which loop is behind.
func (f decideFigure) word(p float64, eff Shift, a, b *CellLoop, alpha float64) (string, *CellLoop) {
	zero, lo, hi := 0.0, -f.margin, f.margin
	if f.ratio {
		zero, lo, hi = 1, 1-f.margin, 1+f.margin
	}
	switch {
	case math.IsNaN(eff.Est):
		return CannotTell, nil
	case eff.Lo >= lo && eff.Hi <= hi:
		return Level, nil
	case p < alpha && (eff.Lo > zero || eff.Hi < zero):
		// Told apart, and the interval shown says so too.
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
//
// alpha is the verdict's level: Alpha, or less for a look of -reps auto
// (each look spends part of Alpha, so that looking again and again is no
// likelier to call a loop behind by chance); the intervals are at 1-alpha.
func verdict(c *Cell, fig decideFigure, alpha float64) figureVerdict {
	v := figureVerdict{fig: fig}
	var vals [][]float64
	for _, l := range c.Loops {
		if xs := fig.values(l); len(xs) > 0 {
			v.loops = append(v.loops, l)
			v.meds = append(v.meds, Median(xs))
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
	if fig.fig.Name == FigOnTimePct.Name && best >= keptPct {
		for i, l := range v.loops {
			if slices.Max(vals[i]) < behindPct {
				v.slideshows = append(v.slideshows, l.Loop)
			}
		}
	}
	var raws []float64
	for i := range v.loops {
		for j := i + 1; j < len(v.loops); j++ {
			if fig.fig.Name == FigInputLatencyP50.Name && inputSource(v.loops[i]) != inputSource(v.loops[j]) {
				// A synthetic button leaves out the wait for the poll that
				// a real press includes: the two measure different things.
				nan := math.NaN()
				raws = append(raws, nan)
				v.pairs = append(v.pairs, pairVerdict{a: v.loops[i], b: v.loops[j], eff: Shift{nan, nan, nan}, apart: true})
				continue
			}
			raw, eff := comparePair(fig, vals[i], vals[j], alpha)
			raws = append(raws, raw)
			v.pairs = append(v.pairs, pairVerdict{a: v.loops[i], b: v.loops[j], eff: eff})
		}
	}
	// The family is the pairs tested: one not compared is no comparison.
	var tested []int
	var ps []float64
	for k, raw := range raws {
		v.pairs[k].p = math.NaN()
		if !math.IsNaN(raw) {
			tested, ps = append(tested, k), append(ps, raw)
		}
	}
	for i, p := range Holm(ps) {
		v.pairs[tested[i]].p = p
	}
	for k := range v.pairs {
		pv := &v.pairs[k]
		pv.word, pv.behind = fig.word(pv.p, pv.eff, pv.a, pv.b, alpha)
	}
	return v
}

// leaders returns the loops behind no other on the figure, in the cell's
// order.
func (v figureVerdict) leaders() []string {
	var out []string
	for _, l := range v.loops {
		if !v.isBehind(l.Loop) {
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
// loop" makes over results (with -reps auto's looks, or at Alpha when
// looks is nil): what -reps auto reads to decide whether another rep is
// needed.
func Verdicts(results []Result, looks *Looks) CellVerdicts {
	var n CellVerdicts
	for _, c := range GroupCells(results) {
		if len(c.Loops) < 2 {
			continue
		}
		for _, fig := range decideFigures {
			for _, p := range judge(c, fig, looks).pairs {
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
// loops loops can call one behind at level alpha: where the exact test's
// smallest p, Holm-corrected over every pair (the first step multiplies it
// by the pairs), is under alpha. 0 when no count up to max can.
func FewestReps(loops, max int, alpha float64) int {
	pairs := loops * (loops - 1) / 2
	for n := 2; n <= max; n++ {
		if float64(pairs)*SmallestP(n) < alpha {
			return n
		}
	}
	return 0
}

// LookAlpha returns the level of look k (0 for the first) of -reps auto,
// which judges the reps again as they grow ([Looks]), looks times at most:
// half of Alpha at the first look, the other half shared evenly by the
// rest. Looking again and again at reps that keep
// coming would call a loop behind by chance more often than any one look
// does; the looks' levels adding up to Alpha keep the whole run's chance
// within it (Bonferroni over the looks). One look: Alpha.
func LookAlpha(k, looks int) float64 {
	switch {
	case looks <= 1:
		return Alpha
	case k == 0:
		return Alpha / 2
	}
	return Alpha / 2 / float64(looks-1)
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
