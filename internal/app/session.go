//go:build cgo

package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/internal/pacing"
	"github.com/tandem-engine/tandem/physics"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
	"github.com/tandem-engine/tandem/window"
)

// session is one run of a game: what every loop shares. Its loop is a
// [driver], chosen once in newDriver, which the session never asks its
// kind; what a run's options add to it (the figures, the sound, -av-lock's
// delay line, autoplay, the bench, the HUD, the probe, the screenshots)
// attaches as [addon]s, each made from the values it needs, in attach's
// order.
type session struct {
	opts   Options
	win    *window.Window
	game   engine.Sim
	look   *engine.Look // what the game's Setup declared for drawing
	runner *simthread.Runner
	hooked *hookedSim // the game as the runner steps it
	loop   driver
	addons []addon
	meter  *meter
	draw   *renderer
	snd    *sound
	pace   *pacing.Pacer
	resch  rescheduler // lets the scheduler in between frames
	interp snapshot.Interpolator
	in     inputState
	rec    recording
	shot   *shots // the screenshots' add-on: the one at exit is written with the summary
	hud    *hudOverlay
	info   hudInfo // what the last frame showed, which the HUD adds its figures to
	// probe: the bench's probe is drawn over the frame (probeOverlay),
	// in the sprites' draw call when it can be (fuseProbe).
	probe bool
	// The camera of the last frame drawn (clamped and zoomed) on its
	// framebuffer: how a pointer position maps to the world. Written by
	// the frame, read by the input thread, under shownMu.
	shownMu sync.Mutex
	shown   shownView
	// labels are the profiler's labels of the two roles, made once.
	labels    roleLabels
	stoppedBy string // why the frames ended: StopSeconds, ...
	// simStuck: the sim's thread did not stop within simStopGrace of
	// being asked, inside a tick that never ends.
	simStuck atomic.Bool
}

// simStopGrace bounds the wait for the sim's thread once the frames have
// stopped: a tick that never ends (a game's Tick that hangs, a -hitch of
// a minute) must not keep the run from its summary.
const simStopGrace = 2 * time.Second

// ErrSimStuck is a run's error when its sim was stuck inside a tick at
// the end: the summary and the recording were written up to that tick.
var ErrSimStuck = errors.New("the sim was stuck inside a tick that never ended: the run stopped without it; its summary and recording were written up to that tick")

// shownView is the camera of the last frame drawn on its framebuffer.
type shownView struct {
	cam  snapshot.Camera
	w, h int
}

// roleLabels are the profiler's contexts for what the code is doing:
// the sim's ticks or the render's frames, whichever thread runs them.
type roleLabels struct{ sim, render context.Context }

func newRoleLabels() roleLabels {
	return roleLabels{
		sim:    pprof.WithLabels(context.Background(), pprof.Labels("thread", "sim")),
		render: pprof.WithLabels(context.Background(), pprof.Labels("thread", "render")),
	}
}

// Run runs the game opts name until the window closes, Esc, a signal,
// opts.Seconds or opts.Ctx, and returns the summary. Main thread only.
func Run(opts Options) (*Summary, error) { return run(opts, nil) }

// RunHooked is Run with h's hooks (nil: none).
func RunHooked(opts Options, h *Hooks) (*Summary, error) { return run(opts, h) }

func run(opts Options, h *Hooks) (*Summary, error) {
	s := &session{opts: opts, labels: newRoleLabels()}
	s.interp = snapshot.Interpolator{MaxExtrapolate: opts.Pacing.Extrapolate, Delay: int64(opts.Pacing.Delay),
		Snap: opts.Pacing.Snap, CatchUp: opts.Pacing.CatchUp}
	s.loop = newDriver(s)
	// A bad level is reported before a window opens.
	level := opts.World.Level
	if level == nil {
		var err error
		if level, err = GameLevel(opts); err != nil {
			return nil, err
		}
	}
	if err := window.Init(); err != nil {
		return nil, err
	}
	defer window.Terminate()
	if err := s.open(level); err != nil {
		return nil, err
	}
	defer s.win.Destroy()
	defer s.draw.delete()
	defer s.snd.out.Close() // at once when the run fails before its summary closes it
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reserveThreads()
	if err := s.startSim(ctx, level, h); err != nil {
		return nil, err
	}
	pprof.SetGoroutineLabels(s.labels.render)
	defer pprof.SetGoroutineLabels(context.Background())
	return s.runFrames(ctx, cancel, h)
}

// open opens the window, loads GL into its context, sets the game up and
// builds the renderer.
func (s *session) open(level *physics.Level) error {
	o := s.opts
	var err error
	s.win, err = window.Open(window.Config{
		Title: cmp.Or(o.Window.Title, o.Scene), Width: o.Window.Width, Height: o.Window.Height,
		VSync: o.Window.VSync, Fullscreen: o.Window.Fullscreen,
	})
	if errors.Is(err, window.ErrNoContext) {
		return fmt.Errorf("%w; %s", err, gl.SoftwareHint)
	}
	if err != nil {
		return err
	}
	// The window made its context current; GL is loaded into it here.
	if err = gl.Init(); err == nil {
		err = s.newGame(level)
	}
	if err == nil {
		s.draw, err = newRenderer(s.look, s.game.Slots())
	}
	if err == nil {
		// The sound's offset is held for the run; with -av-lock it sets
		// the renderer's delay, which the pacing then keeps.
		s.snd = newSound(s.game.Sounds(), o.Audio, o.Measure.Bench && o.Measure.RealInput)
		s.opts.Pacing = s.snd.lock(s.opts.Pacing, s.opts.Audio.AVLock)
		s.interp.Delay = int64(s.opts.Pacing.Delay)
		pc := pacing.Config{Hz: o.World.Hz, VSync: o.Window.VSync, EmulateHz: o.Pacing.EmulateHz,
			FPSCap: o.Pacing.FPSCap, PresentHold: o.Pacing.PresentHold, Aim: s.opts.Pacing.DelayAuto, Finish: gl.Finish}
		s.loop.pace(&pc)
		s.pace = pacing.New(pc)
		s.setRefresh()
	}
	if err != nil {
		s.win.Destroy()
	}
	return err
}

// startSim makes the runner, the recording and the add-ons, and starts
// the sim's thread when the loop has one.
func (s *session) startSim(ctx context.Context, level *physics.Level, h *Hooks) error {
	o := s.opts
	start := snapshot.Now()
	s.meter = newMeter(o, start)
	if o.Measure.ProbeShape {
		fw, _ := s.win.FramebufferSize()
		s.meter.shape, s.meter.wrap = true, float64(fw)
	}
	cfg := s.rec.config(o)
	cfg.Log, cfg.Published = s.meter.log, s.published
	if err := s.rec.create(o, level, s.win, &cfg); err != nil {
		return err
	}
	var err error
	s.hooked = &hookedSim{Sim: s.game}
	if s.runner, err = simthread.New(s.hooked, cfg); err != nil {
		return err
	}
	s.attach(start, h)
	s.win.SetSink(s.onEvent)
	if s.rec.writer != nil {
		go s.rec.watch(ctx, o.Record)
	}
	s.loop.start(ctx)
	if o.Load.GCLoad > 0 {
		go gcLoad(ctx, o.Load.GCLoad)
	}
	return nil
}

// attach attaches the add-ons a run's options ask for, from start, each
// given the values it needs; their hooks run in this order. The meter
// first: its publish sets the probe and the bench's button, which the
// sound's reads for the bench's click; the overlays in the order they
// draw (the HUD, the probe over it, -probe-check's read of the probe, the
// screenshots). Before the sim starts.
func (s *session) attach(start int64, h *Hooks) {
	o, r := s.opts, s.runner
	s.addons = append(s.addons, s.meter, s.snd)
	if s.snd.avLock {
		s.addons = append(s.addons, newDelayLine(o.Pacing.Delay, o.World.Hz, s.pace.Lead))
	}
	if o.Autoplay {
		ticks := func() uint64 { return r.Stats().Ticks }
		s.addons = append(s.addons, newAutoplay(r.Push, s.look.Autoplay, ticks, o.World.Hz, start))
	}
	if needsBenchLoad(o) {
		s.addons = append(s.addons, newBenchLoad(o, start, r.Push, &s.in.keys))
	}
	s.hud = newHUDOverlay(o, &s.info, s.meter, r.Stats, s.pace, s.win.VSync, s.rec.failure,
		s.draw.hud, s.draw.quads, &s.in.keys)
	s.addons = append(s.addons, s.hud)
	if o.Measure.Probe && !o.Measure.ProbeShape { // the shape probe is in the snapshot's drawing
		s.probe = true
		s.addons = append(s.addons, probeOverlay{draw: s.draw})
	}
	if o.Measure.ProbeCheck {
		s.addons = append(s.addons, newProbeCheck(o, start))
	}
	s.shot = newShots(o.Output.ShotDir, &s.in.keys)
	s.addons = append(s.addons, s.shot)
	if h != nil {
		s.addons = append(s.addons, &testHooks{h: h})
	}
	s.hooked.addons = s.addons
}

// published runs the add-ons' publish hooks on each snapshot the sim
// thread publishes, its tick and time set, before the frames can take it.
func (s *session) published(dst *snapshot.Snapshot) {
	for _, ad := range s.addons {
		ad.publish(dst)
	}
}

// runFrames runs the loop's frames until a stop, stops the sim and
// writes what the run ends with: the recording's end, the summary, the
// screenshot.
func (s *session) runFrames(ctx context.Context, cancel context.CancelFunc, h *Hooks) (*Summary, error) {
	o := s.opts
	deadline := int64(-1)
	if o.Seconds > 0 {
		deadline = s.meter.from + int64(o.Seconds)
	}
	// Ctrl-C and SIGTERM quit like closing the window: the loop ends, the
	// sim stops, the summary and screenshot are written.
	sig := o.Signals
	if sig == nil {
		sig = WatchSignals(StopGrace, os.Stderr)
		defer sig.Close()
	}
	// If a frame (or in the coupled and pipelined loops a tick, which a
	// frame runs or waits for) outlasts a stop's grace, the watchdog
	// stops the sim and writes what it can. A stop is a signal, or
	// -seconds with the frames not back a second after it.
	sig.setLast(func() { s.lastWords(cancel, sig) })
	defer sig.setLast(nil)
	ending := time.AfterFunc(time.Duration(1<<63-1), sig.Ending)
	if deadline >= 0 {
		ending.Reset(time.Duration(deadline-snapshot.Now()) + time.Second)
	}
	s.loop.run(func() string { return s.stopReason(sig, deadline) }, sig)
	ending.Stop()
	end := snapshot.Now()
	for _, ad := range s.addons {
		ad.stop(end)
	}
	// The sim thread stops first: after it the world is ours again and
	// its hash is safe to read.
	if err := s.stopSim(cancel, simStopGrace); err != nil {
		return nil, err
	}
	s.rec.end(s.simStuck.Load(), s.runner.Stats().Ticks, s.game.Hash, s.stoppedBy)
	if s.simStuck.Load() {
		sum, _ := s.finish(end, sig)
		return sum, ErrSimStuck
	}
	return s.finish(end, sig)
}

// stopSim stops the sim and waits for it at most grace, as its loop
// waits (waitSim); a sim stuck inside a tick is marked so.
func (s *session) stopSim(cancel func(), grace time.Duration) error {
	cancel()
	stuck, err := s.loop.waitSim(grace)
	if stuck {
		s.simStuck.Store(true)
	}
	return err
}

// lastSimGrace bounds the wait for the sim's thread in a stop's last
// words: the run has already waited a stop's grace, and a sim that is not
// stuck ends within a tick of being told.
const lastSimGrace = 500 * time.Millisecond

// ErrFrameStuck is the summary's error when a frame, or a tick a frame
// waits for, outlasted a stop's grace and the watchdog wrote what it had.
var ErrFrameStuck = errors.New("a frame (or a tick a frame waits for) outlasted the stop's grace: the summary and the recording end where the run was")

// finish builds the summary of a run that ended at end, and writes the
// screenshot.
func (s *session) finish(end int64, sig *Signals) (*Summary, error) {
	o := s.opts
	sum := s.summary(end)
	if o.Measure.HostFloor && s.stoppedBy != StopSignal {
		// The sim has stopped and nothing of ours draws: the machine's
		// own unevenness, at the run's length of frame work. A Ctrl-C
		// ends it and keeps the rest of the summary.
		sum.measureFloor(sig.caught.Load)
	}
	if s.rec.verifier != nil {
		sum.Replay = s.rec.report(o.Replay, s.runner.Stats().Ticks, s.game.Hash(), s.stoppedBy)
	}
	if s.stoppedBy == StopDisplayLost {
		// Nothing can be drawn or read back: what the run has is written.
		return sum, ErrDisplayLost
	}
	if o.Output.Screenshot != "" {
		// One more frame of the last snapshots, read back before it is
		// swapped: the picture the run ended on, with no readback (and its
		// allocations) inside the measured frames.
		s.captureFrame()
		if s.shot.last == nil {
			return sum, fmt.Errorf("screenshot %s: no frame was drawn (was the window minimised the whole run?)", o.Output.Screenshot)
		}
		if err := writeImage(o.Output.Screenshot, s.shot.last); err != nil {
			return sum, err
		}
		sum.shot = s.shot.frame
	}
	// The peak of the whole run, the screenshot's read-back included.
	sum.MaxRSSMB = maxRSSMB()
	if s.shot.err != nil {
		return sum, s.shot.err
	}
	return sum, s.rec.err
}

// summary is the run's summary at end, each add-on's part included.
func (s *session) summary(end int64) *Summary {
	run := s.meter.records(end)
	sum := s.meter.summarize(s.opts, s.runEnd(), run)
	for _, ad := range s.addons {
		ad.summary(sum, run)
	}
	if s.rec.err != nil {
		sum.RecordError = s.rec.err.Error()
	}
	return sum
}

// runEnd is the session's account of the run at its end.
func (s *session) runEnd() runEnd {
	e := runEnd{stoppedBy: s.stoppedBy, sim: s.runner.Stats(), slots: s.info.sprites, eased: s.interp.Eased}
	if !s.simStuck.Load() {
		e.game = s.game
	}
	return e
}

// stopReason says why the run must stop now, or "" to go on.
func (s *session) stopReason(sig *Signals, deadline int64) string {
	switch {
	case window.DisplayLost():
		return StopDisplayLost
	case sig.caught.Load():
		return StopSignal
	case s.in.keyQuit.Load():
		return StopKey
	case s.win.ShouldClose():
		return StopWindow
	case deadline >= 0 && snapshot.Now() >= deadline:
		return StopSeconds
	case s.rec.verifier != nil && s.runner.Stats().Ended:
		return StopEnd
	case s.opts.Ctx != nil && s.opts.Ctx.Err() != nil:
		return StopContext
	}
	return ""
}

// setRefresh tells the pacing the display's refresh rate (F11 may move
// the window to another monitor). The input thread's.
func (s *session) setRefresh() {
	hz := 0
	if s.opts.Window.VSync {
		hz = s.win.RefreshRate()
	}
	s.pace.SetRefresh(hz)
}

func (s *session) newGame(level *physics.Level) error {
	fw, fh := s.win.FramebufferSize()
	g, err := s.opts.Game.NewSim(SimConfig(s.opts, level, fw, fh))
	if err != nil {
		return err
	}
	s.game, s.look = g, g.Look()
	s.in.keys = newBindings(s.look.Bindings)
	return nil
}

// lastWords is a stop's last words when the main or render thread is
// stuck past the grace, in a frame (one of a million 512 px sprites takes
// minutes under llvmpipe) or in a tick the frame runs or waits for: on
// the watchdog's goroutine it stops the sim thread, ends the recording
// and hands the summary to opts.Last. It reads the stuck thread's records
// without a lock: that thread writes none of them until its frame ends,
// and the process exits right after. A sim it cannot stop, or one the
// stuck main thread runs (coupled), is not read: the summary says so.
func (s *session) lastWords(stopSim func(), sig *Signals) {
	end := snapshot.Now()
	s.stoppedBy = StopSeconds
	if sig.caught.Load() {
		s.stoppedBy = StopSignal
	}
	if err := s.stopSim(stopSim, lastSimGrace); err != nil {
		fmt.Fprintf(os.Stderr, "tandem: %v\n", err)
	}
	s.rec.end(s.simStuck.Load(), s.runner.Stats().Ticks, s.game.Hash, s.stoppedBy)
	if s.opts.Last == nil {
		return
	}
	sum := s.summary(end)
	sum.MaxRSSMB = maxRSSMB()
	sum.Error = ErrFrameStuck.Error()
	if s.simStuck.Load() {
		sum.Error = ErrSimStuck.Error()
	}
	s.opts.Last(sum)
}
