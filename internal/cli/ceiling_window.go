//go:build cgo

package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/tandem-engine/tandem/internal/app"
)

// runCeiling runs -ceiling: the bare quads in a window of the
// bench's size (on a private Xvfb where there is no display), with the
// bench's LP_NUM_THREADS, and prints what it measured (-out: also as
// report.json in that folder).
func (p *Program) runCeiling(opts options, stdout, stderr io.Writer) int {
	// A stop signal ends the run at the next frame, with what it measured.
	sigs, stopped := make(chan os.Signal, 1), make(chan struct{})
	signal.Notify(sigs, app.StopSignals...)
	defer signal.Stop(sigs)
	go func() {
		if _, ok := <-sigs; ok {
			close(stopped)
		}
	}()
	if needXvfb(opts) {
		stop, err := startXvfb(opts.Window.Width, opts.Window.Height, stderr)
		if err != nil {
			return p.fail(stderr, err)
		}
		defer stop()
	}
	setBenchEnv()
	// Profiled as a run of the game is: the two profiles side by side
	// show where the engine's frame goes that the ceiling's does not.
	stopProfiles, err := startProfiles(opts)
	if err != nil {
		stopProfiles()
		return p.fail(stderr, err)
	}
	s, err := app.RunCeiling(app.CeilingConfig{
		Sprites: opts.World.Sprites, Size: opts.World.SpriteSize, Spin: opts.World.Spin,
		Width: opts.Window.Width, Height: opts.Window.Height,
		Warmup: opts.Measure.Warmup, Seconds: opts.Seconds,
		Stop: stopped,
	})
	if err := errors.Join(err, stopProfiles()); err != nil {
		return p.fail(stderr, err)
	}
	s.Profiling = profiling(opts)
	b, err := json.Marshal(s)
	if err != nil {
		return p.fail(stderr, err)
	}
	b = append(b, '\n')
	if opts.out != "" {
		if err := os.MkdirAll(opts.out, 0o755); err != nil {
			return p.fail(stderr, fmt.Errorf("-out: %w", err))
		}
		err := writeFile(opts.out, "report.json", func(w io.Writer) error { _, err := w.Write(b); return err })
		if err != nil {
			return p.fail(stderr, err)
		}
	}
	if opts.json {
		stdout.Write(b)
		return exitOK
	}
	shape := "upright"
	if s.Spin {
		shape = "turning"
	}
	fmt.Fprintf(stdout, "ceiling: %d quads of the bunny's 26x37 shape, %d px tall, %s, one draw a frame, LP_NUM_THREADS=%s (%s)\n", s.Sprites, s.SpriteSize, shape, s.LPNumThreads, s.GLRenderer)
	fmt.Fprintf(stdout, "frames: %d in %.1f s, %.1f FPS, frame p50 %.2f ms, p99 %.2f ms, %.3f allocs/frame\n", s.Frames, s.Seconds, s.FPSMean, s.FrameMsP50, s.FrameMsP99, s.AllocsPerFrame)
	if cpu, ok := s.RenderCPUMsPerFrame.Value(); ok {
		wait, _ := s.RenderRunqMsPerFrame.Value()
		others, _ := s.OtherThreadsCPUPct.Value()
		fmt.Fprintf(stdout, "cpu: render thread %.2f ms a frame, %.2f ms waiting for a core; other threads %.1f%% of a core\n", cpu, wait, others)
	}
	if s.Stopped {
		return exitError
	}
	return exitOK
}
