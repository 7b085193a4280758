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
	{"anim_err_ms_p99", 2, false, "lower"},
	{"anim_err_ms_rms", 2, false, "lower"},
	{"frames_anim_err_over_2ms", 1, true, "lower"},
	{"judder", 3, false, "lower, among runs on time"}, // a slideshow's is low
	{"on_time_pct", 1, false, "higher"},
	{"fps_mean", 1, false, "higher"},
	{"latency_ms_p50", 1, false, "lower"},
	{"interp_delay_ms_p50", 2, false, "lower"},
	{"present_hold_ms_p50", 1, false, "lower"},
	{"frames_snapshot_overdue", 1, true, "lower"},
	{"frames_sim_backwards", 1, true, "lower"},
	{"host_steal_pct", 1, false, "lower"},
	{"host_floor_ms_p99", 2, false, "lower"},
	{"host_floor_cache_ms_p99", 2, false, "lower"},
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
		head = append(head, "`"+m.key+"`")
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
		if v, ok := summaryNum(r.Summary, "host_steal_pct"); ok && v >= hoststat.Notable {
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
	med, ok := l.Median(m.key)
	if !ok {
		return "–"
	}
	var xs []float64
	for _, r := range rs {
		if v, ok := summaryNum(r.Summary, m.key); ok {
			xs = append(xs, v)
		}
	}
	lo, hi := slices.Min(xs), slices.Max(xs)
	if m.format(lo, true) == m.format(hi, true) {
		return m.format(lo, true)
	}
	return m.format(lo, true) + "–" + m.format(hi, true) + " (" + m.format(med, true) + ")"
}
