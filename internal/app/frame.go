//go:build cgo

package app

import (
	"context"
	"runtime/trace"
	"time"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/internal/hoststat"
	"github.com/tandem-engine/tandem/snapshot"
)

// One frame on the render thread: input, the moment it shows, the
// snapshots blended, the draw, the probe and the HUD, the swap.

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
	a.predict.Refresh = a.refresh.Load()
	if !capture {
		now := start
		if a.opts.Loop != Threaded {
			// The threaded loop's main thread does this as events come.
			a.input()
			now = snapshot.Now()
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
	if a.minimized() {
		if !capture {
			a.handOver()
		}
		// Nothing to draw into: sleep until something happens, cheaply.
		if a.opts.Loop == Threaded {
			time.Sleep(10 * time.Millisecond)
		} else {
			a.win.WaitEvents(100 * time.Millisecond)
		}
		if !capture {
			a.drain(snapshot.Now())
		}
		return
	}
	fw, fh := a.framebufferSize()
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
	var held bool           // the bench's button is down in the state blended toward
	if curr != nil {
		showAt := decide
		if a.opts.Loop == Pipelined {
			showAt = a.showAt
		} else if a.opts.Pacing.DelayAuto && a.opts.Loop.ownsSchedule() {
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
		text, held = &c.Text, c.ProbeHeld
		v.Age = now - curr.Published
		if v.Overdue && !capture {
			a.stats.overdue++
		}
		a.info.view, a.info.delay = v, a.interp.Delay
		a.info.sprites = curr.Sprites.Len()
		cam := a.camera(v.Camera, fw, fh)
		a.shownMu.Lock()
		a.shown, a.shownW, a.shownH = cam, fw, fh
		a.shownMu.Unlock()
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
	if a.hudOn.Load() {
		a.drawHUD(fw, fh, now)
	}
	if a.opts.Measure.Probe && curr != nil {
		a.drawProbe(rec.ProbeX, held, fw, fh)
	}
	if capture || a.shotPending.Load() {
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
		a.drain(present)
	}
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
	if m := a.recFailed.Load(); m != nil {
		in.recordErr = *m
	}
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
