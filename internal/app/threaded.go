//go:build cgo

package app

import (
	"context"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/tandem-engine/tandem/snapshot"
	"github.com/tandem-engine/tandem/window"
)

// The threaded loop: the frames of the decoupled loop, drawn on a render
// thread of its own, so that the main thread does nothing but wait for
// the window's events and stamp them as they arrive. In the other loops
// the main thread draws, and a key pressed during a frame waits for the
// frame to end before anything reads it: at 25 ms a frame that wait is
// half a frame on average.
//
// The main thread keeps everything GLFW wants there: the events, the
// window's size, fullscreen, closing. The render thread owns the GL
// context and reads the window's state as data (framebufferSize,
// minimized, refresh); what crosses between the two is atomic, or the
// last frame's camera under a mutex, once per event or frame.

// The threaded loop's main thread sleeps in the window's wait for input
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

// threaded runs the threaded loop until a stop, and returns with the
// context current on the main thread again (unless the display went
// away) and a.stoppedBy set.
func (a *app) threaded(sig *Signals, deadline int64, h *Hooks) {
	a.publishWindow()
	a.win.Release()
	sig.setWake(a.win.Wake)
	defer sig.setWake(nil)
	if a.opts.Ctx != nil {
		defer context.AfterFunc(a.opts.Ctx, a.win.Wake)()
	}
	done := make(chan struct{})
	go a.render(h, done)
	for a.stoppedBy = a.stopReason(sig, deadline); a.stoppedBy == ""; a.stoppedBy = a.stopReason(sig, deadline) {
		a.win.WaitEvents(a.inputWait(snapshot.Now(), deadline)) // onEvent stamps and pushes each event
		a.publishWindow()
		a.inputPush(snapshot.Now())
	}
	a.stopping.Store(true)
	<-done
	if !window.DisplayLost() { // a context made current on a dead display waits forever
		a.win.MakeCurrent()
	}
}

// inputWait is how long the main thread may sleep at now waiting for
// events: until the next moment it has something to do itself.
func (a *app) inputWait(now, deadline int64) time.Duration {
	d := int64(inputWaitMax)
	if deadline >= 0 {
		d = min(d, deadline-now)
	}
	switch {
	case a.opts.Autoplay:
		d = min(d, a.autoplayNext(now)-now)
	case a.opts.Measure.Bench && a.real == nil:
		d = min(d, a.injectAt-now)
	}
	if a.win.Gamepads() {
		d = min(d, int64(padPoll))
	}
	return time.Duration(max(d, 0))
}

// render is the threaded loop's render thread: the decoupled loop's frames
// until stopping, on an OS thread of its own with the GL context.
func (a *app) render(h *Hooks, done chan<- struct{}) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer close(done)
	a.win.MakeCurrent()
	defer a.win.Release()
	pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), pprof.Labels("thread", "render")))
	for !a.stopping.Load() {
		a.readHostFrom() // the host's reader is the render thread's, as the HUD reads it
		a.frame(false)
		if h != nil && h.OnFrame != nil {
			h.OnFrame()
		}
	}
}

// publishWindow hands the render thread the window's state as the main
// thread sees it.
func (a *app) publishWindow() {
	w, h := a.win.FramebufferSize()
	a.fb.Store(uint64(w)<<32 | uint64(uint32(h)))
	a.minimised.Store(a.win.Minimized())
}

// framebufferSize is the framebuffer's size, in pixels, for the frame.
func (a *app) framebufferSize() (w, h int) {
	if a.opts.Loop != Threaded {
		return a.win.FramebufferSize()
	}
	v := a.fb.Load()
	return int(v >> 32), int(uint32(v))
}

// minimized reports whether the window is minimised, for the frame.
func (a *app) minimized() bool {
	if a.opts.Loop != Threaded {
		return a.win.Minimized()
	}
	return a.minimised.Load()
}

// input polls the window's events (onEvent stamps and pushes each) and
// pushes what the loop makes itself: the pointer's last move, autoplay's
// keys or the bench's button. The input thread only: the frame's in the
// other loops, the main thread's in the threaded one.
func (a *app) input() {
	a.win.Poll()
	a.inputPush(snapshot.Now())
}

// inputPush pushes what the loop makes itself, after the events: see
// input.
func (a *app) inputPush(now int64) {
	a.pushPointer()
	if a.opts.Autoplay {
		a.autoplay(now)
	} else if a.opts.Measure.Bench {
		a.inject(now)
	}
}

// readHostFrom reads the host's CPU accounting when the measured window
// begins.
func (a *app) readHostFrom() {
	if a.host != nil && a.hostFrom.Total == 0 && snapshot.Now() >= a.from {
		a.hostFrom, _ = a.host.Read()
	}
}
