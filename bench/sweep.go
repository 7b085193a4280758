package bench

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/tandem-engine/tandem/internal/hoststat"
)

// sweepMetrics are the columns of [WriteSweepMarkdown]: the frame-pacing
// figures.
var sweepMetrics = []mdMetric{
	{FigAnimErrMsP99, 2, false, "lower"},
	{FigAnimErrMsRMS, 2, false, "lower"},
	{FigAnimErrOver2ms, 1, true, "lower"},
	{FigJudder, 3, false, "lower, among runs on time"}, // a slideshow's is low
	{FigOnTimePct, 1, false, "higher"},
	{FigFPSMean, 1, false, "higher"},
	{FigLatencyMsP50, 1, false, "lower"},
	{FigInterpDelayP50, 2, false, "lower"},
	{FigPresentHoldP50, 1, false, "lower"},
	{FigOverdueFrames, 1, true, "lower"},
	{FigSimBackwards, 1, true, "lower"},
	{FigHostStealPct, 1, false, "lower"},
	{FigHostFloorP99, 2, false, "lower"},
	{FigHostFloorCacheP99, 2, false, "lower"},
}

// WriteSweepMarkdown writes a Markdown table of results under the heading
// title and notes (paragraphs, such as the order the runs came in): one
// row per Name, in the order the names first appear, and in each column
// the figure over that name's results (its reps) as "min–max (median)",
// or the value alone when there is one. The runs of a row being
// interleaved with the other rows', the ranges say how much the machine's
// noise moved each figure. A figure no run measured prints "–".
func WriteSweepMarkdown(w io.Writer, title string, results []Result, notes []string) error {
	bw := bufio.NewWriter(w)
	if title != "" {
		fmt.Fprintf(bw, "# %s\n\n", mdEscape(title))
	}
	for _, n := range notes {
		fmt.Fprintf(bw, "%s\n\n", n)
	}
	head := []string{"run", "n"}
	for _, m := range sweepMetrics {
		head = append(head, "`"+m.fig.Name+"`")
	}
	mdRow(bw, head)
	mdRule(bw, len(head))
	var names []string
	byName := map[string][]Result{}
	for _, r := range results {
		if _, ok := byName[r.Name]; !ok {
			names = append(names, r.Name)
		}
		byName[r.Name] = append(byName[r.Name], r)
	}
	for _, name := range names {
		rs := byName[name]
		row := []string{mdEscape(name), strconv.Itoa(len(rs))}
		for _, m := range sweepMetrics {
			row = append(row, m.spread(rs))
		}
		mdRow(bw, row)
	}
	disturbed := 0
	for _, r := range results {
		if v, ok := FigHostStealPct.Value(&r.Summary); ok && v >= hoststat.Notable {
			disturbed++
		}
	}
	if disturbed > 0 {
		fmt.Fprintf(bw, "\n%d of %d runs were measured while the host stole %g%% or more of the CPU (`host_steal_pct`): their timing figures are the host's as much as the engine's.\n",
			disturbed, len(results), hoststat.Notable)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("bench: write markdown: %w", err)
	}
	return nil
}

// spread formats the figure m over rs: "min–max (median)", the value
// alone when the runs that measured it agree or are one, "–" for none.
func (m mdMetric) spread(rs []Result) string {
	l := CellLoop{Results: rs}
	med, ok := l.Median(m.fig)
	if !ok {
		return "–"
	}
	var xs []float64
	for _, r := range rs {
		if v, ok := m.fig.Value(&r.Summary); ok {
			xs = append(xs, v)
		}
	}
	lo, hi := slices.Min(xs), slices.Max(xs)
	if m.format(lo, true) == m.format(hi, true) {
		return m.format(lo, true)
	}
	return m.format(lo, true) + "–" + m.format(hi, true) + " (" + m.format(med, true) + ")"
}
