// Package charts draws a bench's charts with gonum/plot. Only the
// programs that draw them link it (cmd/tandem): a game's own bench writes
// the CSVs that `tandem report DIR` draws from.
package charts

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/internal/atomicfile"
	"github.com/tandem-engine/tandem/simthread"
)

// The size of every chart. PNGs are drawn at gonum/plot's 96 dpi:
// 768x384 pixels.
const (
	chartWidth  = 8 * vg.Inch
	chartHeight = 4 * vg.Inch
)

// heavyCell is the sim cost whose cell matrix_frame_time.png shows.
const heavyCell = 14 * time.Millisecond

// Run draws the charts of one run into dir as PNGs, and returns the
// names (not paths) of the files it wrote, in this order:
//
//   - frame_time.png: each frame's present-to-present time (ms) over run time
//   - frame_hist.png: a histogram of those frame times
//   - tick_lateness.png: each tick's start - due (ms) over run time
//   - probe_error.png: [bench.ProbeErrors] (px) over run time
//
// Run time is in seconds from the first frame's present (from the first
// tick's start when there are no frames). A chart with nothing to show
// (fewer than two frames, no ticks) is not written. title heads every
// chart. dir is created if needed.
func Run(dir string, frames []bench.FrameRecord, ticks []simthread.TickRecord, title string) ([]string, error) {
	var d runData
	switch {
	case len(frames) > 0:
		d.t0 = frames[0].Present
	case len(ticks) > 0:
		d.t0 = ticks[0].Start
	}
	for i, f := range frames {
		d.frame(i, f)
	}
	if pe := bench.ProbeErrors(frames); len(pe) > 0 {
		for i, e := range pe {
			d.probe.add(d.sec(frames[i].Present), e)
		}
	}
	for _, t := range ticks {
		d.tick(t)
	}
	return d.draw(dir, title)
}

// RunFiles is Run reading the run's frames.csv and ticks.csv as it
// draws, holding none of their records: what it holds is the charts'
// points, at most maxBuckets a line, and a frame time a frame (for the
// histogram and its percentiles). The frames are read twice: the probe's
// even pace is set by the first and last frames. Errors name the file.
func RunFiles(dir, framesPath, ticksPath, title string) ([]string, error) {
	var d runData
	var first, last bench.FrameRecord
	n := 0
	err := bench.ScanCSVFile(framesPath, func(r io.Reader) error {
		return bench.ScanFramesCSV(r, func(f bench.FrameRecord) {
			if n == 0 {
				first, d.t0 = f, f.Present
			}
			d.frame(n, f)
			last = f
			n++
		})
	})
	if err != nil {
		return nil, err
	}
	if dt := float64(last.Present - first.Present); n >= 2 && dt > 0 {
		// bench.ProbeErrors, streamed: each frame's drawn x less the
		// evenly paced x, less their median (the line is drawn shifted).
		speed := (last.ProbeX - first.ProbeX) / dt
		errs := make([]float64, 0, n)
		err := bench.ScanCSVFile(framesPath, func(r io.Reader) error {
			return bench.ScanFramesCSV(r, func(f bench.FrameRecord) {
				e := f.ProbeX - first.ProbeX - speed*float64(f.Present-first.Present)
				errs = append(errs, e)
				d.probe.add(d.sec(f.Present), e)
			})
		})
		if err != nil {
			return nil, err
		}
		d.probeShift = -bench.Percentile(errs, 0.5)
	}
	err = bench.ScanCSVFile(ticksPath, func(r io.Reader) error {
		return bench.ScanTicksCSV(r, func(t simthread.TickRecord) {
			if n == 0 && d.ticks.len() == 0 {
				d.t0 = t.Start
			}
			d.tick(t)
		})
	})
	if err != nil {
		return nil, err
	}
	return d.draw(dir, title)
}

// runData is what Run's charts draw, gathered a record at a time.
type runData struct {
	t0         int64     // run time's zero, ns
	prev       int64     // the last frame's present
	ft         []float64 // frame times, ms
	frameLine  series
	ticks      series
	probe      series
	probeShift float64 // added to the probe line's y (its median taken off)
}

func (d *runData) sec(ns int64) float64 { return float64(ns-d.t0) / 1e9 }

// frame takes frame i (in order).
func (d *runData) frame(i int, f bench.FrameRecord) {
	if i > 0 {
		v := ms(f.Present - d.prev)
		d.ft = append(d.ft, v)
		d.frameLine.add(d.sec(f.Present), v)
	}
	d.prev = f.Present
}

func (d *runData) tick(t simthread.TickRecord) { d.ticks.add(d.sec(t.Start), ms(t.Start-t.Due)) }

// draw draws the charts that have something to show.
func (d *runData) draw(dir, title string) ([]string, error) {
	var charts []namedPlot
	if ft := d.ft; len(ft) > 0 {
		p := newPlot(title, "frame time", "run time (s)", "present to present (ms)")
		if err := addLine(p, d.frameLine.xy(), color.Black, ""); err != nil {
			return nil, chartErr(dir, bench.FrameTimeChart, err)
		}
		p.Y.Min = min(p.Y.Min, 0)
		p.Y.Max *= 1.05
		charts = append(charts, namedPlot{bench.FrameTimeChart, p})

		p = newPlot(title, fmt.Sprintf("frame times: p50 %.2f ms, p99 %.2f ms, max %.2f ms",
			bench.Percentile(ft, 0.5), bench.Percentile(ft, 0.99), bench.Percentile(ft, 1)),
			"frame time, present to present (ms)", "frames (log scale)")
		// A log scale, so that the few slow frames in the tail show next
		// to the thousands of ordinary ones.
		h, top := histogram(ft)
		h.LogY = true
		p.Add(h)
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Y.Min, p.Y.Max = 0.5, 2*top
		charts = append(charts, namedPlot{bench.FrameHistChart, p})
	}

	if d.ticks.len() > 0 {
		p := newPlot(title, "tick lateness", "run time (s)", "tick start - due (ms)")
		if err := addLine(p, d.ticks.xy(), color.Black, ""); err != nil {
			return nil, chartErr(dir, bench.TickLatenessChart, err)
		}
		p.Y.Min = min(p.Y.Min, 0)
		p.Y.Max *= 1.05
		charts = append(charts, namedPlot{bench.TickLatenessChart, p})
	}

	if d.probe.len() > 0 {
		xy := d.probe.xy()
		for i := range xy {
			xy[i].Y += d.probeShift
		}
		p := newPlot(title, "probe error: drawn x - evenly paced x", "run time (s)", "probe error (px)")
		if err := addLine(p, xy, color.Black, ""); err != nil {
			return nil, chartErr(dir, bench.ProbeErrorChart, err)
		}
		charts = append(charts, namedPlot{bench.ProbeErrorChart, p})
	}
	return saveCharts(dir, charts)
}

// Matrix draws the charts of a matrix of runs into dir as PNGs, and
// returns the names (not paths) of the files it wrote, in this order:
//
//   - matrix_fps.png: fps_mean per (simcost, sprites) cell, one bar per loop
//   - matrix_frame_p99.png: frame_ms_p99, likewise
//   - matrix_input_latency.png: input_latency_ms_p50, likewise: what each
//     loop costs between a key press and the frame that shows it
//   - matrix_latency.png: latency_ms_p50, likewise: how old the newest
//     tick a frame shows is at its present, what decoupling costs
//   - matrix_on_time.png: on_time_pct, likewise
//   - matrix_frame_time.png: the frame times over run time of one rep of
//     each loop, in the cell with simcost 14ms and the fewest sprites (or,
//     without a 14ms cell, the heaviest sim cost present)
//
// A bar is the median over the cell's reps; a figure no rep measured draws
// no bar. The last chart uses only results whose bench.Frames are kept, the
// lowest rep of each loop, and is not written when none are. dir is
// created if needed.
func Matrix(dir string, results []bench.Result) ([]string, error) {
	cells := bench.GroupCells(results)
	if len(cells) == 0 {
		return nil, nil
	}
	loops := loopOrder(results)
	var charts []namedPlot
	for _, m := range []struct {
		name, what, unit string
		fig              bench.Figure
	}{
		{"matrix_fps.png", "mean FPS (higher is better)", "frames per second", bench.FigFPSMean},
		{"matrix_frame_p99.png", "frame time p99 (lower is better)", "frame time p99 (ms)", bench.FigFrameMsP99},
		{"matrix_input_latency.png", "input latency p50 (lower is better)", "key press to the frame showing it, p50 (ms)", bench.FigInputLatencyP50},
		{"matrix_latency.png", "latency p50 (lower is better)", "newest shown tick's start to present, p50 (ms)", bench.FigLatencyMsP50},
		{"matrix_on_time.png", "on time (higher is better)", "display time within 16.7 ms of right (%)", bench.FigOnTimePct},
	} {
		p, err := barsPlot(cells, loops, m.fig, m.what, m.unit)
		if err != nil {
			return nil, chartErr(dir, m.name, err)
		}
		charts = append(charts, namedPlot{m.name, p})
	}

	var kept []bench.Result
	for _, r := range results {
		if len(r.Frames) >= 2 || r.FramesFile != "" {
			kept = append(kept, r)
		}
	}
	if c := frameTimeCell(bench.GroupCells(kept)); c != nil {
		p := newPlot("", "frame time, "+bench.CellTitle(c),
			"run time (s)", "present to present (ms)")
		for _, l := range c.Loops {
			r := slices.MinFunc(l.Results, func(a, b bench.Result) int { return a.Rep - b.Rep })
			line, err := frameTimeLine(r)
			if err != nil {
				return nil, chartErr(dir, "matrix_frame_time.png", err)
			}
			label := fmt.Sprintf("%s (rep %d)", l.Loop, r.Rep)
			if err := addLine(p, line.xy(), loopColor(slices.Index(loops, l.Loop)), label); err != nil {
				return nil, chartErr(dir, "matrix_frame_time.png", err)
			}
		}
		p.Legend.Top = true
		p.Y.Min = min(p.Y.Min, 0)
		p.Y.Max *= 1.25 // room for the legend
		charts = append(charts, namedPlot{"matrix_frame_time.png", p})
	}
	return saveCharts(dir, charts)
}

// frameTimeLine returns r's frame times over its run time: from
// r.Frames, or streamed from r.FramesFile, holding none of its records.
func frameTimeLine(r bench.Result) (*series, error) {
	line := &series{}
	var first, prev int64
	n := 0
	add := func(f bench.FrameRecord) {
		if n == 0 {
			first = f.Present
		} else {
			line.add(float64(f.Present-first)/1e9, ms(f.Present-prev))
		}
		prev = f.Present
		n++
	}
	if r.Frames != nil {
		for _, f := range r.Frames {
			add(f)
		}
		return line, nil
	}
	err := bench.ScanCSVFile(r.FramesFile, func(rd io.Reader) error { return bench.ScanFramesCSV(rd, add) })
	return line, err
}

// namedPlot is a chart and the name of its file.
type namedPlot struct {
	name string
	p    *plot.Plot
}

// saveCharts writes charts into dir as PNGs, creating dir if needed, and
// returns the names written.
func saveCharts(dir string, charts []namedPlot) ([]string, error) {
	if len(charts) == 0 {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("bench: charts: %w", err)
	}
	var names []string
	for _, c := range charts {
		// Whole or absent, and a symlink at the name (a report folder from
		// someone else's archive) replaced rather than written through.
		wt, err := c.p.WriterTo(chartWidth, chartHeight, "png")
		if err == nil {
			err = atomicfile.WriteFileIn(filepath.Join(dir, c.name), func(w io.Writer) error {
				_, err := wt.WriteTo(w)
				return err
			})
		}
		if err != nil {
			return names, chartErr(dir, c.name, err)
		}
		names = append(names, c.name)
	}
	return names, nil
}

func chartErr(dir, name string, err error) error {
	return fmt.Errorf("bench: chart %s: %w", filepath.Join(dir, name), err)
}

// newPlot returns a plot with a grid, titled "title: what" (or what alone).
func newPlot(title, what, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = what
	if title != "" {
		p.Title.Text = title + ": " + what
	}
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Add(plotter.NewGrid())
	return p
}

// addLine adds a line through the finite points of xy to p, with a legend
// entry when label is not empty.
func addLine(p *plot.Plot, xy plotter.XYs, c color.Color, label string) error {
	xy = slices.DeleteFunc(xy, func(q plotter.XY) bool { return !finite(q.X) || !finite(q.Y) })
	if len(xy) == 0 {
		return nil
	}
	l, err := plotter.NewLine(xy)
	if err != nil {
		return err
	}
	l.Color = c
	l.Width = vg.Points(0.75)
	p.Add(l)
	if label != "" {
		p.Legend.Add(label, l)
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// histogram bins xs (finite, at least one) into between 10 and 100 equal
// bins, about the square root of their count, and returns it with the
// count of its fullest bin. It does its own binning: plotter.NewHist's can
// panic when rounding puts a value one past the last bin.
func histogram(xs []float64) (h *plotter.Histogram, top float64) {
	lo, hi := slices.Min(xs), slices.Max(xs)
	n := min(max(int(math.Ceil(math.Sqrt(float64(len(xs))))), 10), 100)
	w := (hi - lo) / float64(n)
	if !(w > 0) {
		n, w, lo = 1, 1, lo-0.5
	}
	bins := make([]plotter.HistogramBin, n)
	for i := range bins {
		bins[i].Min = lo + float64(i)*w
		bins[i].Max = lo + float64(i+1)*w
	}
	for _, x := range xs {
		b := &bins[min(max(int((x-lo)/w), 0), n-1)]
		b.Weight++
		top = max(top, b.Weight)
	}
	return &plotter.Histogram{
		Bins:      bins,
		Width:     w,
		FillColor: color.Gray{Y: 160},
		LineStyle: plotter.DefaultLineStyle,
	}, top
}

// loopColors are Okabe and Ito's colours, told apart with any colour
// vision: blue, orange, bluish green, vermillion, reddish purple, sky blue.
var loopColors = []color.Color{
	color.RGBA{0x00, 0x72, 0xb2, 0xff},
	color.RGBA{0xe6, 0x9f, 0x00, 0xff},
	color.RGBA{0x00, 0x9e, 0x73, 0xff},
	color.RGBA{0xd5, 0x5e, 0x00, 0xff},
	color.RGBA{0xcc, 0x79, 0xa7, 0xff},
	color.RGBA{0x56, 0xb4, 0xe9, 0xff},
}

// loopColor returns the colour of the i-th loop of [loopOrder].
func loopColor(i int) color.Color { return loopColors[i%len(loopColors)] }

// barsPlot returns grouped bars: per cell, one bar per loop, the median of
// the figure key over the reps.
func barsPlot(cells []*bench.Cell, loops []string, fig bench.Figure, what, unit string) (*plot.Plot, error) {
	p := newPlot("", what+" per cell, median over reps", "cell: sim cost per tick, sprites", unit)
	labels := make([]string, len(cells))
	for i, c := range cells {
		labels[i] = bench.CellLabel(c)
	}
	// Bars fill about 80% of the 7 inches the plot area spans.
	bw := min(0.8*7*vg.Inch/vg.Length(len(cells)*len(loops)), vg.Inch/2)
	top := 0.0
	for li, loop := range loops {
		vs := barValues(cells, loop, fig)
		top = max(top, slices.Max(vs))
		b, err := plotter.NewBarChart(vs, bw)
		if err != nil {
			return nil, err
		}
		b.Color = loopColor(li)
		b.LineStyle.Width = 0
		b.Offset = vg.Length(float64(li)-float64(len(loops)-1)/2) * bw
		p.Add(b)
		p.Legend.Add(loop, b)
	}
	p.Legend.Top = true
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.5, float64(len(cells))-0.5 // whole groups, a gap between
	p.Y.Min = 0
	if top > 0 {
		p.Y.Max = top * 1.25 // room for the legend
	}
	return p, nil
}

// barValues returns loop's bar in each cell: the median of the figure key
// over its reps, 0 (no bar) where it has none.
func barValues(cells []*bench.Cell, loop string, fig bench.Figure) plotter.Values {
	vs := make(plotter.Values, len(cells))
	for ci, c := range cells {
		if l := c.ByLoop(loop); l != nil {
			if v, ok := l.Median(fig); ok {
				vs[ci] = v
			}
		}
	}
	return vs
}

// loopOrder returns the loops of results, coupled first, then in order of
// first appearance: the order of the charts' colours.
func loopOrder(results []bench.Result) []string {
	var loops []string
	for _, r := range results {
		if !slices.Contains(loops, r.Loop) {
			loops = append(loops, r.Loop)
		}
	}
	slices.SortStableFunc(loops, func(a, b string) int { return bench.LoopRank(a) - bench.LoopRank(b) })
	return loops
}

// frameTimeCell returns the cell matrix_frame_time.png shows: the 14ms
// cell with the fewest sprites, else the heaviest sim cost's (that parses
// as a duration, if any does) with the fewest sprites; nil when there are
// no cells. cells are in GroupCells'
// order.
func frameTimeCell(cells []*bench.Cell) *bench.Cell {
	if len(cells) == 0 {
		return nil
	}
	for _, c := range cells {
		if d, err := time.ParseDuration(c.SimCost); err == nil && d == heavyCell {
			return c
		}
	}
	// GroupCells puts the sim costs that parse first, lightest first.
	heaviest := cells[len(cells)-1].SimCost
	for _, c := range slices.Backward(cells) {
		if _, err := time.ParseDuration(c.SimCost); err == nil {
			heaviest = c.SimCost
			break
		}
	}
	for _, c := range cells {
		if c.SimCost == heaviest {
			return c
		}
	}
	return nil
}

// ms converts nanoseconds to milliseconds.
func ms(ns int64) float64 { return float64(ns) / 1e6 }
