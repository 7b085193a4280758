//go:build cgo

package app

import (
	"sync/atomic"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

// An addon attaches to a run through hooks, so that the loop need not
// know it: the figures (meter), the sound, autoplay, the bench's load
// and key presses (benchLoad), the HUD, the probe, the screenshots, the
// tests' watch. A run attaches only the add-ons its options ask for, each
// made from the values it needs, in the order session.attach gives. Each hook runs on the thread it names and must not
// allocate in steady state.
type addon interface {
	// tick runs on the sim thread after each tick, which began at start.
	tick(in simthread.TickInput, start int64)
	// publish runs on the sim thread on each snapshot as it is
	// published (its tick and time set), before the frames can take it.
	publish(dst *snapshot.Snapshot)
	// input runs on the input thread after each poll's events, at now;
	// it returns the next moment it wants to run (math.MaxInt64: none),
	// for a thread that sleeps until input comes.
	input(now int64) (next int64)
	// frameStart runs on the render thread once a frame has taken its
	// snapshots, before it draws.
	frameStart(now int64)
	// rewind runs on the render thread before a frame blends the
	// snapshots h (the ring's newest, oldest first) at showAt with the
	// interpolation's delay: it returns the snapshots to blend, and may
	// set the delay (-av-lock's delay line shows the world further back
	// than the ring holds); the others return h.
	rewind(h [snapshot.History]*snapshot.Snapshot, showAt int64, delay *int64) [snapshot.History]*snapshot.Snapshot
	// overlay runs on the render thread once a frame has drawn the world
	// (e says what it drew), before the swap: what goes over the world,
	// in the add-ons' order (the HUD, then the bench's probe over it,
	// then the screenshots, which read back what they drew).
	overlay(e frameEnd, fw, fh int, now int64)
	// frameEnd runs on the render thread after each frame.
	frameEnd(e frameEnd)
	// stop runs on the main thread when the frames have stopped, at end,
	// before the sim thread is stopped.
	stop(end int64)
	// summary adds the add-on's figures to the run's summary, over the
	// records run, after the sim has stopped.
	summary(sum *Summary, run *bench.Records)
}

// noHooks is an addon that does nothing, to embed: an add-on defines the
// hooks it needs.
type noHooks struct{}

func (noHooks) tick(simthread.TickInput, int64)   {}
func (noHooks) publish(*snapshot.Snapshot)        {}
func (noHooks) input(int64) int64                 { return noInput }
func (noHooks) frameStart(int64)                  {}
func (noHooks) overlay(frameEnd, int, int, int64) {}
func (noHooks) frameEnd(frameEnd)                 {}
func (noHooks) stop(int64)                        {}
func (noHooks) summary(*Summary, *bench.Records)  {}

func (noHooks) rewind(h [snapshot.History]*snapshot.Snapshot, _ int64, _ *int64) [snapshot.History]*snapshot.Snapshot {
	return h
}

// frameEnd is what a frame's end tells the add-ons.
type frameEnd struct {
	at      int64             // the present, or when a frame that swapped nothing ended
	swapped bool              // the frame was swapped (false: minimised)
	drew    bool              // it showed the world (a snapshot was there)
	age     int64             // the newest snapshot's age when the frame took it
	held    bool              // the bench's button is down in the state blended toward
	rec     bench.FrameRecord // the frame's record, when it drew
	// probeWrap says the two snapshots blended lie on either side of the
	// probe's wrap at the framebuffer's edge.
	probeWrap bool
	// probeDrawn: the probe was drawn with the sprites (session.fuseProbe).
	probeDrawn bool
	exit       bool // the frame drawn after the run for the screenshot at exit
}

// noInput is an add-on's next input moment when it has none.
const noInput = int64(1<<63 - 1)

// hookedSim is the game as the runner steps it: each tick followed by the
// add-ons' tick hooks (their publish hooks hang on the runner's
// Config.Published).
type hookedSim struct {
	simthread.Sim
	addons []addon
	busy   atomic.Bool // inside a tick (the game's and the hooks'): for a watchdog on another thread
}

func (h *hookedSim) Step(in simthread.TickInput) {
	start := snapshot.Now()
	h.busy.Store(true)
	h.Sim.Step(in)
	for _, ad := range h.addons {
		ad.tick(in, start)
	}
	h.busy.Store(false)
}

// Hooks let tests watch the threads: OnTick runs on the sim thread after
// every tick, OnFrame on the render thread after every frame's GL calls.
type Hooks struct {
	OnTick  func()
	OnFrame func()
}

// testHooks attaches the tests' Hooks.
type testHooks struct {
	noHooks
	h *Hooks
}

func (t *testHooks) tick(simthread.TickInput, int64) {
	if t.h.OnTick != nil {
		t.h.OnTick()
	}
}

func (t *testHooks) frameEnd(frameEnd) {
	if t.h.OnFrame != nil {
		t.h.OnFrame()
	}
}
