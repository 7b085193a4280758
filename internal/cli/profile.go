package cli

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strings"
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
		f, err := os.Create(path)
		if err != nil {
			return fmt.Errorf("%s: %w", flag, err)
		}
		// The runtime drops a profile's write errors; this keeps the
		// first, so that a full disk fails the run instead of leaving a
		// truncated profile behind in silence.
		w := &errWriter{w: f}
		if err := start(w); err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", flag, err)
		}
		stops = append(stops, func() error {
			end()
			if err := f.Close(); w.err == nil {
				w.err = err
			}
			if w.err != nil {
				return fmt.Errorf("-%s %s: %w", flag, path, w.err)
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
			f, err := os.Create(o.memprofile)
			if err != nil {
				return fmt.Errorf("memprofile: %w", err)
			}
			if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
				f.Close()
				return fmt.Errorf("-memprofile %s: %w", o.memprofile, err)
			}
			if err := f.Close(); err != nil {
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
