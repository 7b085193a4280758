package app

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tandem-engine/tandem/internal/atomicfile"
)

// StopGrace is how long a stop asked for by a signal may take before the
// watchdog writes what it can and exits: a frame of a million 512 px
// sprites takes minutes under llvmpipe, and the loop sees the signal only
// between frames. On Windows it is shorter (stopgrace_windows.go).
const StopGrace = stopGrace

// ErrDisplayLost is a run's error when its display went away: the sim
// was stopped and the summary and the recording's end were written.
var ErrDisplayLost = errors.New("the display went away (the X server died or disconnected): the run stopped; its summary and recording were written up to there")

// Why a run stopped, in the JSON's stopped_by.
const (
	StopSeconds = "seconds" // -seconds ran out
	StopSignal  = "signal"  // SIGINT or SIGTERM
	StopWindow  = "window"  // the window's close button
	StopKey     = "key"     // Esc
	StopContext = "context" // Run's context was done
	// StopDisplayLost: the X server died or the display disconnected.
	StopDisplayLost = "display-lost"
)

// Coalesce is how close together two signals count as one stop: a group
// kill delivers two at once (coreutils' timeout sends SIGTERM to tandem
// and then to its process group; a terminal's Ctrl-C reaches every
// process of the foreground group), where a person's second Ctrl-C comes
// a moment later.
const Coalesce = 250 * time.Millisecond

// Signals turns SIGINT, SIGTERM and SIGHUP (a closed terminal, a dropped
// ssh) into a stop request the frame loop sees between frames. Signals
// within Coalesce of the first are the same stop; a later one exits at
// once with code 130, as a shell's Ctrl-C does; a stop that the loop has
// not finished within grace exits with a message. Either way the process
// does not hang, and an exit without the summary leaves no half-written
// output under its name (package atomicfile).
//
// SIGQUIT is left to Go: it dumps every goroutine's stack (what a stuck
// run needs) and exits; the outputs being written are left under their
// temporary names, never their own.
type Signals struct {
	caught atomic.Bool
	sigs   chan os.Signal
	done   chan struct{}
	// last, when set, writes what it can when the grace runs out: the
	// recording's end and the summary, from the watchdog.
	last atomic.Pointer[func()]
	// wake, when set, ends the main thread's wait for events, so that it
	// sees the stop at once (the threaded loop's).
	wake atomic.Pointer[func()]
	// forced, when set, is told of an exit without unwinding (its
	// message and code) just before it: the command line prints -json's
	// error object unless the summary was printed.
	forced atomic.Pointer[func(msg string, code int)]
	ending chan struct{} // Ending's: the loop stopped of itself
}

// SetForcedExit sets what is told of an exit the watchdog makes, with its
// message and exit code, just before it (nil: nothing). Any goroutine.
func (w *Signals) SetForcedExit(f func(msg string, code int)) { w.forced.Store(&f) }

// exit says msg on stderr (unless it is "": the summary was written),
// tells the forced-exit hook, and exits with code.
func (w *Signals) exit(code int, stderr io.Writer, msg string) {
	if msg != "" {
		fmt.Fprintf(stderr, "tandem: %s\n", msg)
	}
	if f := w.forced.Load(); f != nil && *f != nil {
		(*f)(msg, code)
	}
	exitNow(code, stderr)
}

// setLast sets what the watchdog runs when a stop's grace runs out with
// the render thread stuck in a frame (nil: nothing).
func (w *Signals) setLast(f func()) { w.last.Store(&f) }

// setWake sets what ends the main thread's wait for events when a signal
// comes (nil: nothing to end).
func (w *Signals) setWake(f func()) { w.wake.Store(&f) }

// StopSignals are the signals that stop a run.
var StopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// WatchSignals starts watching StopSignals until Close; grace is how long
// a stop may take, messages go to stderr.
func WatchSignals(grace time.Duration, stderr io.Writer) *Signals {
	w := &Signals{sigs: make(chan os.Signal, 4), done: make(chan struct{}), ending: make(chan struct{}, 1)}
	signal.Notify(w.sigs, StopSignals...)
	go w.watch(grace, stderr)
	return w
}

// watch waits for a stop (a signal, or the loop's Ending), then holds the
// rest of the run to grace. Its own goroutine.
func (w *Signals) watch(grace time.Duration, stderr io.Writer) {
	var at time.Time // when the first signal came; zero: none yet
	caught := func() {
		at = time.Now()
		w.caught.Store(true)
		if wake := w.wake.Load(); wake != nil && *wake != nil {
			(*wake)()
		}
	}
	why := "the signal"
	select {
	case <-w.sigs:
		caught()
	case <-w.ending:
		why = "the run ended"
	case <-w.done:
		return
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	for {
		select {
		case s := <-w.sigs:
			switch {
			case at.IsZero():
				caught() // the run is already stopping: this asks for nothing more
			case time.Since(at) >= Coalesce:
				w.exit(130, stderr, fmt.Sprintf("second %v: exiting at once, without the summary", s))
			}
			// Within Coalesce: the same stop, delivered twice.
		case <-t.C:
			last := w.last.Load()
			if last == nil || *last == nil {
				w.exit(1, stderr, fmt.Sprintf("still running %v after %s (a frame, or a tick a frame waits for, is taking that long): exiting without the summary", grace, why))
				return
			}
			fmt.Fprintf(stderr, "tandem: still running %v after %s (a frame, or a tick a frame waits for, is taking that long): writing the recording's end and the summary, then exiting\n", grace, why)
			wrote := make(chan struct{})
			go func() { (*last)(); close(wrote) }()
			select {
			case <-wrote:
				w.exit(1, stderr, "") // the summary said it all
			case <-time.After(grace):
				w.exit(1, stderr, fmt.Sprintf("the summary took over %v more: exiting without it", grace))
			}
			return
		case <-w.done:
			return
		}
	}
}

// Ending tells the watchdog that the loop stopped for a reason of its own
// (-seconds ran out, the window closed, Esc): what is left of the run (the
// sim's stop, the recording's end, the summary) then has a stop's grace,
// as after a signal, so that a stuck tick or frame cannot keep the
// process from exiting. A signal after it is not a second stop; one after
// that is. Any goroutine; calls after the first do nothing.
func (w *Signals) Ending() {
	select {
	case w.ending <- struct{}{}:
	default:
	}
}

// OnForcedExit holds what must be undone even when the process exits
// without unwinding: the private Xvfb, which lives in its own session and
// would outlive tandem where the kernel does not stop it with tandem
// (diesWithParent).
var OnForcedExit atomic.Pointer[func()]

// exitNow exits at once with code, after the cleanup of OnForcedExit and
// removing the outputs still being written (their names keep what they
// held); a recording's partial file is kept, and named on stderr.
func exitNow(code int, stderr io.Writer) {
	for _, kept := range atomicfile.RemovePending() {
		fmt.Fprintf(stderr, "tandem: what was recorded so far is in %s (replay it with -allow-cut)\n", kept)
	}
	if f := OnForcedExit.Load(); f != nil {
		(*f)()
	}
	osExit(code)
}

// osExit is os.Exit, but in the tests of the watchdog.
var osExit = os.Exit

// Close stops watching: the run is over.
func (w *Signals) Close() {
	signal.Stop(w.sigs)
	close(w.done)
}
