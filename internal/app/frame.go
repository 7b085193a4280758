//go:build cgo

package app

import (
	"context"
	"math"
	"runtime/trace"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/snapshot"
)

// One frame on the render thread, the same in every loop: the loop's
// first step (input, the sim's ticks), the moment it shows, the snapshots
// blended, the draw, the probe and the HUD, the swap. What differs
// between the loops the driver answers; what only the bench and the
// figures need the add-ons do.

// frame is one frame. It is the unit a trace task wraps.
func (s *session) frame() {
	if trace.IsEnabled() {
		ctx, task := trace.NewTask(context.Background(), "frame")
		defer task.End()
		defer trace.StartRegion(ctx, "frame").End()
	}
	s.pace.Start()
	start := snapshot.Now()
	showAt, fixed := s.loop.prepare()
	fw, fh, minimised := s.loop.surface()
	if minimised {
		s.loop.handOver()
		s.loop.idle()
		at := snapshot.Now()
		s.frameEnd(frameEnd{at: at})
		s.resch.after(at)
		return
	}
	s.clear(fw, fh)
	prev, curr, fresh := s.runner.Ring().Acquire()
	now := snapshot.Now()
	s.loop.handOver()
	for _, ad := range s.addons {
		ad.frameStart(now) // the bench's render load, inside the frame's trace region
	}
	decide := s.pace.Decide(now) // what the picture and the swap are timed from
	var end frameEnd
	if curr != nil {
		if !fixed {
			showAt, s.interp.Delay = s.pace.Moment(prev, curr, fresh, decide, s.interp.Delay)
		}
		end = s.drawWorld(curr, showAt, now, fw, fh)
		end.rec.Start, end.rec.Decide = start, decide
		if fresh {
			end.rec.Age = end.age
		}
	}
	s.overlay(end, fw, fh, now)
	ready, hold := s.pace.BeforeSwap(decide, now, end.drew)
	end.rec.Hold = hold
	s.win.Swap()
	end.at, end.swapped = snapshot.Now(), true
	s.pace.Presented(decide, ready, end.at, end.drew)
	end.rec.Present = end.at
	s.frameEnd(end)
	s.resch.after(end.at)
}

// captureFrame draws one more frame of the last snapshots and reads it
// back before it is swapped: the screenshot at exit. It runs no input, no
// sim and no pacing, and records nothing.
func (s *session) captureFrame() {
	fw, fh, minimised := s.loop.surface()
	if minimised {
		return
	}
	s.clear(fw, fh)
	_, curr, _ := s.runner.Ring().Acquire()
	now := snapshot.Now()
	var end frameEnd
	if curr != nil {
		end = s.drawWorld(curr, now, now, fw, fh)
	}
	end.exit = true
	s.overlay(end, fw, fh, now)
	s.win.Swap()
}

func (s *session) clear(fw, fh int) {
	gl.Viewport(fw, fh)
	bg := &s.look.Clear
	gl.Clear(bg[0], bg[1], bg[2], bg[3])
}

// drawWorld draws the world as it was at showAt, blended from the pair
// the interpolator chooses: the newest two, or an older pair when the
// moment falls before the newest is due, or while the picture catches up
// evenly after a stall. now is when the frame took its snapshots.
func (s *session) drawWorld(curr *snapshot.Snapshot, showAt, now int64, fw, fh int) frameEnd {
	h := s.runner.Ring().History()
	for _, ad := range s.addons {
		h = ad.rewind(h, showAt, &s.interp.Delay) // -av-lock's moment further back than the ring holds
	}
	v, p, c := s.interp.Show(h, showAt)
	s.draw.upload(p, c)
	v.Age = now - curr.Published
	s.info.view, s.info.delay, s.info.sprites = v, s.interp.Delay, c.Sprites.Len()
	cam := s.camera(v.Camera, fw, fh)
	s.shownMu.Lock()
	s.shown = shownView{cam: cam, w: fw, h: fh}
	s.shownMu.Unlock()
	// The probe is interpolated like a sprite's x (its motion is linear,
	// so this is exact).
	probeX := p.Probe + (c.Probe-p.Probe)*float64(v.Alpha)
	fused := s.fuseProbe(c, probeX, fw, fh)
	s.draw.drawing.draw(s.draw.tiles, viewRect(cam, fw, fh), p, c, cam, fw, fh, v.Alpha, v.SimTime)
	s.draw.gameText(&c.Text, fw, fh)
	rec := bench.FrameRecord{SimShown: v.SimTime, Tick: c.Tick, Age: -1, Overdue: v.Overdue, Delay: s.interp.Delay, Alpha: v.Alpha,
		ProbeX: probeX}
	w := float64(fw)
	return frameEnd{rec: rec, drew: true, age: v.Age, held: c.ProbeHeld, probeDrawn: fused,
		probeWrap: math.Floor(p.Probe/w) != math.Floor(c.Probe/w)}
}

// fuseProbe hands the probe to the sprites' draw call, to be drawn there
// over the sprites, when nothing else is drawn over them before the
// probe would be: no shapes, text or game shader, no game text, no HUD.
// A second draw after the sprites' cost llvmpipe several percent of a
// frame at a thousand sprites (docs/results/2026-11-27-sprites-ceiling7.md).
// It reports whether it did; if not, probeOverlay draws the probe.
func (s *session) fuseProbe(c *snapshot.Snapshot, probeX float64, fw, fh int) bool {
	if !s.probe || s.hud.on.Load() || len(c.Text.Lines) > 0 || !s.draw.drawing.spritesOnly() {
		return false
	}
	s.draw.batch.SetOverlay(s.draw.probeQuad(probeX, c.ProbeHeld, fw), fw, fh)
	return true
}

// overlay draws what goes over the world: the add-ons' overlays, in
// their order.
func (s *session) overlay(e frameEnd, fw, fh int, now int64) {
	for _, ad := range s.addons {
		ad.overlay(e, fw, fh, now)
	}
}

func (s *session) frameEnd(e frameEnd) {
	for _, ad := range s.addons {
		ad.frameEnd(e)
	}
}
