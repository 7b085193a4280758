//go:build cgo

package app

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"sync/atomic"
	"time"

	"github.com/tandem-engine/tandem/internal/pacing"
	"github.com/tandem-engine/tandem/snapshot"
	"github.com/tandem-engine/tandem/window"
)

// threaded draws the decoupled loop's frames on a render thread of its
// own (its sim runs as decoupled.go's does: simthread's Runner.Start), so
// that the main thread does nothing but wait for the window's events and
// stamp them as they arrive. In the other loops the main
// thread draws, and a key pressed during a frame waits for the frame to
// end before anything reads it: at 25 ms a frame that wait is half a
// frame on average.
//
// The main thread keeps everything GLFW wants there: the events, the
// window's size, fullscreen, closing. The render thread owns the GL
// context and reads the window's state as data (surface); what crosses
// between the two is atomic, or the last frame's camera under a mutex,
// once per event or frame.
type threaded struct {
	s *session
	// The window as the main thread last saw it: the framebuffer's size
	// (w<<32 | h) and whether it is minimised.
	fb        atomic.Uint64
	minimised atomic.Bool
	// stopping tells the render thread to end.
	stopping atomic.Bool
}

// The main thread sleeps in the window's wait for input
// (window.WaitEvents: on X11 on a connection of its own, which the render
// thread's GL traffic does not wake), and wakes for input, for a stop (a
// signal or the context's end wake it), or for the next moment it has
// something to do itself: the end of -seconds, autoplay's next key, the
// bench's next synthetic push, a gamepad's poll. With none due it still
// wakes every inputWaitMax, for what nothing wakes it for: a replay's end,
// the display's loss, the window manager's close.
const (
	inputWaitMax = 100 * time.Millisecond
	// padPoll is how often it polls a connected gamepad, for which GLFW
	// does not wake it: a pad's stamps are up to this late.
	padPoll = 4 * time.Millisecond
)

func newThreaded(s *session) *threaded { return &threaded{s: s} }

func (d *threaded) pace(c *pacing.Config)     { paceFree(c) }
func (d *threaded) start(ctx context.Context) { d.s.runner.Start(ctx) }

// run waits for input on the main thread while the render thread draws,
// until a stop; it returns with the context current on the main thread
// again (unless the display went away).
func (d *threaded) run(stop func() string, sig *Signals) {
	s := d.s
	d.publishWindow()
	s.win.Release()
	sig.setWake(s.win.Wake)
	defer sig.setWake(nil)
	if s.opts.Ctx != nil {
		defer context.AfterFunc(s.opts.Ctx, s.win.Wake)()
	}
	done := make(chan struct{})
	go d.render(done)
	for s.stoppedBy = stop(); s.stoppedBy == ""; s.stoppedBy = stop() {
		s.win.WaitEvents(d.inputWait(snapshot.Now())) // onEvent stamps and pushes each event
		d.publishWindow()
		s.inputPush(snapshot.Now())
	}
	d.stopping.Store(true)
	if s.stoppedBy != StopDisplayLost {
		<-done
		if !window.DisplayLost() {
			s.win.MakeCurrent()
		}
		return
	}
	// A context made current on a dead display waits forever; so can a
	// swap that was under way when it died: another thread's read found
	// the connection broken, and Xlib (libX11 1.8) wakes no one waiting
	// for it. Such a render thread is left where it is; the process
	// exits after the summary, which it would not write until its frame
	// ended.
	select {
	case <-done:
	case <-time.After(lostRenderGrace):
		fmt.Fprintf(os.Stderr, "tandem: the render thread is stuck in a call on the lost display (none returned in %v): the summary ends without its frame\n", lostRenderGrace)
	}
}

// lostRenderGrace bounds the wait for the render thread once the display
// is gone: a frame's own work ends in well under it, even under the
// bench's heaviest load.
const lostRenderGrace = 2 * time.Second

// inputWait is how long the main thread may sleep at now waiting for
// events: until the next moment it has something to do itself.
func (d *threaded) inputWait(now int64) time.Duration {
	s := d.s
	w := min(int64(inputWaitMax), s.nextInput(now)-now)
	if s.opts.Seconds > 0 {
		w = min(w, s.meter.from+int64(s.opts.Seconds)-now)
	}
	if s.win.Gamepads() {
		w = min(w, int64(padPoll))
	}
	return time.Duration(max(w, 0))
}

// render is the render thread: the frames until stopping, on an OS
// thread of its own with the GL context.
func (d *threaded) render(done chan<- struct{}) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer close(done)
	d.s.win.MakeCurrent()
	defer d.s.win.Release()
	pprof.SetGoroutineLabels(d.s.labels.render)
	for !d.stopping.Load() {
		d.s.frame()
	}
}

// publishWindow hands the render thread the window's state as the main
// thread sees it.
func (d *threaded) publishWindow() {
	w, h := d.s.win.FramebufferSize()
	d.fb.Store(uint64(w)<<32 | uint64(uint32(h)))
	d.minimised.Store(d.s.win.Minimized())
}

// prepare does nothing on the render thread: the main thread polls.
func (d *threaded) prepare() (int64, bool) { return 0, false }

func (d *threaded) handOver() {}

func (d *threaded) surface() (w, h int, minimised bool) {
	v := d.fb.Load()
	return int(v >> 32), int(uint32(v)), d.minimised.Load()
}

// idle sleeps: only the main thread may wait for the window's events.
func (d *threaded) idle() { time.Sleep(10 * time.Millisecond) }

func (d *threaded) waitSim(grace time.Duration) (bool, error) {
	return waitSimThread(d.s.runner, grace)
}
