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

// figureVerdict is the verdict on one figure in one cell.
type figureVerdict struct {
	fig     decideFigure
	best    *CellLoop // nil when no loop measured it
	next    *CellLoop // the runner-up, nil when only one loop measured it
	p       float64   // Mann-Whitney's two-sided p of best against next; NaN when untestable
	beyond  bool      // p < Alpha
	samples int       // the fewer reps of best and next
	tie     bool      // best and next have the same median
	// behind are the loops that fall behind where the best keeps up: on
	// on_time_pct, every rep under behindPct while the best's median is at
	// least keptPct (a slideshow, however even its frames).
	behind []string
}

// A loop falls behind on on_time_pct when every rep of it shows the right
// picture less than behindPct of the display time while the best loop's
// median is at least keptPct: it is then not recommended, whatever else
// it wins.
const behindPct, keptPct = 90, 99

// verdict judges fig in c: the loop with the best median, and whether its
// reps differ from the runner-up's beyond the noise.
func verdict(c *Cell, fig decideFigure) figureVerdict {
	v := figureVerdict{fig: fig, p: math.NaN()}
	type ranked struct {
		l   *CellLoop
		med float64
	}
	var rs []ranked
	for _, l := range c.Loops {
		if xs := fig.values(l); len(xs) > 0 {
			rs = append(rs, ranked{l, median(xs)})
		}
	}
	if len(rs) == 0 {
		return v
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
		if fig.higher {
			return cmp.Compare(b.med, a.med)
		}
		return cmp.Compare(a.med, b.med)
	})
	v.best = rs[0].l
	if fig.key == "on_time_pct" && rs[0].med >= keptPct {
		for _, r := range rs[1:] {
			if slices.Max(fig.values(r.l)) < behindPct {
				v.behind = append(v.behind, r.l.Loop)
			}
		}
	}
	if len(rs) < 2 {
		return v
	}
	v.next = rs[1].l
	v.tie = rs[0].med == rs[1].med
	a, b := fig.values(v.best), fig.values(v.next)
	v.samples = min(len(a), len(b))
	v.p = MannWhitneyP(a, b)
	v.beyond = v.p < Alpha && !v.tie
	return v
}

// MannWhitneyP returns the two-sided p-value of the Mann-Whitney U test
// of samples a and b: the chance, were both drawn from one distribution,
// of ranks at least as far apart as theirs. It is exact (ties counted as
// half) for samples of up to 20 each, from the normal approximation above;
// NaN when either sample is empty. With 5 reps a side the smallest p is
// 2/252 = 0.008; with 3, 0.1, which can never be beyond the noise at
// [Alpha]: the matrix runs 5 by default.
func MannWhitneyP(a, b []float64) float64 {
	m, n := len(a), len(b)
	if m == 0 || n == 0 {
		return math.NaN()
	}
	// U counts the pairs in which a's value is greater, ties as half;
	// doubled to stay whole.
	u2 := 0
	for _, x := range a {
		for _, y := range b {
			switch {
			case x > y:
				u2 += 2
			case x == y:
				u2++
			}
		}
	}
	if m > 20 || n > 20 {
		mean := float64(m*n) / 2
		sd := math.Sqrt(float64(m*n*(m+n+1)) / 12)
		z := (math.Abs(float64(u2)/2-mean) - 0.5) / sd
		return min(1, math.Erfc(max(z, 0)/math.Sqrt2))
	}
	// ways[u] is the number of orderings of m a's among n b's whose U is
	// u (a's before b's count), built up one value at a time.
	ways := uDistribution(m, n)
	total := 0.0
	for _, w := range ways {
		total += w
	}
	// The two tails at the observed U, rounded outwards for a tie's half.
	lo, hi := u2/2, (u2+1)/2
	var below, above float64
	for u, w := range ways {
		if u <= hi {
			below += w
		}
		if u >= lo {
			above += w
		}
	}
	return min(1, 2*min(below, above)/total)
}

// uDistribution returns how many of the C(m+n, m) orderings of m and n
// values have each U from 0 to m*n.
func uDistribution(m, n int) []float64 {
	// f[i][j] is the distribution for i and j values; f(i, j, u) =
	// f(i-1, j, u-j) + f(i, j-1, u): the largest value is an a (beating
	// all j b's) or a b.
	prev := make([][]float64, n+1)
	for j := range prev {
		prev[j] = []float64{1} // no a's: U is 0
	}
	for i := 1; i <= m; i++ {
		cur := make([][]float64, n+1)
		cur[0] = []float64{1}
		for j := 1; j <= n; j++ {
			d := make([]float64, i*j+1)
			for u, w := range prev[j] {
				d[u+j] += w
			}
			for u, w := range cur[j-1] {
				d[u] += w
			}
			cur[j] = d
		}
		prev = cur
	}
	return prev[n]
}

// writeWhichLoop writes the report's "## Which loop": notes first (an
// axis the game ignored, the input source), then for each load the cells
// it covers, each figure's best loop with its direction and whether the
// difference is beyond the noise, and a recommendation drawn from those
// verdicts. Nothing in it is fixed in advance: a loop is named best only
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
	fmt.Fprintf(w, "Each figure's best loop by its median over the reps, the spread as (min–max); "+
		"\"beyond noise\" when a Mann-Whitney test of the best loop's reps against the runner-up's gives p < %.2f "+
		"(with fewer than 4 reps a side it never can: use -reps 5 or more).\n\n", Alpha)
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
			fmt.Fprintf(w, "simcost=%s, sprites=%d:\n\n", mdEscape(c.SimCost), c.Sprites)
			head := []string{"figure", "better"}
			for _, l := range c.Loops {
				head = append(head, fmt.Sprintf("%s (n=%d)", mdEscape(l.Loop), len(l.Results)))
			}
			head = append(head, "best", "beyond noise")
			mdRow(w, head)
			mdRule(w, len(head))
			for _, fig := range decideFigures {
				v := verdict(c, fig)
				if v.best == nil {
					continue
				}
				all = append(all, v)
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
				best := mdEscape(v.best.Loop)
				if v.tie {
					best = "tie"
				}
				row = append(row, best, v.noise())
				mdRow(w, row)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "**Recommendation (%s):** %s\n\n", load, recommend(all))
	}
}

// noise says whether v's difference is beyond the noise, with its p.
func (v figureVerdict) noise() string {
	switch {
	case v.next == nil:
		return "only one loop measured it"
	case v.tie:
		return fmt.Sprintf("no (same median as %s)", mdEscape(v.next.Loop))
	case v.samples < 2 || math.IsNaN(v.p):
		return fmt.Sprintf("cannot tell: %d rep", v.samples)
	case v.beyond:
		return fmt.Sprintf("yes (p=%.3f vs %s)", v.p, mdEscape(v.next.Loop))
	}
	return fmt.Sprintf("no (p=%.2f vs %s)", v.p, mdEscape(v.next.Loop))
}

// recommend writes a sentence or two from a load's verdicts: the loop
// best beyond the noise on the most figures, what another loop wins on
// instead, or that the reps cannot tell.
func recommend(vs []figureVerdict) string {
	wins := map[string][]string{} // loop -> figures it won beyond the noise, once each
	count := map[string]int{}
	var order, behind []string
	for _, v := range vs {
		for _, l := range v.behind {
			if !slices.Contains(behind, l) {
				behind = append(behind, l)
			}
		}
	}
	for _, v := range vs {
		if !v.beyond || slices.Contains(behind, v.best.Loop) {
			continue
		}
		l := v.best.Loop
		if _, ok := wins[l]; !ok {
			order = append(order, l)
		}
		count[l]++
		if !slices.Contains(wins[l], v.fig.name) {
			wins[l] = append(wins[l], v.fig.name)
		}
	}
	var s string
	if len(order) == 0 {
		s = fmt.Sprintf("no loop is better beyond the noise on any of the %d figures compared; run more reps (-reps 10) before choosing, or choose on other grounds.", len(vs))
	} else {
		slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(count[b], count[a]) })
		lead := order[0]
		s = fmt.Sprintf("use the %s loop: it is best beyond the noise on %d of the %d figures compared (%s).",
			lead, count[lead], len(vs), strings.Join(wins[lead], ", "))
		var but []string
		for _, l := range order[1:] {
			but = append(but, fmt.Sprintf("%s (%s)", l, strings.Join(wins[l], ", ")))
		}
		if len(but) > 0 {
			s += " Where what matters most is a figure another loop wins beyond the noise, take that one instead: " + strings.Join(but, "; ") + "."
		}
	}
	if len(behind) > 0 {
		s += fmt.Sprintf(" Not %s: under this load each showed the right picture less than %d%% of the display time where another loop kept it %d%% or more (on_time_pct), a slideshow, whatever it wins.",
			strings.Join(behind, " nor "), behindPct, keptPct)
	}
	return s
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
