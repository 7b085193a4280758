//go:build cgo

package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"runtime/pprof"
	"runtime/trace"
	"time"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/internal/hoststat"
	"github.com/tandem-engine/tandem/physics"
	"github.com/tandem-engine/tandem/replay"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
	"github.com/tandem-engine/tandem/window"
)

// app is the desktop app: the window and the renderer on the main thread,
// the runner and its sim on theirs.
type app struct {
	opts   Options
	win    *window.Window
	game   engine.Sim
	look   *engine.Look // what the game's Setup declared for drawing
	runner *simthread.Runner
	art    *art
	keys   bindings

	atlas *gl.Texture
	batch *gl.SpriteBatch
	tiles *gl.TileLayer
	quads *gl.QuadBatch
	hud   *hud

	interp snapshot.Interpolator
	stats  *frameStats
	info   hudInfo
	hudOn  bool

	// The bench: the wrapped sim with its knobs, the render thread's
	// stalls, and the records the figures are computed from.
	load        *loadSim
	renderStall stalls
	frames      *bench.Frames
	log         *simthread.Log
	from        int64 // the measured window starts here, after the warm-up
	// The host's CPU accounting at the window's start and end: how much
	// of the window the hypervisor stole (nil off Linux).
	host             *hoststat.Reader
	hostFrom, hostTo hoststat.Times
	// The HUD's steal: the reading of half a second ago, and when.
	hostHUD   hoststat.Times
	hostHUDAt int64
	showAt    int64 // the pipelined loop's last frame time: what it shows
	probeQuad [1]gl.Quad
	lastFrame bench.FrameRecord // the newest frame drawn, capture included

	// Frame pacing (-interp-delay auto, -fps-cap, -present-hold).
	jitter     snapshot.JitterBuffer
	predict    snapshot.PresentPredictor
	hold       snapshot.PresentHold
	holding    bool                  // a.hold paces the swaps: -present-hold, or -fps-cap without vsync (capPaced)
	observed   uint64                // the newest snapshot tick the jitter buffer has seen
	lastAim    int64                 // when aim last ran
	up         [2]*snapshot.Snapshot // the pair in the sprite batch
	upAt       [2]int64              // and when each was published
	capGrid    capGrid               // -fps-cap's deadlines
	blank0     int64                 // a blank of the -emulate-vsync grid
	aimed      int64                 // the present this frame's moment was aimed at (0: none)
	injectAt   int64                 // when the bench pushes its next input event
	injectDown bool

	autoRight, autoJump bool // what -autoplay holds down

	pointer      window.Input // the cursor's last move in this poll
	pointerMoved bool
	// The camera of the last frame drawn (clamped and zoomed) on its
	// framebuffer: how a pointer position maps to the world.
	shown          snapshot.Camera
	shownW, shownH int

	// Record and replay: the recording being written (-record), and the
	// replay's checker.
	recorder *replay.Writer
	verifier *replay.Verifier
	recErr   error // closing the recording failed: reported at exit

	keyQuit     bool   // Esc was pressed
	stoppedBy   string // why the frame loop ended: StopSeconds, ...
	shotPending bool   // F12 was pressed: save this frame
	shotErr     error  // the last F12 screenshot's failure, reported at exit
	last        *image.RGBA
}

// Run runs the game opts name until the window closes, Esc, a signal,
// opts.Seconds or opts.Ctx, and returns the summary. Main thread only.
func Run(opts Options) (*Summary, error) { return run(opts, nil) }

// run is Run with the tests' hooks.
func run(opts Options, h *Hooks) (*Summary, error) {
	gl.TuneAllocator()
	a := &app{opts: opts, hudOn: opts.Window.HUD}
	a.interp.MaxExtrapolate = opts.Pacing.Extrapolate
	a.interp.Delay = int64(opts.Pacing.InterpDelayMs * 1e6)
	a.interp.Snap = !opts.Pacing.Interp
	a.interp.CatchUp = opts.Pacing.CatchUp
	// The delay covers jitter of up to half a tick above the floor of the
	// lateness: a tick that takes most of its budget (-simcost 14ms at
	// 60 Hz) is late by nearly that every time, which is the floor. With
	// half a tick against a whole one, two interleaved runs each: 0-1
	// frames overdue at -simcost 14ms either way, and under -hitch
	// sim:1s:40ms a median delay of 7.3-8.2 ms against 10.2-14.6 and
	// latency 36.3-36.7 ms against 37.7-41.4. No margin over the 99th
	// percentile of the last 128: with 0.5 ms the delay settled at
	// 2.4-2.9 ms and the latency above the fixed 2 ms's; with none,
	// 1.0-1.6 ms, no frame overdue, and the latency below it (three
	// interleaved runs each, 5000 bunnies).
	a.jitter = snapshot.JitterBuffer{Max: 1e9 / int64(opts.World.Hz) / 2}
	a.predict.VSync = opts.Window.VSync || opts.Pacing.EmulateHz > 0
	// The lead moves at most 0.25 ms a frame: every change of it is
	// animation error in that frame. A late frame's lateness (up to 12 ms)
	// is let go, first 1.5 ms a frame: frames with more than 2 ms of
	// animation error fell from 22-33 to 6-17 per 10 s (four interleaved
	// runs each, 5000 bunnies), at the same frame rate and latency. With
	// that easing the lead need not cover nearly every frame: aiming at
	// the 75th percentile and letting go 1 ms a frame, against the 95th
	// and 1.5 ms, drew 41.9-49.5 FPS against 35.3-45.8 (6.4 FPS more in
	// the median of five interleaved pairs, 5000 bunnies) with the same
	// anim_err_ms_p99 (median 2.81 against 2.80), a lower p95 (1.16
	// against 1.62) and 4 ms less latency. Replayed offline on the
	// recorded work of three runs without the hold, going from the 50th
	// percentile to the 95th lowered the p99 by 0.35-0.55 ms on the
	// quieter two and the frame rate by 6-7%.
	a.hold = snapshot.PresentHold{Pct: 75, Margin: 500_000, Max: 50_000_000, Step: 250_000, Ease: 1_000_000, Absorb: 12_000_000}
	a.holding = opts.Pacing.PresentHold // parseFlags refuses it with vsync or another loop
	if capPaced(opts) {
		// Under -fps-cap the time a frame would sleep away before it
		// starts is a lead that costs nothing: the frame starts that much
		// before its deadline and holds its swap to it (see paceCap).
		// The budget leaves 1 ms of the period for the frame's start
		// before its decision (the input poll, a late wake-up: 0.1-0.9 ms
		// in a 30 FPS run of 5000 bunnies); the hold leaves the swap's
		// own time. A lead over that would stretch every period, and the
		// frame rate would fall below the cap.
		a.holding = true
		a.hold.Budget = int64(1e9)/int64(opts.Pacing.FPSCap) - 1_000_000
		if !opts.Pacing.PresentHold {
			a.hold.Pct = 0 // only the lead the cap gives
		}
	}
	// A bad level is reported before a window opens.
	level, err := opts.World.Level, error(nil)
	if level == nil {
		if level, err = GameLevel(opts); err != nil {
			return nil, err
		}
	}
	if err := window.Init(); err != nil {
		return nil, err
	}
	defer window.Terminate()
	a.win, err = window.Open(window.Config{
		Title: cmp.Or(opts.Window.Title, opts.Scene), Width: opts.Window.Width, Height: opts.Window.Height,
		VSync: opts.Window.VSync, Fullscreen: opts.Window.Fullscreen,
	})
	if errors.Is(err, window.ErrNoContext) {
		return nil, fmt.Errorf("%w; %s", err, gl.SoftwareHint)
	}
	if err != nil {
		return nil, err
	}
	defer a.win.Destroy()
	a.setRefresh()
	// The window made its context current; GL is loaded into it here.
	if err := gl.Init(); err != nil {
		return nil, err
	}
	if err := a.newGame(level); err != nil {
		return nil, err
	}
	if a.art, err = buildArt(a.look); err != nil {
		return nil, err
	}
	if err := a.newRenderer(); err != nil {
		return nil, err
	}
	defer a.deleteRenderer()

	a.load = &loadSim{Sim: a.game, hz: opts.World.Hz, cost: int64(opts.Load.SimCost)}
	if h != nil {
		a.load.after = h.OnTick
	}
	// The records hold a whole bench run; a long interactive run keeps
	// its newest minutes.
	a.frames = bench.NewFrames(1 << 17)
	a.log = simthread.NewLog(max(1<<16, int((opts.Measure.Warmup+opts.Seconds+2)*float64(opts.World.Hz))), 1<<14)
	cfg := simthread.Config{Hz: opts.World.Hz}
	if opts.Replay.Rec != nil {
		a.verifier = opts.Replay.Rec.NewVerifier()
		cfg = opts.Replay.Rec.Config(a.verifier)
	}
	if opts.Record != "" {
		fw, fh := a.win.FramebufferSize()
		if a.recorder, err = replay.Create(opts.Record, recordHeader(opts, level, max(fw, 64), max(fh, 64))); err != nil {
			return nil, err
		}
		cfg.Recorder, cfg.CheckpointEvery = a.recorder, opts.World.Hz
	}
	cfg.Log = a.log
	if a.runner, err = simthread.New(a.load, cfg); err != nil {
		return nil, err
	}
	a.win.SetSink(a.onEvent)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Profiles tell the render thread from the sim thread by this label.
	pprof.SetGoroutineLabels(pprof.WithLabels(ctx, pprof.Labels("thread", "render")))
	defer pprof.SetGoroutineLabels(context.Background())

	start := snapshot.Now()
	a.load.stall = newStalls(opts.Load.Hitches, "sim", start)
	a.renderStall = newStalls(opts.Load.Hitches, "render", start)
	a.from, a.injectAt = start+int64(opts.Measure.Warmup*1e9), start
	a.stats = newFrameStats(start, a.from)
	switch opts.Loop {
	case Decoupled:
		a.runner.Start(ctx)
	case Pipelined:
		a.runner.StartPipelined(ctx)
	}
	if opts.Load.GCLoad > 0 {
		go gcLoad(ctx, opts.Load.GCLoad)
	}
	var deadline int64 = -1
	if opts.Seconds > 0 {
		deadline = a.from + int64(opts.Seconds*1e9)
	}
	// Ctrl-C and SIGTERM quit like closing the window: the loop ends, the
	// sim stops, the summary and screenshot are written.
	sig := opts.Signals
	if sig == nil {
		sig = WatchSignals(StopGrace, os.Stderr)
		defer sig.Close()
	}
	if r, err := hoststat.Open(); err == nil {
		a.host = r
		defer r.Close()
	}
	for a.stoppedBy = a.stopReason(sig, deadline); a.stoppedBy == ""; a.stoppedBy = a.stopReason(sig, deadline) {
		if a.host != nil && a.hostFrom.Total == 0 && snapshot.Now() >= a.from {
			a.hostFrom, _ = a.host.Read()
		}
		a.frame(false)
		if h != nil && h.OnFrame != nil {
			h.OnFrame()
		}
	}
	end := snapshot.Now()
	if a.host != nil {
		a.hostTo, _ = a.host.Read()
	}
	// The sim thread stops first: after Wait the world is ours again and
	// its hash is safe to read.
	cancel()
	if opts.Loop != Coupled {
		if err := a.runner.Wait(); err != nil {
			return nil, err
		}
	}
	if a.recorder != nil {
		// The recording ends with the state the run ended on.
		st := a.runner.Stats()
		a.recErr = a.recorder.Close(replay.Checkpoint{Tick: st.Ticks, Hash: a.game.Hash()}, a.stoppedBy)
	}
	sum := a.summarize(a.records(end))
	if opts.Measure.HostFloor && a.stoppedBy != StopSignal {
		// The sim has stopped and nothing of ours draws: the machine's
		// own unevenness, at the run's length of frame work. A Ctrl-C
		// ends it and keeps the rest of the summary.
		sum.measureFloor(sig.caught.Load)
	}
	if a.verifier != nil {
		sum.Replay = a.replayReport()
	}
	if opts.Output.Screenshot != "" {
		// One more frame of the last snapshots, read back before it is
		// swapped: the picture the run ended on, with no readback (and its
		// allocations) inside the measured frames.
		a.frame(true)
		if a.last == nil {
			return sum, fmt.Errorf("screenshot %s: no frame was drawn (was the window minimised the whole run?)", opts.Output.Screenshot)
		}
		if err := writeImage(opts.Output.Screenshot, a.last); err != nil {
			return sum, err
		}
		sum.shot = a.lastFrame
	}
	if a.shotErr != nil {
		return sum, a.shotErr
	}
	return sum, a.recErr
}

func (a *app) newGame(level *physics.Level) error {
	fw, fh := a.win.FramebufferSize()
	g, err := a.opts.Game.NewSim(SimConfig(a.opts, level, fw, fh))
	if err != nil {
		return err
	}
	a.game, a.look = g, g.Look()
	a.keys = newBindings(a.look.Bindings)
	return nil
}

func (a *app) newRenderer() (err error) {
	defer func() {
		if err != nil {
			a.deleteRenderer()
		}
	}()
	if a.atlas, err = gl.NewTexture(a.art.atlas.Image, true); err != nil {
		return err
	}
	// Room for what Setup spawned and reserved, and some to grow into.
	n := a.game.Slots() + 256
	if a.batch, err = gl.NewSpriteBatch(n, a.atlas, a.art.frames); err != nil {
		return err
	}
	t := a.look.Tiles
	if a.tiles, err = gl.NewTileLayer(gl.TileGrid{W: t.W, H: t.H, Size: physics.TileSize, Frames: t.Frames}, a.atlas, a.art.frames); err != nil {
		return err
	}
	if a.quads, err = gl.NewQuadBatch(4096, a.atlas, a.art.frames); err != nil {
		return err
	}
	a.hud = newHUD(a.art)
	return nil
}

func (a *app) deleteRenderer() {
	if a.quads != nil {
		a.quads.Delete()
	}
	if a.tiles != nil {
		a.tiles.Delete()
	}
	if a.batch != nil {
		a.batch.Delete()
	}
	if a.atlas != nil {
		a.atlas.Delete()
	}
	a.quads, a.tiles, a.batch, a.atlas = nil, nil, nil, nil
}

// frame is one render-thread frame: input, (in the coupled loop) the sim,
// then the newest snapshot pair drawn interpolated. It is the unit a
// profiler label or trace region wraps. With capture, the frame is read
// back into a.last before the swap.
func (a *app) frame(capture bool) {
	if trace.IsEnabled() {
		defer trace.StartRegion(context.Background(), "frame").End()
	}
	a.aimed = 0
	var capDecide int64 // the frame's place on a cap's grid that paces presents
	if !capture && a.opts.Pacing.FPSCap > 0 {
		capDecide = a.paceCap()
	}
	start := snapshot.Now()
	if !capture {
		a.win.Poll()
		a.pushPointer()
		now := snapshot.Now()
		if a.opts.Autoplay {
			a.autoplay(now)
		} else if a.opts.Measure.Bench {
			a.inject(now)
		}
		switch a.opts.Loop {
		case Coupled:
			a.runner.RunDue(now)
		case Pipelined:
			// The sim finishes the ticks due by the last frame's time;
			// this frame shows that moment.
			a.showAt, _ = a.runner.Meet()
		}
	}
	if a.win.Minimized() {
		if !capture {
			a.handOver()
		}
		// Nothing to draw into: sleep until something happens, cheaply.
		a.win.WaitEvents(100 * time.Millisecond)
		return
	}
	fw, fh := a.win.FramebufferSize()
	gl.Viewport(fw, fh)
	bg := &a.look.Clear
	gl.Clear(bg[0], bg[1], bg[2], bg[3])
	prev, curr, fresh := a.runner.Ring().Acquire()
	now := snapshot.Now()
	if !capture {
		a.handOver()
		// The bench's render load runs inside the frame's trace region,
		// on the render thread.
		a.renderStall.maybe(now)
		if a.opts.Load.RenderCost > 0 {
			spinUntil(now + int64(a.opts.Load.RenderCost))
		}
	}
	// decide is the moment the frame's picture and its swap are timed
	// from: now, or under a cap that paces presents the frame's place on
	// the cap's grid, so that a frame that woke or polled late still
	// shows and presents on its deadline.
	decide := now
	if capDecide > 0 && capDecide < now {
		decide = capDecide
	}
	var rec bench.FrameRecord
	var text *snapshot.Text // the game's text of the snapshot drawn
	if curr != nil {
		showAt := decide
		if a.opts.Loop == Pipelined {
			showAt = a.showAt
		} else if a.opts.Pacing.DelayAuto && a.opts.Loop == Decoupled {
			// Only the decoupled loop's snapshots arrive on the sim's
			// schedule; the coupled and pipelined frames draw what they
			// ran (or had run) to, which needs no delay.
			showAt = a.aim(prev, curr, fresh, decide)
		}
		// The pair this frame blends: the newest two, or an older pair
		// when the delayed moment falls before curr is due, or when the
		// picture is catching up evenly after a stall.
		v, p, c := a.interp.Show(a.runner.Ring().History(), showAt)
		a.upload(p, c)
		text = &c.Text
		v.Age = now - curr.Published
		if v.Overdue && !capture {
			a.stats.overdue++
		}
		a.info.view, a.info.delay = v, a.interp.Delay
		a.info.sprites = curr.Sprites.Len()
		cam := a.camera(v.Camera, fw, fh)
		a.shown, a.shownW, a.shownH = cam, fw, fh
		vp := gl.CameraMatrix(cam, fw, fh)
		a.tiles.Draw(vp, viewRect(cam, fw, fh))
		a.batch.Draw(vp, v.Alpha)
		rec = bench.FrameRecord{Start: start, Decide: decide, SimShown: v.SimTime, Tick: c.Tick, Age: -1, Overdue: v.Overdue,
			Delay: a.interp.Delay, Alpha: v.Alpha}
		if fresh {
			rec.Age = v.Age
		}
		// The probe is interpolated like a sprite's x (its motion is
		// linear, so this is exact).
		rec.ProbeX = p.Probe + (c.Probe-p.Probe)*float64(v.Alpha)
	}
	a.lastFrame = rec
	if text != nil && len(text.Lines) > 0 {
		a.quads.Draw(a.hud.gameText(text), fw, fh)
	}
	if a.hudOn {
		a.drawHUD(fw, fh, now)
	}
	if a.opts.Measure.Probe && curr != nil {
		a.drawProbe(rec.ProbeX, fw, fh)
	}
	if a.shotPending || capture {
		a.capture(fw, fh)
	}
	if a.holding && curr != nil && !capture {
		// Present a fixed lead after the decision: finish the frame's
		// work, then wait out the rest of the lead before the swap.
		gl.Finish()
		done := snapshot.Now()
		a.hold.Observe(done - now)
		swapAt(a.hold.SwapAt(decide, done))
		rec.Hold = a.hold.Target()
	}
	var ready int64 // when the frame was ready to swap
	switch {
	case capture:
	case a.opts.Pacing.EmulateHz > 0:
		ready = a.waitBlank()
	default:
		ready = snapshot.Now()
		// Not before the blank the moment was aimed at (with vsync).
		waitUntil(a.predict.HoldUntil(a.aimed))
	}
	a.win.Swap()
	if !capture {
		present := snapshot.Now()
		if a.holding && curr != nil {
			a.hold.Presented(present)
		}
		a.stats.frame(present, a.info.view.Age)
		if curr != nil {
			rec.Present = present
			a.frames.Add(rec)
			a.predict.Observe(decide, ready, present)
		}
	}
}

// aim chooses the moment a frame deciding at now shows, for -interp-delay
// auto: its predicted present less the typical lead from decision to
// present, so that from frame to frame the moment moves as the presents
// do. With vsync (or -emulate-vsync) the present falls on the first blank
// after the frame is ready, wherever in the interval the frame started:
// the moment moves with the predicted blank, one interval per interval,
// even when frames start off the blank grid (-fps-cap 50 on a 60 Hz
// display). Without vsync the predicted present is now plus the typical
// lead, and the moment is now. Either way it is shown the jitter buffer's
// delay in the past, and the buffer learns from each new snapshot how
// late it arrived against that moment.
func (a *app) aim(prev, curr *snapshot.Snapshot, fresh bool, now int64) int64 {
	a.aimed = a.predict.Predict(now)
	slack := a.aimed - (now + a.predict.Lead()) // how far this present is from the typical one
	if fresh {
		for _, s := range [2]*snapshot.Snapshot{prev, curr} {
			if s.Tick > a.observed && !s.Paused {
				a.jitter.Observe(s.Published - s.Time + slack)
				a.observed = s.Tick
			}
		}
	}
	a.interp.Delay = slew(a.interp.Delay, a.jitter.Delay(), now-a.lastAim, a.lastAim == 0)
	a.lastAim = now
	return now + slack
}

// slew moves the delay in use toward the jitter buffer's target by at most
// an eighth of the wall time elapsed since the last frame: a delay that
// jumped by 3 ms would hold the picture still for 3 ms, where a slewed one
// runs the shown clock at 7/8 speed for 24 ms, a change of pace under 1 ms
// per 60 Hz frame. The first frame takes the target as it is.
func slew(cur, target, elapsed int64, first bool) int64 {
	if first {
		return target
	}
	step := max(elapsed, 0) / 8
	if cur < target {
		return min(target, cur+step)
	}
	return max(target, cur-step)
}

// capPaced reports whether -fps-cap paces the presents, not only the
// frames' starts: in the decoupled loop without vsync (real or emulated;
// there the blanks pace the presents). The coupled and pipelined loops
// keep the classic cap that sleeps before each frame, as the loops the
// bench compares against.
func capPaced(o Options) bool {
	return o.Pacing.FPSCap > 0 && !o.Window.VSync && o.Pacing.EmulateHz == 0 && o.Loop == Decoupled
}

// paceCap sleeps until this frame's start under -fps-cap: frames are due
// on a grid of 1/N s on the monotonic clock (capGrid, which says what a
// late frame does). It returns the frame's start on the grid when the cap
// paces presents, 0 otherwise.
//
// When the cap paces presents (capPaced), the grid is the presents': a
// frame starts the hold's lead before its deadline, and the hold keeps
// its swap to that lead after its decision, so it presents on the
// deadline whatever its own work took. The lead aims at the 99th
// percentile of recent work (PresentHold.Budget), which costs no frame
// rate while it fits in the period: without it the frame would have slept
// that time before it started, and presented as soon as its work was
// done, early or late by as much as the work varies. At -fps-cap 30 with
// 5000 bunnies (work 12-25 ms), three interleaved pairs of 5 s runs on a
// quiet host: anim_err_ms_p99 1.07-2.06 against 9.68-13.06, frames over
// 2 ms 1-2 of 150 against 57-76, 30.0 FPS and latency_ms_p50 33.4 ms
// against 34.6 (medians). At -fps-cap 60, about the rate the work
// allows: 6-14 frames over 2 ms against 44-58, for 5% of the frame rate
// and 3 ms of latency. Otherwise frames start on the grid and the swap
// is not held.
//
// The frame's picture and its swap are timed from its place on the grid
// (the start returned), not from when it woke: a frame that woke or
// polled late still shows the moment of its deadline, and presents on it
// if its work fits.
func (a *app) paceCap() int64 {
	var lead int64
	if a.holding {
		lead = a.hold.Lead()
	}
	start, _ := a.capGrid.start(snapshot.Now(), lead, int64(1e9)/int64(a.opts.Pacing.FPSCap))
	waitUntil(start)
	if !a.holding {
		return 0
	}
	return start
}

// capGrid is -fps-cap's schedule: a deadline every period on the
// monotonic clock.
type capGrid struct{ next int64 }

// start returns when a frame asking at now, which needs lead before its
// deadline, is to start, and that deadline; the grid moves on a period.
//
// Without a lead (the cap paces starts) a frame that asks more than a
// period after it was to start restarts the grid at now rather than
// rushing to catch up; one that asks less late keeps its place, a start
// in the past. With a lead (the cap paces presents) a frame that asks
// after its start at all restarts the grid at now plus the lead: squeezed
// toward its old deadline it would present late, which is animation
// error, where a grid moved on by as much as its decision is none (the
// picture moves as far as the present). Under a cap the machine cannot
// keep, every frame then starts at once and presents when its lead is up
// or its work done; keeping the late grid there showed the grid's
// moments while the presents fell ever further behind them (about 200 of
// 250 frames over 2 ms at -fps-cap 60 against 50 FPS of work).
func (g *capGrid) start(now, lead, period int64) (start, deadline int64) {
	late := period // how late a frame may ask and keep its place
	if lead > 0 {
		late = 0
	}
	if g.next == 0 || now > g.next-lead+late {
		g.next = now + lead
	}
	deadline = g.next
	g.next += period
	return deadline - lead, deadline
}

// setRefresh tells the present predictor the blank grid's spacing: the
// emulated display's, or the monitor's refresh interval.
func (a *app) setRefresh() {
	hz := a.opts.Pacing.EmulateHz
	if hz == 0 && a.opts.Window.VSync {
		hz = a.win.RefreshRate()
	}
	a.predict.Refresh = 0
	if hz > 0 {
		a.predict.Refresh = 1e9 / int64(hz)
	}
}

// waitBlank emulates a swap that waits for vsync (-emulate-vsync): it
// finishes the frame's GL work and sleeps until the next blank of a grid
// of 1/Hz s on the monotonic clock, so that the swap after it puts the
// frame on screen at a blank, as a display's flip would. A frame done
// after a blank waits for the one after, and shows an interval late; a
// frame aimed at a later blank waits for that one, as [app.frame] holds a
// frame on a real display. It returns when the frame's work was done.
func (a *app) waitBlank() int64 {
	gl.Finish()
	done := snapshot.Now()
	if a.blank0 == 0 {
		a.blank0 = done
	}
	from := max(done, a.predict.HoldUntil(a.aimed))
	swapAt(nextBlank(a.blank0, from, int64(1e9)/int64(a.opts.Pacing.EmulateHz)))
	return done
}

// nextBlank returns the first blank after t on the grid of blanks every
// period from origin (which is not after t).
func nextBlank(origin, t, period int64) int64 {
	return origin + ((t-origin)/period+1)*period
}

// waitUntil sleeps until t on the monotonic clock, spinning the last 0.3
// ms: sleeps wake late by up to a scheduler tick. For a frame start
// (-fps-cap) that is close enough: the frame's moment is chosen after it.
func waitUntil(t int64) { sleepSpin(t, 300_000) }

// swapAt waits until t for a swap whose time is the present (-present-hold,
// a held or emulated blank): it sleeps and spins the last 1 ms, as every
// bit of lateness there is animation error. With 0.3 ms the swap started
// 0.34 ms late in the median and 0.8-1.4 ms at the 95th percentile; with
// 1 ms, 0 and 0.13-0.17 (two runs each, 5000 bunnies, -present-hold).
func swapAt(t int64) { sleepSpin(t, 1_000_000) }

func sleepSpin(t, spin int64) {
	for d := t - snapshot.Now(); d > spin; d = t - snapshot.Now() {
		time.Sleep(time.Duration(d - spin))
	}
	spinUntil(t)
}

// upload sends the pair (p, c) to the sprite batch unless it is the pair
// already there. Ring buffers are reused, so a pair is known by its
// buffers and their publish times.
func (a *app) upload(p, c *snapshot.Snapshot) {
	if p == a.up[0] && c == a.up[1] && p.Published == a.upAt[0] && c.Published == a.upAt[1] {
		return
	}
	a.batch.Upload(p, c)
	a.up, a.upAt = [2]*snapshot.Snapshot{p, c}, [2]int64{p.Published, c.Published}
}

// stopReason says why the run must stop now, or "" to go on.
func (a *app) stopReason(sig *Signals, deadline int64) string {
	switch {
	case sig.caught.Load():
		return StopSignal
	case a.keyQuit:
		return StopKey
	case a.win.ShouldClose():
		return StopWindow
	case deadline >= 0 && snapshot.Now() >= deadline:
		return StopSeconds
	case a.verifier != nil && a.runner.Stats().Ended:
		return StopEnd
	case a.opts.Ctx != nil && a.opts.Ctx.Err() != nil:
		return StopContext
	}
	return ""
}

// handOver gives the pipelined loop's sim thread this frame's time, once
// the frame has taken its snapshots.
func (a *app) handOver() {
	if a.opts.Loop == Pipelined {
		a.runner.Hand(snapshot.Now())
	}
}

// probeColor is the probe's tint: opaque magenta, #FF00FF.
const probeColor = 0xFFFF00FF

// drawProbe draws the bench's probe last, over the HUD: an 8x8 px magenta
// square whose top edge is on framebuffer row 4, at x (unwrapped, in
// framebuffer px) wrapped at the right edge. The rasterizer covers the
// pixels whose centres fall inside, so the leftmost magenta column is x
// rounded to the nearest pixel.
func (a *app) drawProbe(x float64, fw, fh int) {
	a.probeQuad[0] = gl.Quad{X: float32(math.Mod(x, float64(fw))), Y: 4, W: 8, H: 8, Frame: a.art.white, Tint: probeColor}
	a.quads.Draw(a.probeQuad[:], fw, fh)
}

// benchButton is the button the bench presses and releases every 250 ms
// to measure input latency; no scene reads it.
const benchButton simthread.Buttons = 1 << 15

// inject pushes the bench's stamped input event when one is due, through
// the same queue as the keyboard.
func (a *app) inject(now int64) {
	if now < a.injectAt {
		return
	}
	a.injectDown = !a.injectDown
	a.runner.Push(simthread.Event{Time: now, Kind: simthread.EventButton, Buttons: benchButton, Down: a.injectDown})
	a.injectAt = now + 250_000_000
}

// capture reads the frame back before it is swapped away.
func (a *app) capture(fw, fh int) {
	a.last = gl.ReadPixels(0, 0, fw, fh)
	if a.shotPending {
		a.shotPending = false
		name := filepath.Join(a.opts.Output.ShotDir, "tandem-"+time.Now().Format("20060102-150405.000")+".png")
		if err := writeImage(name, a.last); err != nil {
			a.shotErr = err
		} else {
			fmt.Fprintf(os.Stderr, "tandem: screenshot %s\n", name)
		}
	}
}

// pixelScale is how many framebuffer pixels a world pixel covers: for a
// game that asked for Setup.PixelArt(lines), the whole number that shows
// about lines world pixels on the framebuffer's height (2 for 360 in a
// 720-line window); 1 for the others.
func (a *app) pixelScale(fh int) float32 {
	lines := a.look.Lines
	if lines <= 0 {
		return 1
	}
	return float32(max(1, (fh+lines/2)/lines))
}

// camera applies the render-side zoom and keeps the view inside the
// world's bounds, when Setup gave some. (Setup's values are fixed once it
// returned, so the render thread reads them where they are.)
func (a *app) camera(c snapshot.Camera, fw, fh int) snapshot.Camera {
	c.Zoom *= a.pixelScale(fh)
	l := a.look
	if !l.HasBounds {
		return c
	}
	hw, hh := float32(fw)/c.Zoom/2, float32(fh)/c.Zoom/2
	c.X = clampCentre(c.X, l.Bounds[0], l.Bounds[2], hw)
	c.Y = clampCentre(c.Y, l.Bounds[1], l.Bounds[3], hh)
	return c
}

// viewRect is the part of the world cam shows in a fw x fh framebuffer.
func viewRect(cam snapshot.Camera, fw, fh int) gl.ViewRect {
	hw, hh := float32(fw)/cam.Zoom/2, float32(fh)/cam.Zoom/2
	return gl.ViewRect{MinX: cam.X - hw, MinY: cam.Y - hh, MaxX: cam.X + hw, MaxY: cam.Y + hh}
}

// A game marks empty cells as the tile layer does.
var _ [0]struct{} = [gl.NoTile - engine.NoTile]struct{}{}

func clampCentre(v, lo, hi, half float32) float32 {
	if hi-lo <= 2*half {
		return (lo + hi) / 2
	}
	return min(max(v, lo+half), hi-half)
}

func (a *app) drawHUD(fw, fh int, now int64) {
	st := a.stats
	sim := a.runner.Stats()
	in := &a.info
	in.loop, in.scene = string(a.opts.Loop), string(a.opts.Scene)
	in.vsync, in.refreshHz = vsyncOff, 0
	switch {
	case a.opts.Pacing.EmulateHz > 0:
		in.vsync, in.refreshHz = vsyncEmulated, a.opts.Pacing.EmulateHz
	case a.win.VSync() && a.predict.Synced():
		in.vsync, in.refreshHz = vsyncOn, int(1e9/a.predict.Refresh)
	case a.win.VSync():
		in.vsync = vsyncIgnored
	}
	in.hold = 0
	if a.holding {
		in.hold = a.hold.Target()
	}
	a.readSteal(now)
	in.fps = st.fps
	in.frameP50, in.frameP99 = st.frameHist.quantile(0.5), st.frameHist.quantile(0.99)
	if el := now - st.start; el > 0 {
		in.tps = float64(sim.Ticks) * 1e9 / float64(el)
	}
	in.sim, in.paused = sim, sim.Paused
	in.gcCycles, in.gcPauseMs, in.gcMaxMs = st.gcCycles, st.gcPauseTotal*1e3, st.gcPauseMax*1e3
	a.hud.scale = float32(max(1, fh/720))
	a.quads.Draw(a.hud.build(in, st), fw, fh)
}

// readSteal sets the HUD's steal to the share of the CPU the host stole
// since the reading before, in percent, reading /proc/stat at most twice
// a second (no allocation); -1 until two readings (or off Linux).
func (a *app) readSteal(now int64) {
	if a.host == nil {
		a.info.steal = -1
		return
	}
	if now-a.hostHUDAt >= 500_000_000 {
		if t, ok := a.host.Read(); ok {
			a.info.steal = hoststat.StealPct(a.hostHUD, t)
			a.hostHUD, a.hostHUDAt = t, now
		}
	}
}

// onEvent receives every input event on the main thread, inside Poll. Game
// buttons go to the sim as data, stamped; app keys act here. Nothing in it
// blocks.
func (a *app) onEvent(e window.Input) {
	if b := a.keys.of(e); b != 0 {
		a.runner.Push(simthread.Event{Time: e.Time, Kind: simthread.EventButton, Buttons: b, Down: e.Down})
		return
	}
	switch e.Kind {
	case window.KindPointer:
		// A mouse sends hundreds of moves a second: the sim gets the last
		// of each poll (pushPointer), stamped when it happened.
		a.pointer, a.pointerMoved = e, true
		return
	case window.KindAxis:
		a.runner.Push(simthread.Event{Time: e.Time, Kind: simthread.EventAxis, Axis: uint8(e.Axis), X: e.Value})
		return
	}
	if e.Kind != window.KindKey || !e.Down || e.Repeat {
		return
	}
	switch e.Key {
	case window.KeyEscape:
		a.keyQuit = true
		a.win.SetShouldClose(true)
	case window.KeyF3:
		a.hudOn = !a.hudOn
	case window.KeyF11:
		if !a.win.ToggleFullscreen() {
			fmt.Fprintln(os.Stderr, "tandem: F11: no monitor to go fullscreen on; staying windowed")
		}
		a.setRefresh()
	case window.KeyF12:
		a.shotPending = true
	case window.KeyP:
		a.runner.Push(simthread.Event{Time: e.Time, Kind: simthread.EventTogglePause})
	case window.KeyPeriod:
		a.runner.Push(simthread.Event{Time: e.Time, Kind: simthread.EventStep})
	case window.KeyLeftBracket, window.KeyRightBracket:
		step := 1
		if e.Key == window.KeyLeftBracket {
			step = -1
		}
		a.runner.Push(simthread.Event{Time: e.Time, Kind: simthread.EventScale, Scale: nextScale(a.runner.Stats().Chosen, step)})
	}
}

// pushPointer hands the sim the pointer's last move of this poll, in
// world pixels as the last frame drawn showed the world: where the player
// pointed. (Before the first frame, framebuffer pixels.) The sim records
// and replays that value, so the mapping needs no replaying.
func (a *app) pushPointer() {
	if a.pointerMoved {
		a.pointerMoved = false
		x, y := a.pointer.X, a.pointer.Y
		if c := a.shown; c.Zoom > 0 {
			x = c.X + (x-float32(a.shownW)/2)/c.Zoom
			y = c.Y + (y-float32(a.shownH)/2)/c.Zoom
		}
		a.runner.Push(simthread.Event{Time: a.pointer.Time, Kind: simthread.EventPointer, X: x, Y: y})
	}
}

// autoplay plays from the main thread as a player would: it holds the
// Right action and presses Jump for 0.35 s of every 0.9 s, sending
// stamped events through the same queue as the keyboard.
func (a *app) autoplay(now int64) {
	const period, hold = 900_000_000, 350_000_000
	t := now - a.stats.start
	jump := t%period < hold
	if !a.autoRight {
		a.autoRight = true
		a.runner.Push(simthread.Event{Time: now, Kind: simthread.EventButton, Buttons: engine.ButtonOf(engine.ActionRight), Down: true})
	}
	if jump != a.autoJump {
		a.autoJump = jump
		a.runner.Push(simthread.Event{Time: now, Kind: simthread.EventButton, Buttons: engine.ButtonOf(engine.ActionJump), Down: jump})
	}
}

// nextScale returns the time scale one step slower (-1) or faster (+1)
// than r in simthread.Scales.
func nextScale(r simthread.Ratio, step int) simthread.Ratio {
	for i, s := range simthread.Scales {
		if s == r {
			return simthread.Scales[min(max(i+step, 0), len(simthread.Scales)-1)]
		}
	}
	return simthread.RealTime
}

// Hooks let tests watch the threads: OnTick runs on the sim thread after
// every tick, OnFrame on the render thread after every frame's GL calls.
type Hooks struct {
	OnTick  func()
	OnFrame func()
}

// RunHooked is Run with h's hooks (nil: none).
func RunHooked(opts Options, h *Hooks) (*Summary, error) { return run(opts, h) }
