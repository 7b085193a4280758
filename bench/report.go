package bench

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

// The names of one run's charts, which bench/charts' Run draws into a
// bench's -out directory (and tandem report DIR redraws): named once here,
// so that the command line knows the files a bench may write.
const (
	FrameTimeChart    = "frame_time.png"
	FrameHistChart    = "frame_hist.png"
	TickLatenessChart = "tick_lateness.png"
	ProbeErrorChart   = "probe_error.png"
)

// RunCharts returns the names of one run's charts, in the order they are
// drawn.
func RunCharts() []string {
	return []string{FrameTimeChart, FrameHistChart, TickLatenessChart, ProbeErrorChart}
}

// benchPkg is the pkg line of bench.txt: benchstat groups results by it.
const benchPkg = "github.com/tandem-engine/tandem"

// benchUnits are the figures of a bench.txt line after ns/frame, in order:
// the Summary key, the unit benchstat shows, and which way is better
// ("higher", "lower", or "" for neither: tps should equal the tick rate,
// and judder measures evenness only: a slideshow of even frames scores
// lowest, so it is read with on-time-%, never on its own).
var benchUnits = []struct {
	fig          Figure
	unit, better string
}{
	{FigFPSMean, "fps", "higher"},
	{FigJudder, "judder", ""},
	{FigOnTimePct, "on-time-%", "higher"},
	{FigAnimErrMsP99, "anim-err-p99-ms", "lower"},
	{FigFrameMsP99, "frame-p99-ms", "lower"},
	{FigLatencyMsP50, "latency-p50-ms", "lower"},
	{FigInputLatencyP50, "input-latency-p50-ms", "lower"},
	{FigTPS, "tps", ""},
	{FigAllocsPerFrame, "allocs/frame", "lower"},
}

// WriteBenchTxt writes results in Go's benchmark format, one line per
// result, so that `benchstat old/bench.txt new/bench.txt` compares two
// sets of runs (the reps of a cell are its samples):
//
//	BenchmarkLoop/loop=decoupled/simcost=14ms/sprites=2000	1	9009009 ns/frame	111.0 fps	...
//
// ns/frame is 1e9/fps_mean; the other figures come from Result.Summary. A
// figure not measured (null) is left out of its line; a result with no figure at all has no line
// (benchstat warns of one without measurements). Whitespace in a name becomes '_', as the
// testing package does, so that a name stays one field. The header gives
// goos, goarch, pkg, cpu (when /proc/cpuinfo names it) and, in "Unit"
// lines, which way each unit is better.
func WriteBenchTxt(w io.Writer, results []Result) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "goos: %s\ngoarch: %s\npkg: %s\n", runtime.GOOS, runtime.GOARCH, benchPkg)
	if cpu := cpuName(); cpu != "" {
		fmt.Fprintf(bw, "cpu: %s\n", cpu)
	}
	fmt.Fprintf(bw, "Unit ns/frame better=lower\n")
	for _, u := range benchUnits {
		if u.better != "" {
			fmt.Fprintf(bw, "Unit %s better=%s\n", u.unit, u.better)
		}
	}
	var line strings.Builder
	for _, r := range results {
		line.Reset()
		if fps, ok := FigFPSMean.Value(&r.Summary); ok && fps > 0 {
			writeBenchValue(&line, 1e9/fps, "ns/frame")
		}
		for _, u := range benchUnits {
			if v, ok := u.fig.Value(&r.Summary); ok {
				writeBenchValue(&line, v, u.unit)
			}
		}
		if line.Len() > 0 {
			fmt.Fprintf(bw, "BenchmarkLoop/%s\t1%s\n", benchName(r), line.String())
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("bench: write bench.txt: %w", err)
	}
	return nil
}

// benchName returns r's name for a benchmark line: Result.Name, or the
// cell's keys when it is empty, with every space character replaced by '_'.
func benchName(r Result) string {
	name := r.Name
	if name == "" {
		name = CellName(r.Loop, r.SimCost, r.Sprites, r.RenderCost, r.Knobs)
	}
	return strings.Map(func(c rune) rune {
		if unicode.IsSpace(c) || !unicode.IsPrint(c) {
			return '_'
		}
		return c
	}, name)
}

// writeBenchValue writes a tab, then v and its unit with about five
// significant digits, as the testing package prints its figures.
func writeBenchValue(w io.Writer, v float64, unit string) {
	var prec int
	switch y := math.Abs(v); {
	case y == 0 || y >= 999.95:
		prec = 0
	case y >= 99.995:
		prec = 1
	case y >= 9.9995:
		prec = 2
	case y >= 0.99995:
		prec = 3
	case y >= 0.099995:
		prec = 4
	case y >= 0.0099995:
		prec = 5
	case y >= 0.00099995:
		prec = 6
	default:
		prec = 7
	}
	fmt.Fprintf(w, "\t%.*f %s", prec, v, unit)
}

// cpuName returns the CPU's model name from /proc/cpuinfo, as the testing
// package prints it in its cpu line, or "" when it is not known.
var cpuName = sync.OnceValue(func() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for line := range strings.Lines(string(b)) {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
})

// mdMetric is a column of the Markdown report: a Summary figure, how many
// decimals to print, whether to drop trailing zeros (for counts that are
// whole but for a median of two), and which way is better ("higher",
// "lower", "higher, up to hz" for the tick rate, which should equal hz,
// "lower, among loops on time" for judder, which a slideshow wins, or ""
// for neither).
type mdMetric struct {
	fig      Figure
	decimals int
	trim     bool
	better   string
}

var mdMetrics = []mdMetric{
	{FigFPSMean, 1, false, "higher"},
	{FigFrameMsP50, 2, false, "lower"},
	{FigFrameMsP99, 2, false, "lower"},
	{FigHitches, 1, true, "lower"},
	{FigTPS, 1, false, "higher, up to hz"},
	{FigTickJitterMsP99, 2, false, "lower"},
	{FigAnimErrMsP99, 2, false, "lower"},
	{FigJudder, 3, false, "lower, among loops on time"},
	{FigOnTimePct, 1, false, "higher"},
	{FigLatencyMsP50, 2, false, "lower"},
	{FigInputLatencyP50, 2, false, "lower"},
	{FigAllocsPerFrame, 3, true, "lower"},
}

// evennessOnly reports whether m measures only how even the frames are, so
// that a slideshow of even frames scores best on it: in a side-by-side
// table, a loop that falls behind on time (see [behindPct]) is marked not
// comparable on it, and so is its ratio.
func (m mdMetric) evennessOnly() bool { return m.fig.Name == FigJudder.Name }

// baseLoop is the loop the side-by-side tables compare the others with.
const baseLoop = "coupled"

// WriteMarkdown writes a Markdown report of results under the heading
// title: a table with one row per result, then, for every (simcost,
// sprites) cell that holds more than one loop, a side-by-side table with
// which way each figure is better, its median over the cell's reps per
// loop and, when the cell
// has a coupled run, each other loop's median as a ratio to coupled's
// ("2.20x": 2.2 times coupled's value). A figure that is missing or
// negative prints as "–".
//
// When a cell holds more than one loop, the report opens with "## Which
// loop" (see [WriteMatrixMarkdown]).
func WriteMarkdown(w io.Writer, title string, results []Result) error {
	return WriteMatrixMarkdown(w, title, results, nil)
}

// WriteMatrixMarkdown is [WriteMarkdown] with notes, paragraphs that
// open "## Which loop" (an axis the game ignored, say). That section comes
// first whenever a cell holds more than one loop: for each load (none,
// sim, render), each figure's best loop with its direction, whether the
// difference is beyond the noise, and a recommendation drawn from them.
func WriteMatrixMarkdown(w io.Writer, title string, results []Result, notes []string) error {
	return WriteMatrixMarkdownAt(w, title, results, notes, nil)
}

// WriteMatrixMarkdownAt is [WriteMatrixMarkdown] with the verdict of -reps
// auto's looks (each pair as the first look that decided it found it), or
// at Alpha when looks is nil.
func WriteMatrixMarkdownAt(w io.Writer, title string, results []Result, notes []string, looks *Looks) error {
	bw := bufio.NewWriter(w)
	if title != "" {
		fmt.Fprintf(bw, "# %s\n\n", mdEscape(title))
	}
	if slices.ContainsFunc(GroupCells(results), func(c *Cell) bool { return len(c.Loops) > 1 }) {
		writeWhichLoop(bw, results, notes, looks)
		fmt.Fprintf(bw, "## Runs\n\n")
	} else {
		for _, n := range notes {
			fmt.Fprintf(bw, "%s\n\n", n)
		}
	}
	// Each run's row also says how much the host stole while it ran, so
	// that a disturbed run stands out; the side-by-side tables leave it out
	// (a ratio of steal means nothing).
	runMetrics := append(slices.Clip(mdMetrics), mdMetric{FigHostStealPct, 1, false, "lower"})
	head := []string{"loop", "simcost", "sprites", "rep", "`input_source`"}
	for _, m := range runMetrics {
		head = append(head, "`"+m.fig.Name+"`")
	}
	mdRow(bw, head)
	mdRule(bw, len(head))
	for _, r := range results {
		src := r.Summary.InputSource
		if src == "" {
			src = "–"
		}
		row := []string{mdEscape(r.Loop), mdEscape(r.SimCost), spritesText(r.Sprites), strconv.Itoa(r.Rep), mdEscape(src)}
		for _, m := range runMetrics {
			v, ok := m.fig.Value(&r.Summary)
			row = append(row, m.format(v, ok))
		}
		mdRow(bw, row)
	}
	for _, c := range GroupCells(results) {
		if len(c.Loops) < 2 {
			continue
		}
		fmt.Fprintf(bw, "\n## Side by side: %s\n\n", mdEscape(CellTitle(c)))
		head := []string{"median over reps", "better"}
		for _, l := range c.Loops {
			head = append(head, fmt.Sprintf("%s (n=%d)", mdEscape(l.Loop), len(l.Results)))
		}
		base := c.ByLoop(baseLoop)
		if base != nil {
			for _, l := range c.Loops {
				if l != base {
					head = append(head, mdEscape(l.Loop)+" vs "+baseLoop)
				}
			}
		}
		mdRow(bw, head)
		mdRule(bw, len(head))
		writeSideBySide(bw, c, base)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("bench: write markdown: %w", err)
	}
	return nil
}

// writeSideBySide writes the rows of c's side-by-side table: each figure's
// median per loop, then each loop's ratio to base's (none without base).
// On a figure that measures evenness only, a slideshow (a loop behind on
// time, as the verdict finds it) is marked not comparable.
func writeSideBySide(w io.Writer, c *Cell, base *CellLoop) {
	slideshows := verdict(c, decideFigure{fig: FigOnTimePct, higher: true}, Alpha).slideshows
	notComparable := func(m mdMetric, l *CellLoop) bool {
		return m.evennessOnly() && slices.Contains(slideshows, l.Loop)
	}
	for _, m := range mdMetrics {
		row := []string{"`" + m.fig.Name + "`", cmp.Or(m.better, "neither")}
		for _, l := range c.Loops {
			v, ok := l.Median(m.fig)
			s := m.format(v, ok)
			if ok && notComparable(m, l) {
				s += " (slideshow, see `on_time_pct`: not comparable)"
			}
			row = append(row, s)
		}
		if base != nil {
			b, bok := base.Median(m.fig)
			for _, l := range c.Loops {
				if l == base {
					continue
				}
				v, ok := l.Median(m.fig)
				switch {
				case notComparable(m, l) || notComparable(m, base):
					row = append(row, "not comparable")
				case ok && bok && b != 0:
					row = append(row, fmt.Sprintf("%.2fx", v/b))
				default:
					row = append(row, "–")
				}
			}
		}
		mdRow(w, row)
	}
}

func (m mdMetric) format(v float64, ok bool) string {
	if !ok {
		return "–"
	}
	s := strconv.FormatFloat(v, 'f', m.decimals, 64)
	if m.trim && strings.Contains(s, ".") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return s
}

func mdRow(w io.Writer, cells []string) {
	fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
}

func mdRule(w io.Writer, n int) {
	fmt.Fprintf(w, "|%s\n", strings.Repeat(" --- |", n))
}

// mdEscape keeps s from breaking a table row.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// Cell is the results of one (simcost, sprites) cell of the matrix, by
// loop.
type Cell struct {
	SimCost    string
	Sprites    int
	RenderCost string      // "" for none
	Knobs      string      // a game's own load knobs, "" for none
	Loops      []*CellLoop // in the order of LoopRank, whatever order they ran in
}

// CellLoop is the reps of one loop in a cell, in the order given.
type CellLoop struct {
	Loop    string
	Results []Result
}

// ByLoop returns the reps of loop name, or nil.
func (c *Cell) ByLoop(name string) *CellLoop {
	for _, l := range c.Loops {
		if l.Loop == name {
			return l
		}
	}
	return nil
}

// Median returns the median of figure f over l's reps that measured it (the mean of the middle two for an even count; unlike [Percentile],
// which always picks a sample, so that two reps do not report the lower
// one), and whether any did.
func (l *CellLoop) Median(f Figure) (float64, bool) {
	var xs []float64
	for _, r := range l.Results {
		if v, ok := f.Value(&r.Summary); ok {
			xs = append(xs, v)
		}
	}
	return Median(xs), len(xs) > 0
}

// GroupCells groups results by cell, cells ordered by sim cost (as a
// duration, lightest first) then sprites.
func GroupCells(results []Result) []*Cell {
	var cells []*Cell
	for _, r := range results {
		i := slices.IndexFunc(cells, func(c *Cell) bool {
			return c.SimCost == r.SimCost && c.Sprites == r.Sprites && c.RenderCost == r.RenderCost && c.Knobs == r.Knobs
		})
		if i < 0 {
			cells = append(cells, &Cell{SimCost: r.SimCost, Sprites: r.Sprites, RenderCost: r.RenderCost, Knobs: r.Knobs})
			i = len(cells) - 1
		}
		c := cells[i]
		l := c.ByLoop(r.Loop)
		if l == nil {
			l = &CellLoop{Loop: r.Loop}
			c.Loops = append(c.Loops, l)
		}
		l.Results = append(l.Results, r)
	}
	for _, c := range cells {
		slices.SortStableFunc(c.Loops, func(a, b *CellLoop) int {
			return cmp.Or(cmp.Compare(LoopRank(a.Loop), LoopRank(b.Loop)), cmp.Compare(a.Loop, b.Loop))
		})
	}
	slices.SortStableFunc(cells, func(a, b *Cell) int {
		return cmp.Or(cmp.Compare(a.Knobs, b.Knobs), compareSimCost(a.SimCost, b.SimCost), cmp.Compare(a.Sprites, b.Sprites),
			compareSimCost(cmp.Or(a.RenderCost, "0s"), cmp.Or(b.RenderCost, "0s")))
	})
	return cells
}

// loopOrder is the order loops are shown in, whatever order they ran in
// (a sweep draws a fresh one every rep): the base loop first.
var loopOrder = []string{baseLoop, "decoupled", "pipelined", "threaded"}

// LoopRank returns loop's place in the order loops are shown in: the base
// loop first, then the others as the engine lists them; a loop it does
// not know after them.
func LoopRank(loop string) int {
	if i := slices.Index(loopOrder, loop); i >= 0 {
		return i
	}
	return len(loopOrder)
}

// compareSimCost orders sim costs as durations ("2ms" < "14ms"); one that
// does not parse sorts after those that do, by its text.
func compareSimCost(a, b string) int {
	da, ea := time.ParseDuration(a)
	db, eb := time.ParseDuration(b)
	switch {
	case ea == nil && eb == nil:
		return cmp.Compare(da, db)
	case ea == nil:
		return -1
	case eb == nil:
		return 1
	}
	return strings.Compare(a, b)
}
