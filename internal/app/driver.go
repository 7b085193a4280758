//go:build cgo

package app

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/tandem-engine/tandem/internal/pacing"
	"github.com/tandem-engine/tandem/simthread"
)

// A driver is one loop kind: how the sim and the frames share threads.
// It is chosen once, in newDriver, and owns what only its loop needs;
// each kind is read in its own file, which names the simthread.Runner
// mode its sim runs in (and that mode names the file back):
//
//	coupled.go    Runner.RunDue, on the main thread, in each frame
//	pipelined.go  Runner.StartPipelined, Meet and Hand
//	decoupled.go  Runner.Start, frames on the main thread
//	threaded.go   Runner.Start, frames on a render thread of their own
//
// The session never asks which kind it runs: the shared frame (frame.go)
// calls prepare, handOver, surface and idle, the start calls pace, start
// and run, the end waitSim, and each driver answers for its own loop.
type driver interface {
	// pace sets the loop's part of its frames' pacing in c: whether a
	// frame may aim at the sim's own schedule (c.Aim, which the session
	// sets from the options) and whether -fps-cap paces the presents
	// (c.CapPaced). Only a sim that runs free on its thread has a
	// schedule of its own to aim at.
	pace(c *pacing.Config)
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
	// waitSim waits, once the sim's context is cancelled, at most grace
	// for the sim to be out of its ticks, and reports whether it is
	// stuck inside one (said on stderr), or the error its thread
	// stopped with. From any thread but the sim's.
	waitSim(grace time.Duration) (stuck bool, err error)
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

// paceFree is the pacing of the loops whose sim runs free on its thread
// (decoupled, threaded): a frame may aim at the sim's schedule, and a cap
// without vsync paces the presents. Options.Validate allows
// -present-hold in these loops only, before a driver is built.
func paceFree(c *pacing.Config) {
	c.CapPaced = pacing.CapPaced(c.FPSCap, c.VSync, c.EmulateHz, true)
}

// paceLockstep is the pacing of the loops whose frames run or meet the
// ticks (coupled, pipelined): the frame shows what its ticks reached, and
// a cap sleeps before each frame, as the loops the bench compares
// against.
func paceLockstep(c *pacing.Config) { c.Aim, c.CapPaced = false, false }

// waitSimThread waits at most grace for r's sim thread to stop: the
// waitSim of the loops whose sim has a thread of its own.
func waitSimThread(r *simthread.Runner, grace time.Duration) (stuck bool, err error) {
	select {
	case <-r.Done():
		return false, r.Wait()
	case <-time.After(grace):
		fmt.Fprintf(os.Stderr, "tandem: the sim is stuck inside tick %d (it has not ended in %v): the summary and the recording end without it\n",
			r.Stats().Ticks, grace)
		return true, nil
	}
}
