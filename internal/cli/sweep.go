package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/signal"
	"path/filepath"
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
	markdown func(w io.Writer, title string, rs []bench.Result, notes []string, looks *bench.Looks) error,
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
	// A signal stops the running cell, and the report of the cells done
	// is written, marked interrupted (sweepProcess).
	input, self, stop, end, err := sweepProcess(opts, stderr)
	if err != nil {
		return fail(err)
	}
	defer end()
	seed := opts.orderSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	host := newHostWatch()
	defer host.stop()
	sw := sweep{self: self, dir: dir, input: input, common: commonFlags(opts, own), stop: stop, seed: seed, host: host, tally: &runTally{}}
	plan := newRepPlan(opts, cells)
	fmt.Fprintln(stderr, plan.text(what))
	if what == "-matrix" {
		fmt.Fprintln(stderr, loadsText(cells))
	}
	if w := plan.warning(); w != "" {
		fmt.Fprintln(stderr, w)
	}
	began := time.Now()
	results, n, ended, err := sw.run(opts, cells, plan, stdout, stderr)
	if err != nil {
		return fail(err)
	}
	notes := []string{orderNote(cells, seed, results)}
	if n := sw.tally.note(); n != "" {
		notes = append(notes, n)
	}
	if ended != "" {
		fmt.Fprintln(stderr, "bench: "+ended)
		notes = append(notes, "**Reps.** "+ended)
	}
	title := p.Name + " bench " + what
	if stop.stopped() {
		title += fmt.Sprintf(" (interrupted: %d of %d cells done)", len(results), n)
	}
	report := func(w io.Writer) error { return markdown(w, title, results, notes, plan.looks()) }
	if err := writeResults(dir, results, report); err != nil {
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
		if err := report(stdout); err != nil {
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
		if !own[setName(s)] {
			common = append(common, s)
		}
	}
	return common
}

// setName is the name of a flag as opts.set holds it (-name=value).
func setName(s string) string {
	name, _, _ := strings.Cut(strings.TrimPrefix(s, "-"), "=")
	return name
}

// sweep is what every cell of a running sweep shares.
type sweep struct {
	self, dir, input string
	common           []string
	stop             *sweepStop
	seed             uint64 // of the cells' order in each rep (sweepOrder)
	// host measures the machine's other load around each run (nil: not
	// measured), and tally counts what it did to the runs.
	host  *hostWatch
	tally *runTally
}

// run runs the cells rep after rep as plan says, until they are done or a
// signal stops the sweep; it returns the results, how many runs were
// planned, and with -reps auto why it stopped adding reps. Each rep takes
// the cells in the order [sweepOrder] draws for it.
func (sw sweep) run(opts options, cells []benchCell, plan repPlan, stdout, stderr io.Writer) ([]bench.Result, int, string, error) {
	n := plan.reps * len(cells)
	if sw.tally == nil {
		sw.tally = &runTally{}
	}
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
			cellDir := filepath.Join(sw.dir, "cells", bench.CellDir(c.name, rep))
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
			var r bench.Result
			var line []byte
			other, err := sw.host.runQuiet(fmt.Sprintf("%s rep %d", c.name, rep), plan.auto && time.Since(began) < plan.budget, sw.tally, sw.stop.stopped, stderr, func() (err error) {
				r, line, err = runCell(sw.self, cellArgs(opts, c, cellDir, sw.input, sw.common), cellDir, stderr, sw.stop)
				return err
			})
			if sw.stop.stopped() {
				return results, n, ended, nil // the cell was cut short: its figures are not comparable
			}
			if err != nil {
				return nil, n, ended, fmt.Errorf("cell %s: %w", c.name, err)
			}
			// The cell's place on the sprites axis, not the live
			// entities its summary counts: a game that makes its own
			// number of entities must not fold two cells into one. The
			// loop is the cell's too (a -pacing cell's is in its args).
			r.Name, r.Rep, r.Sprites, r.RenderCost, r.Knobs = c.name, rep, c.sprites, c.rendercost, c.load
			if !math.IsNaN(other) {
				r.OtherPct = &other
			}
			if strings.HasPrefix(c.name, "loop=") {
				r.Loop = c.loop()
			}
			results = append(results, r)
			if opts.json {
				fmt.Fprintf(stdout, "%s\n", line)
			}
		}
	}
	return results, n, ended, nil
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

// sweepProcess readies this process to run a sweep's runs, each a
// process of its own: the runs' -input (read before tandem's Xvfb sets
// DISPLAY), that Xvfb when the sweep needs one, the bench's environment,
// the binary the runs are, and the watch for signals: a signal stops the
// running cell (a Ctrl-C reaches it through the process group; a kill of
// this process alone is passed on), and a second, after app.Coalesce,
// exits at once. end undoes them, the watch first.
func sweepProcess(opts options, stderr io.Writer) (input, self string, stop *sweepStop, end func(), err error) {
	input = cellInput(opts)
	stopX := func() {}
	if needXvfb(opts) {
		if stopX, err = startXvfb(opts.Window.Width, opts.Window.Height, stderr); err != nil {
			return "", "", nil, nil, err
		}
	}
	setBenchEnv()
	if self, err = os.Executable(); err != nil {
		stopX()
		return "", "", nil, nil, err
	}
	stop = watchSweep(stderr)
	return input, self, stop, func() { stop.close(); stopX() }, nil
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
	sum, err := bench.ReadSummary(line)
	if err != nil {
		return r, nil, fmt.Errorf("reading its summary %q: %w", line, err)
	}
	r = bench.Result{Loop: sum.Loop, SimCost: sum.SimCost, Sprites: sum.Sprites, Summary: sum}
	r.Name = bench.CellName(r.Loop, r.SimCost, r.Sprites, "", "")
	if r.Frames, err = bench.ReadCSVFile(filepath.Join(dir, "frames.csv"), bench.ReadFramesCSV); err != nil {
		return r, nil, err
	}
	if r.Ticks, err = bench.ReadCSVFile(filepath.Join(dir, "ticks.csv"), bench.ReadTicksCSV); err != nil {
		return r, nil, err
	}
	return r, line, nil
}
