//go:build cgo

package app

import (
	"context"
	"time"
)

// A driver is one loop architecture: how the sim and the frames share
// threads. It is chosen once, in newDriver, and owns what only its loop
// needs; the shared frame (frame.go) asks it, without knowing which loop
// it is, for the few things that differ.
type driver interface {
	// start starts the sim's thread, when the loop has one.
	start(ctx context.Context)
	// run draws frames until stop returns a reason, which it stores in
	// the session's stoppedBy. Main thread; it returns with the GL
	// context current on it (unless the display went away).
	run(stop func() string, sig *Signals)
	// prepare is a frame's first step on the render thread, before it
	// takes its snapshots: the input poll where the frame thread polls,
	// and the sim's ticks where the frame runs or meets them. It returns
	// the moment the frame must show, fixed, or fixed false to let the
	// pacing choose.
	prepare() (showAt int64, fixed bool)
	// handOver tells the sim, once the frame has taken its snapshots,
	// that it may go on (the pipelined loop's hand-off).
	handOver()
	// surface is the framebuffer's size and whether the window is
	// minimised, as the frame's thread may read them.
	surface() (w, h int, minimised bool)
	// idle sleeps a frame that has nothing to draw into.
	idle()
	// aims reports whether frames choose their moment from the sim's own
	// schedule: the loops whose sim runs free on its thread.
	aims() bool
	// simThread reports whether the sim has a thread of its own.
	simThread() bool
}

// newDriver returns the driver of the loop s.opts names: the one place
// that asks which loop a run is in.
func newDriver(s *session) driver {
	switch s.opts.Loop {
	case Coupled:
		return &coupled{onMain{s}}
	case Pipelined:
		return &pipelined{onMain: onMain{s}}
	case Threaded:
		return newThreaded(s)
	}
	return &decoupled{onMain{s}}
}

// onMain is what the loops whose main thread draws share: they embed it.
// Frames one after another on the main thread until a stop; the window's
// size and state read where GLFW lives; a minimised window waited on
// there, cheaply; no hand-off.
type onMain struct{ s *session }

func (d onMain) run(stop func() string, _ *Signals) {
	for d.s.stoppedBy = stop(); d.s.stoppedBy == ""; d.s.stoppedBy = stop() {
		d.s.frame()
	}
}

func (d onMain) surface() (w, h int, minimised bool) {
	w, h = d.s.win.FramebufferSize()
	return w, h, d.s.win.Minimized()
}

func (d onMain) idle()     { d.s.win.WaitEvents(100 * time.Millisecond) }
func (d onMain) handOver() {}
