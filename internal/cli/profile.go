package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strings"

	"github.com/tandem-engine/tandem/internal/atomicfile"
)

// startProfiles starts the profiles the flags ask for and returns the
// function that stops them and writes them out.
func startProfiles(o options) (stop func() error, err error) {
	var stops []func() error
	stop = func() error {
		var first error
		for i := len(stops) - 1; i >= 0; i-- {
			if err := stops[i](); err != nil && first == nil {
				first = err
			}
		}
		return first
	}
	if o.memprofile != "" {
		// Sample every allocation: the point is to find the few a frame
		// makes, not to estimate bulk.
		runtime.MemProfileRate = 1
	}
	// stream starts a profile that writes to path while the run lasts.
	stream := func(flag, path string, start func(io.Writer) error, end func()) error {
		if path == "" {
			return nil
		}
		// Written beside path and renamed over it at the end: a stop
		// before then leaves no half profile under its name.
		f, err := atomicfile.Create(path)
		if err != nil {
			return fmt.Errorf("-%s: %w", flag, err)
		}
		// The runtime drops a profile's write errors; this keeps the
		// first, so that a full disk fails the run instead of leaving a
		// truncated profile behind in silence.
		w := &errWriter{w: f}
		if err := start(w); err != nil {
			f.Abort()
			return fmt.Errorf("-%s %s: %w", flag, path, err)
		}
		stops = append(stops, func() error {
			end()
			if w.err != nil {
				f.Abort()
				return fmt.Errorf("-%s %s: %w", flag, path, w.err)
			}
			if err := f.Commit(); err != nil {
				return fmt.Errorf("-%s %s: %w", flag, path, err)
			}
			return nil
		})
		return nil
	}
	if err := stream("cpuprofile", o.cpuprofile, pprof.StartCPUProfile, pprof.StopCPUProfile); err != nil {
		return stop, err
	}
	if err := stream("trace", o.trace, trace.Start, trace.Stop); err != nil {
		return stop, err
	}
	if o.memprofile != "" {
		stops = append(stops, func() error {
			err := atomicfile.WriteFile(o.memprofile, func(w io.Writer) error { return pprof.Lookup("allocs").WriteTo(w, 0) })
			if err != nil {
				return fmt.Errorf("-memprofile %s: %w", o.memprofile, err)
			}
			return nil
		})
	}
	return stop, nil
}

// profiling names the profilers o turns on, for the summary's
// profiling field: "cpuprofile", "trace", "pprof" and "memprofile" in that
// order, joined by commas, or "none". Each costs the run something (the
// trace's and the profile's buffers and writer, the HTTP server, every
// allocation sampled), which allocs_per_frame and the timings include.
func profiling(o options) string {
	var on []string
	for _, p := range []struct {
		name string
		set  bool
	}{{"cpuprofile", o.cpuprofile != ""}, {"trace", o.trace != ""}, {"pprof", o.pprofAddr != ""}, {"memprofile", o.memprofile != ""}} {
		if p.set {
			on = append(on, p.name)
		}
	}
	if len(on) == 0 {
		return "none"
	}
	return strings.Join(on, ",")
}

// errWriter passes writes on to w and keeps the first error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
