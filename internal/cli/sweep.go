package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/internal/app"
	"github.com/tandem-engine/tandem/internal/atomicfile"
	"github.com/tandem-engine/tandem/internal/regfile"
)

// A sweep (-matrix, -pacing): its cells, each a bench run in a process of
// its own, run rep after rep, stopped by a signal with the report of the
// cells done.

// runSweep runs cells, each in its own process (a fresh heap, GL context
// and GC state), -reps times, all the cells of a rep before the next rep
// so that every cell meets the machine's noise alike; then it writes the
// report (with markdown) and bench.txt into -out (or prints the report),
// and charts (if any) its charts.
func (p *Program) runSweep(opts options, what string, cells []benchCell, own map[string]bool,
	markdown func(io.Writer, string, []bench.Result, []string) error,
	charts func(string, []bench.Result) ([]string, error), stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "%s bench: %v\n", p.Name, err)
		return exitError
	}
	for _, f := range []string{"cpuprofile", "memprofile", "trace", "screenshot", "pprof", "record"} {
		for _, s := range opts.set {
			if strings.HasPrefix(s, "-"+f+"=") {
				fmt.Fprintf(stderr, "%s bench: -%s with %s: every cell would write the same file; give it to one cell instead, e.g. %s bench -loop coupled -simcost 14ms -%s FILE\n", p.Name, f, what, p.Name, f)
				return exitUsage
			}
		}
	}
	dir, cleanup, err := sweepDir(opts.out)
	if err != nil {
		return fail(err)
	}
	defer cleanup()
	input := cellInput(opts) // before the Xvfb sets DISPLAY
	if needXvfb(opts) {
		stop, err := startXvfb(opts.Window.Width, opts.Window.Height, stderr)
		if err != nil {
			return fail(err)
		}
		defer stop()
	}
	setBenchEnv()
	self, err := os.Executable()
	if err != nil {
		return fail(err)
	}
	// A signal stops the running cell (a Ctrl-C reaches it through the
	// process group; a kill of this process alone is passed on), and the
	// report of the cells done is written, marked interrupted. A second
	// signal, after app.Coalesce, exits at once.
	stop := watchSweep(stderr)
	defer stop.close()
	seed := opts.orderSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	sw := sweep{self: self, dir: dir, input: input, common: commonFlags(opts, own), stop: stop, seed: seed}
	plan := newRepPlan(opts, cells)
	fmt.Fprintln(stderr, plan.text(what))
	if w := plan.warning(); w != "" {
		fmt.Fprintln(stderr, w)
	}
	began := time.Now()
	results, n, ended, err := sw.run(opts, cells, plan, stdout, stderr)
	if err != nil {
		return fail(err)
	}
	notes := []string{orderNote(cells, seed, results)}
	if ended != "" {
		fmt.Fprintln(stderr, "bench: "+ended)
		notes = append(notes, "**Reps.** "+ended)
	}
	title := p.Name + " bench " + what
	if stop.stopped() {
		title += fmt.Sprintf(" (interrupted: %d of %d cells done)", len(results), n)
	}
	if err := writeResults(dir, title, results, notes, markdown); err != nil {
		return fail(err)
	}
	if charts != nil {
		if _, err := charts(dir, results); err != nil {
			return fail(err)
		}
	}
	code := exitOK
	if stop.stopped() {
		fmt.Fprintf(stderr, "%s bench: interrupted by a signal: the report holds the %d of %d cells done\n", p.Name, len(results), n)
		code = exitError
	}
	if opts.out == "" {
		if err := markdown(stdout, title, results, notes); err != nil {
			return fail(err)
		}
		return code
	}
	fmt.Fprintf(stderr, "bench: %d cells in %s; report in %s\n", len(results), time.Since(began).Round(time.Second), dir)
	return code
}

// sweepDir makes the folder a sweep writes into: -out, or a temporary
// one that cleanup removes. A cells link in a folder from someone else's
// archive would send every cell's files through it: it is removed, not
// followed.
func sweepDir(out string) (dir string, cleanup func(), err error) {
	dir, cleanup = out, func() {}
	if dir == "" {
		if dir, err = os.MkdirTemp("", "tandem-sweep-"); err != nil {
			return "", nil, err
		}
		cleanup = func() { os.RemoveAll(dir) }
	}
	cellsDir := filepath.Join(dir, "cells")
	if fi, err := os.Lstat(cellsDir); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		if err := os.Remove(cellsDir); err != nil {
			cleanup()
			return "", nil, fmt.Errorf("-out: %w", err)
		}
	}
	if err := os.MkdirAll(cellsDir, 0o755); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("-out: %w", err)
	}
	return dir, cleanup, nil
}

// makeCellDir makes a cell's directory, which its process writes its
// report into. A -out folder may come from someone else's archive: a
// symlink at the cell's name (to /elsewhere) would send the cell's files
// through it, so it is removed (its target untouched) and a directory
// made in its place; anything else there that is not a directory (a file,
// a FIFO) is someone's, and is refused, not removed.
func makeCellDir(dir string) error {
	fi, err := os.Lstat(dir)
	switch {
	case err == nil && fi.Mode()&os.ModeSymlink != 0:
		if err := os.Remove(dir); err != nil {
			return fmt.Errorf("-out: %w", err)
		}
	case err == nil && fi.IsDir():
		return nil
	case err == nil:
		kind := "a file"
		if !fi.Mode().IsRegular() {
			kind = regfile.Kind(fi.Mode())
		}
		return fmt.Errorf("-out: %s is %s, where the cell's directory goes: move it away, or give another -out", dir, kind)
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("-out: %w", err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return fmt.Errorf("-out: %w", err)
	}
	return nil
}

// commonFlags are the flags given on the sweep's command line that every
// cell takes: those it does not set per cell itself (own).
func commonFlags(opts options, own map[string]bool) []string {
	var common []string
	for _, s := range opts.set {
		name := strings.TrimPrefix(strings.SplitN(s, "=", 2)[0], "-")
		if !own[name] {
			common = append(common, s)
		}
	}
	return common
}

// sweep is what every cell of a running sweep shares.
type sweep struct {
	self, dir, input string
	common           []string
	stop             *sweepStop
	seed             uint64 // of the cells' order in each rep (sweepOrder)
}

// sweepOrder returns the order rep runs cells in: the blocks (the cells of
// one load, which differ only in their loop) in a random order, and each
// block's cells in a random order, next to each other, so that the
// machine's drift over a rep (warming, throttling, a neighbour's load)
// falls on every loop of a load alike and lines up with none. The order
// is drawn afresh for each rep from seed and the rep alone: a report's
// seed repeats it.
func sweepOrder(cells []benchCell, seed uint64, rep int) []int {
	rng := rand.New(rand.NewPCG(seed, uint64(rep)))
	var blocks []string
	in := map[string][]int{}
	for i, c := range cells {
		if _, ok := in[c.block]; !ok {
			blocks = append(blocks, c.block)
		}
		in[c.block] = append(in[c.block], i)
	}
	rng.Shuffle(len(blocks), func(i, j int) { blocks[i], blocks[j] = blocks[j], blocks[i] })
	order := make([]int, 0, len(cells))
	for _, b := range blocks {
		idx := slices.Clone(in[b])
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		order = append(order, idx...)
	}
	return order
}

// orderNote is the report's paragraph on the order the runs came in: the
// seed, then a line per rep with its blocks in the order run, each with
// its cells' order.
func orderNote(cells []benchCell, seed uint64, results []bench.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Order.** Each rep ran its cells in a fresh random order, the cells of one load next to each other, "+
		"so that the machine's drift falls on every loop of a load alike: seed %d (`-order-seed %d` runs the same order again).\n", seed, seed)
	for i, r := range results {
		first := i == 0 || results[i-1].Rep != r.Rep
		switch {
		case first:
			fmt.Fprintf(&b, "\n- rep %d: %s: ", r.Rep, blockOf(cells, r.Name))
		case blockOf(cells, results[i-1].Name) != blockOf(cells, r.Name):
			fmt.Fprintf(&b, "; %s: ", blockOf(cells, r.Name))
		default:
			b.WriteString(", ")
		}
		b.WriteString(cellLabel(cells, r.Name))
	}
	return b.String()
}

// blockOf and cellLabel return the block of the cell called name and what
// tells it apart within its block.
func blockOf(cells []benchCell, name string) string {
	if i := slices.IndexFunc(cells, func(c benchCell) bool { return c.name == name }); i >= 0 {
		return cells[i].block
	}
	return name
}

func cellLabel(cells []benchCell, name string) string {
	if b := blockOf(cells, name); b != name {
		return strings.Trim(strings.Replace(name, b, "", 1), "/")
	}
	return name
}

// repPlan is how many reps a sweep runs: reps, or with auto from reps
// on, a rep at a time, while a comparison is undecided, up to max reps
// and within budget.
type repPlan struct {
	reps, max int
	auto      bool
	budget    time.Duration
	cells     int
	loops     int           // the most loops a block compares
	perCell   time.Duration // the time a cell is expected to take
}

// cellStart is about how long a cell's process takes beyond its warm-up
// and measured seconds: starting, making its window and GL context,
// writing its report.
const cellStart = 2 * time.Second

// autoMaxReps is the most reps -reps auto runs: the exact test's limit.
const autoMaxReps = 30

func newRepPlan(opts options, cells []benchCell) repPlan {
	p := repPlan{reps: max(opts.reps, 1), max: max(opts.reps, 1), auto: opts.repsAuto, budget: opts.repsBudget,
		cells: len(cells), perCell: opts.Measure.Warmup + opts.Seconds + cellStart}
	in := map[string]int{}
	for _, c := range cells {
		in[c.block]++
		p.loops = max(p.loops, in[c.block])
	}
	if p.auto {
		p.reps = max(bench.FewestReps(p.loops, autoMaxReps), 1)
		p.max = autoMaxReps
	}
	return p
}

// text is the plan, said before the first run: the cells, the time each
// is expected to take, the reps and the whole time.
func (p repPlan) text(what string) string {
	rep := p.perCell * time.Duration(p.cells)
	s := fmt.Sprintf("bench: %s plan: %d cells a rep, each about %v (warm-up, measured seconds, about %v to start), about %v a rep; ",
		what, p.cells, p.perCell, cellStart, rep.Round(time.Second))
	if !p.auto {
		return s + fmt.Sprintf("%d reps, about %v in all", p.reps, (rep*time.Duration(p.reps)).Round(time.Second))
	}
	fit := min(p.max, max(1, int(p.budget/rep)))
	return s + fmt.Sprintf("-reps auto: %d reps first (the fewest at which Holm over the %d pairs of %d loops can call one behind), about %v, "+
		"then a rep at a time until every pair of loops on every figure is behind or level, up to %d reps or -reps-budget %v: at most %d reps, about %v",
		p.reps, p.loops*(p.loops-1)/2, p.loops, (rep*time.Duration(p.reps)).Round(time.Second), p.max, p.budget, fit, (rep*time.Duration(fit)).Round(time.Second))
}

// warning says, before the first run, what the plan cannot decide: a
// fixed -reps too few for any loop to be behind (or level), a budget too
// short for the fewest reps that can.
func (p repPlan) warning() string {
	if p.loops < 2 {
		return ""
	}
	pairs := p.loops * (p.loops - 1) / 2
	fewest := bench.FewestReps(p.loops, 100)
	rep := p.perCell * time.Duration(p.cells)
	switch {
	case p.auto && p.budget < rep*time.Duration(p.reps):
		return fmt.Sprintf("bench: -reps-budget %v holds %d of the %d reps at which a loop can first be called behind: the verdicts will say \"cannot tell\"; give -reps-budget %v or more",
			p.budget, int(p.budget/rep), p.reps, (rep * time.Duration(p.reps)).Round(time.Minute))
	case p.auto || p.reps >= fewest:
		return ""
	}
	s := fmt.Sprintf("bench: -reps %d cannot decide which loop is behind: with %d reps a side the smallest p, Holm-corrected over the %d pairs of %d loops, is %.2f, never under %.2f",
		p.reps, p.reps, pairs, p.loops, min(1, float64(pairs)*bench.SmallestP(p.reps)), bench.Alpha)
	if p.reps < bench.FewestLevelReps() {
		s += fmt.Sprintf(", and with fewer than %d no interval exists, so none is level either: every verdict will say \"cannot tell\"", bench.FewestLevelReps())
	} else {
		s += ": pairs can be level, none behind"
	}
	return s + fmt.Sprintf(". Use -reps %d or more, or -reps auto", fewest)
}

// run runs the cells rep after rep as plan says, until they are done or a
// signal stops the sweep; it returns the results, how many runs were
// planned, and with -reps auto why it stopped adding reps. Each rep takes
// the cells in the order [sweepOrder] draws for it.
func (sw sweep) run(opts options, cells []benchCell, plan repPlan, stdout, stderr io.Writer) ([]bench.Result, int, string, error) {
	n := plan.reps * len(cells)
	var results []bench.Result
	began, i := time.Now(), 0
	ended := ""
	for rep := 0; ; rep++ {
		if rep >= plan.reps {
			if !plan.auto {
				break
			}
			if ended = plan.more(results, rep, time.Since(began)); ended != "" {
				break
			}
			n += len(cells)
		}
		for _, ci := range sweepOrder(cells, sw.seed, rep) {
			c := cells[ci]
			if sw.stop.stopped() {
				return results, n, ended, nil
			}
			i++
			cellDir := filepath.Join(sw.dir, "cells", fmt.Sprintf("%s-rep%d", strings.ReplaceAll(c.name, "/", "-"), rep))
			if err := makeCellDir(cellDir); err != nil {
				return nil, n, ended, err
			}
			el := time.Since(began)
			left := "unknown"
			if i > 1 {
				left = (el / time.Duration(i-1) * time.Duration(n-i+1)).Round(time.Second).String()
			}
			more := ""
			if plan.auto {
				more = " (-reps auto: more reps may follow)"
			}
			fmt.Fprintf(stderr, "bench: cell %d of %d: %s rep %d; %s elapsed, about %s left%s\n",
				i, n, c.name, rep, el.Round(time.Second), left, more)
			r, line, err := runCell(sw.self, cellArgs(opts, c, cellDir, sw.input, sw.common), cellDir, stderr, sw.stop)
			if sw.stop.stopped() {
				return results, n, ended, nil // the cell was cut short: its figures are not comparable
			}
			if err != nil {
				return nil, n, ended, fmt.Errorf("cell %s: %w", c.name, err)
			}
			// The cell's place on the sprites axis, not the live
			// entities its summary counts: a game that makes its own
			// number of entities must not fold two cells into one.
			r.Name, r.Rep, r.Sprites = c.name, rep, c.sprites
			results = append(results, r)
			if opts.json {
				fmt.Fprintf(stdout, "%s\n", line)
			}
		}
	}
	return results, n, ended, nil
}

// more returns "" when -reps auto should run another rep after reps done
// in elapsed, or why not: every comparison decided, the most reps run, or
// the budget, which another rep at the pace so far would pass.
func (p repPlan) more(results []bench.Result, reps int, elapsed time.Duration) string {
	v := bench.Verdicts(results)
	all := v.Behind + v.Level + v.CannotTell
	done := fmt.Sprintf("-reps auto ran %d reps in %v: ", reps, elapsed.Round(time.Second))
	counts := fmt.Sprintf("%d behind, %d level, %d cannot tell", v.Behind, v.Level, v.CannotTell)
	perRep := elapsed / time.Duration(reps)
	switch {
	case v.CannotTell == 0:
		return done + fmt.Sprintf("every one of the %d comparisons decided (%s)", all, counts)
	case reps >= p.max:
		return done + fmt.Sprintf("the most it runs; of the %d comparisons, %s", all, counts)
	case elapsed+perRep > p.budget:
		return done + fmt.Sprintf("another, at about %v a rep, would pass -reps-budget %v; of the %d comparisons, %s",
			perRep.Round(time.Second), p.budget, all, counts)
	}
	return ""
}

// sweepStop watches the stop signals during a sweep and passes the first
// on to the running cell.
type sweepStop struct {
	sigs chan os.Signal
	done chan struct{}
	mu   sync.Mutex
	cell *os.Process // the running cell, or nil
	stop bool
}

// watchSweep starts watching the stop signals until close.
func watchSweep(stderr io.Writer) *sweepStop {
	s := &sweepStop{sigs: make(chan os.Signal, 4), done: make(chan struct{})}
	signal.Notify(s.sigs, app.StopSignals...)
	go func() {
		var at time.Time
		for {
			select {
			case <-s.done:
				return
			case sig := <-s.sigs:
				s.mu.Lock()
				first := !s.stop
				s.stop = true
				cell := s.cell
				s.mu.Unlock()
				switch {
				case first:
					at = time.Now()
					fmt.Fprintf(stderr, "bench: %v: stopping the running cell, then writing the report of the cells done\n", sig)
					if cell != nil {
						cell.Signal(syscall.SIGTERM)
					}
				case time.Since(at) >= app.Coalesce:
					fmt.Fprintf(stderr, "bench: second %v: exiting at once, without the report\n", sig)
					if cell != nil {
						cell.Kill()
					}
					atomicfile.RemovePending()
					if f := app.OnForcedExit.Load(); f != nil {
						(*f)() // the sweep's own Xvfb
					}
					os.Exit(130)
				}
			}
		}
	}()
	return s
}

// running sets the cell running now (nil: none); a stop already asked
// for stops it at once.
func (s *sweepStop) running(p *os.Process) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cell = p
	if p != nil && s.stop {
		p.Signal(syscall.SIGTERM)
	}
}

// stopped reports whether a signal asked the sweep to stop.
func (s *sweepStop) stopped() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stop
}

func (s *sweepStop) close() {
	signal.Stop(s.sigs)
	close(s.done)
}

// cellArgs are the command line of cell c of a sweep, writing into dir:
// the cell's own flags, then the sweep's common ones (given on its
// command line and not its own), the cell's -input and the sweep's game.
func cellArgs(opts options, c benchCell, dir, input string, common []string) []string {
	args := []string{"bench", "-json", "-out", dir, "-input", input}
	if opts.matrixScene != "" {
		args = append(args, "-scene", opts.matrixScene)
	}
	return append(append(append(args, c.args...), "-sprite-size", fmt.Sprint(opts.World.SpriteSize)), common...)
}

// runCell runs one cell as a child process and reads back its summary
// (also returned as the JSON line it printed) and its records.
func runCell(self string, args []string, dir string, stderr io.Writer, stop *sweepStop) (r bench.Result, line []byte, err error) {
	var out bytes.Buffer
	c, err := spawn(self, args, &out, stderr, nil, nil)
	if err == nil {
		stop.running(c.proc)
		err = c.wait()
		stop.running(nil)
	}
	if err != nil {
		return r, nil, fmt.Errorf("%s %s: %w", self, strings.Join(args, " "), err)
	}
	line = bytes.TrimSpace(out.Bytes())
	m := map[string]any{}
	if err := json.Unmarshal(line, &m); err != nil {
		return r, nil, fmt.Errorf("reading its summary %q: %w", line, err)
	}
	r = bench.Result{Loop: fmt.Sprint(m["loop"]), SimCost: fmt.Sprint(m["simcost"]), Summary: m}
	if v, ok := m["sprites"].(float64); ok {
		r.Sprites = int(v)
	}
	r.Name = cellName(r.Loop, r.SimCost, r.Sprites)
	if r.Frames, err = bench.ReadCSVFile(filepath.Join(dir, "frames.csv"), bench.ReadFramesCSV); err != nil {
		return r, nil, err
	}
	if r.Ticks, err = bench.ReadCSVFile(filepath.Join(dir, "ticks.csv"), bench.ReadTicksCSV); err != nil {
		return r, nil, err
	}
	return r, line, nil
}
