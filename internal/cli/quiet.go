package cli

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/tandem-engine/tandem/internal/hoststat"
)

// A sweep's runs and the machine's other load: each run's share of the
// machine that other processes took while it ran, a wait for a quiet
// machine before each run, and a run the other load disturbed run again.

// disturbedPct is the share of the machine's CPU time (every CPU's), in
// percent, that other processes may take while a run runs before the run
// counts as disturbed: 10% is a fifth of a core of a 2-core machine. On
// the project's machine a quiet run shows 0 to 3%; the A/B check's runs
// lost a tenth of their frame rate and more, at random, when the other
// sessions' builds and tests took the machine
// (docs/results/2026-11-27-verdict-ab.md).
const disturbedPct = 10

// cellTries is how many times a sweep with -reps auto runs a cell's rep
// at most: a run the other load disturbed is run again, twice at most,
// and the last run is kept whatever it measured. A fixed -reps measures
// and reports the other load only: it waits for nothing.
const cellTries = 3

// quietWait is how long a sweep with -reps auto waits before each run for a second in
// which other processes take less than disturbedPct of the machine; then
// it runs anyway.
const quietWait = 15 * time.Second

// hostMark is the machine's CPU times and our own processes' at a moment.
type hostMark struct {
	t   hoststat.Times
	own uint64
	ok  bool
}

// hostWatch reads the machine's CPU time for a sweep; nil (where /proc
// cannot be read, off Linux) measures nothing and never waits.
type hostWatch struct {
	mark  func() hostMark
	sleep func(time.Duration) // time.Sleep; a test's own
	close func()
	// quiet reports whether the last run measured was undisturbed: the
	// next run then starts at once, without a second spent looking.
	quiet bool
}

func newHostWatch() *hostWatch {
	r, err := hoststat.Open()
	if err != nil {
		return nil
	}
	if _, ok := hoststat.OwnTicks(); !ok {
		r.Close()
		return nil
	}
	return &hostWatch{sleep: time.Sleep, close: func() { r.Close() },
		mark: func() hostMark {
			t, ok := r.Read()
			own, ok2 := hoststat.OwnTicks()
			return hostMark{t: t, own: own, ok: ok && ok2}
		}}
}

// stop closes what h reads.
func (h *hostWatch) stop() {
	if h != nil {
		h.close()
	}
}

// otherPct returns the share of the machine other processes took from a
// to b, in percent; NaN when not measured.
func otherPct(a, b hostMark) float64 {
	if !a.ok || !b.ok || b.own < a.own {
		return math.NaN()
	}
	if p := hoststat.OtherPct(a.t, b.t, b.own-a.own); p >= 0 {
		return p
	}
	return math.NaN()
}

// waitQuiet waits, a second at a time, until other processes took less
// than disturbedPct of the machine over the last second, for quietWait
// at most, or until stop says true; not at all after an undisturbed run.
// It returns how long it waited and the other load of the last second
// (NaN when not measured).
func (h *hostWatch) waitQuiet(stop func() bool) (time.Duration, float64) {
	if h == nil || h.quiet {
		return 0, math.NaN()
	}
	waited := time.Duration(0)
	last := math.NaN()
	for waited < quietWait && !stop() {
		a := h.mark()
		h.sleep(time.Second)
		waited += time.Second
		if last = otherPct(a, h.mark()); !disturbed(last) {
			break // quiet, or not measured
		}
	}
	return waited, last
}

// disturbed reports whether a run during which other processes took
// other percent of the machine is disturbed.
func disturbed(other float64) bool { return other >= disturbedPct }

// runTally counts what the other load did to a sweep's runs, for its
// report.
type runTally struct {
	measured, rerun, keptDisturbed int
	waited                         time.Duration
	retry                          bool     // disturbed runs were run again (-reps auto)
	kept                           []string // the runs kept although disturbed
}

// note is the report's paragraph on the machine's other load; "" when
// nothing was measured.
func (t runTally) note() string {
	if t.measured == 0 {
		return ""
	}
	s := "**The machine's other load.** The sweep measured, for every run, the share of the machine's CPU time that other processes took while it ran " +
		"(busy time in /proc/stat less the CPU time of the sweep, its Xvfb and the run); a run during which they took " +
		fmt.Sprintf("%d%% or more is disturbed. ", disturbedPct)
	if !t.retry {
		s += fmt.Sprintf("Of the %d runs, %d were disturbed", t.measured, t.keptDisturbed)
		if t.keptDisturbed == 0 {
			return s + "."
		}
		return s + fmt.Sprintf(" (-reps auto would have run them again): %s.", strings.Join(t.kept, ", "))
	}
	s += fmt.Sprintf("With -reps auto, before a run that followed a disturbed one (and the first) it waited up to %v for a second in which they took under %d%%, and ran a disturbed run again, up to %d runs in all. ",
		quietWait, disturbedPct, cellTries)
	s += fmt.Sprintf("Of the %d cells' reps, %d runs were run again; it waited %v for quiet in all", t.measured, t.rerun, t.waited.Round(time.Second))
	if t.keptDisturbed == 0 {
		return s + "; every run kept was undisturbed."
	}
	return s + fmt.Sprintf("; %d runs kept were disturbed still, after %d tries (or once -reps-budget was spent, after one): %s.", t.keptDisturbed, cellTries, strings.Join(t.kept, ", "))
}

// runQuiet runs one cell's rep through run (which returns the run's
// result, or an error), after waiting for a quiet machine, again while
// the other load disturbed it, cellTries runs at most; it says on stderr
// what it did. other is the kept run's share of the other load.
func (h *hostWatch) runQuiet(label string, retry bool, tally *runTally, stop func() bool, stderr io.Writer, run func() error) (other float64, err error) {
	tally.retry = tally.retry || retry // -reps auto's last reps, past its budget, are not run again
	if h == nil {
		return math.NaN(), run()
	}
	for try := 1; ; try++ {
		if retry {
			waited, was := h.waitQuiet(stop)
			tally.waited += waited
			if stop() {
				return math.NaN(), nil
			}
			if disturbed(was) {
				fmt.Fprintf(stderr, "bench: %s: other processes still took %.0f%% of the machine after %v of waiting: running it anyway\n", label, was, quietWait)
			}
		}
		a := h.mark()
		if err := run(); err != nil || stop() {
			return math.NaN(), err
		}
		other = otherPct(a, h.mark())
		h.quiet = !disturbed(other)
		if math.IsNaN(other) {
			return other, nil
		}
		if try == 1 {
			tally.measured++
		}
		switch {
		case !disturbed(other):
			return other, nil
		case !retry:
			tally.keptDisturbed++
			tally.kept = append(tally.kept, fmt.Sprintf("%s (%.0f%%)", label, other))
			return other, nil
		case try < cellTries:
			tally.rerun++
			fmt.Fprintf(stderr, "bench: %s: other processes took %.0f%% of the machine during the run (disturbed from %d%%): running it again, try %d of %d\n",
				label, other, disturbedPct, try+1, cellTries)
		default:
			tally.keptDisturbed++
			tally.kept = append(tally.kept, fmt.Sprintf("%s (%.0f%%)", label, other))
			fmt.Fprintf(stderr, "bench: %s: other processes took %.0f%% of the machine during the run: kept, disturbed, after %d tries\n", label, other, cellTries)
			return other, nil
		}
	}
}
