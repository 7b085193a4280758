//go:build cgo

package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/tandem-engine/tandem/internal/app"
	"github.com/tandem-engine/tandem/internal/pprofhook"
	"github.com/tandem-engine/tandem/window"
)

// runWindow runs the loop with opts in a window: its display (a private
// Xvfb where there is none), profiles and -pprof, then the summary and
// the bench's report.
func (p *Program) runWindow(opts options, stdout, stderr io.Writer) int {
	// From here on the start takes seconds (Xvfb, the window, OpenGL): a
	// Ctrl-C in them stops the run when its loop begins, with the summary,
	// and a second one exits at once, as in the loop.
	opts.Signals = app.WatchSignals(app.StopGrace, stderr)
	defer opts.Signals.Close()
	if out, ok := stdout.(*countWriter); ok {
		// -json: an exit without the summary prints the error object.
		opts.Signals.SetForcedExit(out.errorJSON)
	}
	if needXvfb(opts) {
		stop, err := startXvfb(opts.Window.Width, opts.Window.Height, stderr)
		if err != nil {
			return p.fail(stderr, err)
		}
		defer stop()
	}
	if opts.Measure.Bench {
		setBenchEnv()
	}
	if opts.pprofAddr != "" {
		stop, addr, err := pprofhook.Serve(opts.pprofAddr, opts.pprofAny, stderr)
		if err != nil {
			return p.fail(stderr, err)
		}
		defer stop()
		fmt.Fprintf(stderr, "%s: pprof at http://%s/debug/pprof/\n", p.Name, addr)
	}
	stopProfiles, err := startProfiles(opts)
	if err != nil {
		stopProfiles()
		return p.fail(stderr, err)
	}
	opts.Last = func(sum *app.Summary) {
		sum.Profiling = profiling(opts)
		switch {
		case opts.json:
			sum.WriteJSON(stdout)
		case opts.Measure.Bench:
			sum.WriteText(stdout)
		}
	}
	// Every stop writes what it can: the summary is printed even when a
	// screenshot, the recording or a profile could not be written; each
	// such error is reported after it and fails the exit code.
	sum, err := app.Run(opts.Options)
	errs := []error{err, stopProfiles()}
	if sum == nil {
		err := errors.Join(errs...)
		var de *window.DisplayError
		if errors.As(err, &de) {
			err = errors.New(displayFix(de, p.Name))
		}
		return p.fail(stderr, err)
	}
	sum.Profiling = profiling(opts)
	code := exitOK
	if w := app.StealWarning(sum.HostStealPct); w != "" {
		fmt.Fprintf(stderr, "%s: %s\n", p.Name, w)
	}
	if r := sum.Replay; r != nil {
		switch {
		case r.Verified:
			fmt.Fprintf(stderr, "%s replay: %s: verified: %s (%d checkpoints)\n", p.Name, opts.Replay.File, app.VerifiedWhat(opts.Replay.Rec), r.Checkpoints)
		case opts.verify:
			fmt.Fprintf(stderr, "%s replay: %s: %s\n", p.Name, opts.Replay.File, r.Error)
			code = exitError
			sum.Error = r.Error
		default:
			fmt.Fprintf(stderr, "%s replay: %s: warning: %s\n", p.Name, opts.Replay.File, r.Error)
		}
	}
	if opts.out != "" {
		if err := p.writeReport(opts.out, sum); err != nil {
			errs = append(errs, err)
		} else {
			fmt.Fprintf(stderr, "%s: report in %s\n", p.Name, opts.out)
		}
	}
	// With -json the summary carries what failed, so that a script reading
	// it learns of it.
	if err := errors.Join(errs...); err != nil {
		sum.Error = err.Error()
	}
	switch {
	case opts.json:
		errs = append(errs, sum.WriteJSON(stdout))
	case opts.Measure.Bench:
		errs = append(errs, sum.WriteText(stdout))
	}
	for _, err := range errs {
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
			code = exitError
		}
	}
	return code
}
