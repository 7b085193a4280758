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
	"runtime/pprof"
	"sync"
	"sync/atomic"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/internal/hoststat"
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
	hudOn  atomic.Bool // F3 toggles it (the input thread), the frame reads it

	// The bench: the wrapped sim with its knobs, the render thread's
	// stalls, the rings the records are written into (the newest kept for
	// -out), and the figures, read from the rings as they fill (drain).
	load        *loadSim
	renderStall stalls
	frames      *bench.Frames
	log         *simthread.Log
	figures     *bench.Stream
	drainedAt   int64 // when the figures last read the rings
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
	real       *realInput            // the bench's real key (nil: the synthetic button)
	realErr    error                 // why there is no real key, when the bench wanted one
	injectDown bool

	autoRight, autoJump bool              // what -autoplay holds down
	autoHeld            simthread.Buttons // what the game's own autoplay holds down

	pointer      window.Input // the cursor's last move in this poll
	pointerMoved bool
	// The camera of the last frame drawn (clamped and zoomed) on its
	// framebuffer: how a pointer position maps to the world. Written by
	// the frame, read by the input thread (the main thread in the
	// threaded loop), under shownMu.
	shownMu        sync.Mutex
	shown          snapshot.Camera
	shownW, shownH int

	// The window as the main thread last saw it, for a render thread of
	// its own (the threaded loop): the framebuffer's size (w<<32 | h) and
	// whether it is minimised; and the blank grid's spacing, ns (0: none),
	// which F11 may change.
	fb        atomic.Uint64
	minimised atomic.Bool
	refresh   atomic.Int64
	// stopping tells the threaded loop's render thread to end.
	stopping atomic.Bool

	// Record and replay: the recording being written (-record), and the
	// replay's checker.
	recorder *replay.Writer
	verifier *replay.Verifier
	recErr   error // closing the recording failed: reported at exit
	// recFailed is why the recording stopped writing during the run (a
	// full disk), for the HUD; nil: it did not.
	recFailed atomic.Pointer[[]byte]

	keyQuit     bool        // Esc was pressed
	stoppedBy   string      // why the frame loop ended: StopSeconds, ...
	shotPending atomic.Bool // F12 was pressed: save this frame
	shotErr     error       // the last F12 screenshot's failure, reported at exit
	last        *image.RGBA
}

// Run runs the game opts name until the window closes, Esc, a signal,
// opts.Seconds or opts.Ctx, and returns the summary. Main thread only.
func Run(opts Options) (*Summary, error) { return run(opts, nil) }

// run is Run with the tests' hooks.
func run(opts Options, h *Hooks) (*Summary, error) {
	gl.TuneAllocator()
	a := &app{opts: opts}
	a.hudOn.Store(opts.Window.HUD)
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
	// The figures read every record from these rings as it comes (see
	// drain); the rings keep the newest for -out's CSVs and charts: 131,072
	// frames, and the ticks of the whole bench run up to 262,144 (73
	// minutes at 60 Hz).
	a.frames = bench.NewFrames(1 << 17)
	a.log = simthread.NewLog(min(max(1<<16, int((opts.Measure.Warmup+opts.Seconds+2)*float64(opts.World.Hz))), 1<<18), 1<<14)
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
	if a.recorder != nil {
		go a.watchRecording(ctx)
	}
	// Profiles tell the render thread from the sim thread by this label.
	pprof.SetGoroutineLabels(pprof.WithLabels(ctx, pprof.Labels("thread", "render")))
	defer pprof.SetGoroutineLabels(context.Background())

	start := snapshot.Now()
	a.load.stall = newStalls(opts.Load.Hitches, "sim", start)
	a.renderStall = newStalls(opts.Load.Hitches, "render", start)
	a.from, a.injectAt = start+int64(opts.Measure.Warmup*1e9), start
	a.figures, a.drainedAt = bench.NewStream(opts.World.Hz, a.from, 0), start
	a.stats = newFrameStats(start, a.from)
	if opts.Measure.Bench && opts.Measure.RealInput {
		a.startRealInput()
	}
	switch opts.Loop {
	case Decoupled, Threaded:
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
	if opts.Loop != Coupled {
		// The sim has a thread of its own: if a frame outlasts a stop's
		// grace, the watchdog stops the sim and writes what it can.
		sig.setLast(func() { a.lastWords(cancel) })
		defer sig.setLast(nil)
	}
	if r, err := hoststat.Open(); err == nil {
		a.host = r
		defer r.Close()
	}
	if opts.Loop == Threaded {
		a.threaded(sig, deadline, h)
	} else {
		for a.stoppedBy = a.stopReason(sig, deadline); a.stoppedBy == ""; a.stoppedBy = a.stopReason(sig, deadline) {
			a.readHostFrom()
			a.frame(false)
			if h != nil && h.OnFrame != nil {
				h.OnFrame()
			}
		}
	}
	end := snapshot.Now()
	presses := a.stopRealInput()
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
	run := a.records(end)
	sum := a.summarize(run)
	a.pressFigures(sum, run, presses)
	if a.recErr != nil {
		sum.RecordError = a.recErr.Error()
	}
	if opts.Measure.HostFloor && a.stoppedBy != StopSignal {
		// The sim has stopped and nothing of ours draws: the machine's
		// own unevenness, at the run's length of frame work. A Ctrl-C
		// ends it and keeps the rest of the summary.
		sum.measureFloor(sig.caught.Load)
	}
	if a.verifier != nil {
		sum.Replay = a.replayReport()
	}
	if a.stoppedBy == StopDisplayLost {
		// Nothing can be drawn or read back: what the run has is written.
		return sum, ErrDisplayLost
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
	// The peak of the whole run, the screenshot's read-back included.
	sum.MaxRSSMB = maxRSSMB()
	if a.shotErr != nil {
		return sum, a.shotErr
	}
	return sum, a.recErr
}

// stopReason says why the run must stop now, or "" to go on.
func (a *app) stopReason(sig *Signals, deadline int64) string {
	switch {
	case window.DisplayLost():
		return StopDisplayLost
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
func (a *app) drawProbe(x float64, held bool, fw, fh int) {
	tint := uint32(probeColor)
	if held {
		tint = probeHeldColor
	}
	a.probeQuad[0] = gl.Quad{X: float32(math.Mod(x, float64(fw))), Y: 4, W: 8, H: 8, Frame: a.art.white, Tint: tint}
	a.quads.Draw(a.probeQuad[:], fw, fh)
}

// probeHeldColor is the probe's tint while the bench's button is down in
// the state the frame blends toward: opaque cyan, #00FFFF.
const probeHeldColor = 0xFFFFFF00

// inject pushes the bench's stamped input event when one is due, through
// the same queue as the keyboard.
func (a *app) inject(now int64) {
	if a.real != nil || now < a.injectAt {
		return
	}
	a.injectDown = !a.injectDown
	a.runner.Push(simthread.Event{Time: now, Kind: simthread.EventButton, Buttons: benchButton, Down: a.injectDown})
	a.injectAt = now + 250_000_000
}

// Hooks let tests watch the threads: OnTick runs on the sim thread after
// every tick, OnFrame on the render thread after every frame's GL calls.
type Hooks struct {
	OnTick  func()
	OnFrame func()
}

// RunHooked is Run with h's hooks (nil: none).
func RunHooked(opts Options, h *Hooks) (*Summary, error) { return run(opts, h) }
