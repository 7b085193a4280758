//go:build cgo

package app

import (
	"strconv"
	"sync/atomic"
	"unsafe"

	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/internal/hoststat"
	"github.com/tandem-engine/tandem/internal/pacing"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
	"github.com/tandem-engine/tandem/window"
)

// hud lays out the F3 overlay as screen-space quads: text from the glyph
// atlas and a frame-time graph. It reuses its buffers: no allocation per
// frame.
type hud struct {
	art    *art
	quads  []gl.Quad
	glyphs []gl.GlyphQuad
	line   []byte
	scale  float32 // HUD pixels per layout pixel (HiDPI)
	// The layout's pen while build runs: where the next line goes, and
	// the widest line so far.
	x, y, width int
}

func newHUD(a *art) *hud {
	return &hud{art: a, quads: make([]gl.Quad, 0, 4096), glyphs: make([]gl.GlyphQuad, 0, 256), line: make([]byte, 0, 256), scale: 1}
}

const (
	hudPad     = 8
	hudGraphH  = 64
	hudMsPx    = 2 // graph pixels per millisecond
	hudText    = 0xFFFFFFFF
	hudDim     = 0xFFB0B0B0
	hudPanel   = 0xB0000000
	hudGood    = 0xFF50D050
	hudWarn    = 0xFF30C0F0
	hudBad     = 0xFF4040F0
	hudRefLine = 0x80FFFFFF
)

// hudInfo is what the HUD shows, gathered once per frame.
type hudInfo struct {
	loop, scene string
	fps         float64
	frameP50    float64
	frameP99    float64
	tps         float64
	sim         simthread.Stats
	view        snapshot.View
	delay       int64 // the interpolation delay in use, ns
	sprites     int
	gcCycles    uint64
	gcPauseMs   float64
	gcMaxMs     float64
	paused      bool
	vsync       vsyncState
	refreshHz   int     // with vsync, the blanks' rate
	hold        int64   // the present hold's lead, ns (0: none)
	steal       float64 // the host's steal over the last half second, % (-1: not known)
	recordErr   []byte  // why -record stopped writing; nil: it did not
}

// vsyncState is what the HUD says of vsync.
type vsyncState uint8

const (
	vsyncOff      vsyncState = iota
	vsyncOn                  // asked for, and the presents wait for the blanks
	vsyncIgnored             // asked for, but the presents come faster than the refresh
	vsyncEmulated            // -emulate-vsync
)

// hudOverlay is the F3 HUD's add-on: shown from the start with -hud, F3
// toggles it. It reads the run's figures from where they live (the
// meter, the sim's statistics, the pacing, the window, the recording)
// and draws over the world, under the probe.
type hudOverlay struct {
	noHooks
	on          atomic.Bool // F3 toggles it (the input thread), the frame reads it
	loop, scene string
	emulateHz   int
	info        *hudInfo // what the frame showed (the frame writes it) and what the HUD gathers
	meter       *meter
	sim         func() simthread.Stats
	pace        *pacing.Pacer
	vsync       func() bool   // the window's vsync is on
	recFailed   func() []byte // why the recording stopped writing; nil: it did not
	layout      *hud          // the renderer's: its buffers and the art's glyphs
	quads       *gl.QuadBatch // the renderer's, which draws the layout
}

// newHUDOverlay makes the HUD of a run of o, laid out by layout and
// drawn by quads, with F3 set in keys.
func newHUDOverlay(o Options, info *hudInfo, m *meter, sim func() simthread.Stats, pace *pacing.Pacer,
	vsync func() bool, recFailed func() []byte, layout *hud, quads *gl.QuadBatch, keys *bindings) *hudOverlay {
	h := &hudOverlay{loop: string(o.Loop), scene: o.Scene, emulateHz: o.Pacing.EmulateHz, info: info, meter: m,
		sim: sim, pace: pace, vsync: vsync, recFailed: recFailed, layout: layout, quads: quads}
	h.on.Store(o.Window.HUD)
	keys.act(window.KeyF3, func() { h.on.Store(!h.on.Load()) })
	return h
}

// overlay gathers what the HUD shows and draws it, when it is on.
func (h *hudOverlay) overlay(_ frameEnd, fw, fh int, now int64) {
	if !h.on.Load() {
		return
	}
	st := h.meter.stats
	sim := h.sim()
	in := h.info
	in.loop, in.scene = h.loop, h.scene
	in.vsync, in.refreshHz = vsyncOff, 0
	synced, hz := h.pace.VSyncSynced()
	switch {
	case h.emulateHz > 0:
		in.vsync, in.refreshHz = vsyncEmulated, h.emulateHz
	case h.vsync() && synced:
		in.vsync, in.refreshHz = vsyncOn, hz
	case h.vsync():
		in.vsync = vsyncIgnored
	}
	in.hold = h.pace.Hold()
	in.steal = h.meter.steal(now, in.steal)
	if m := h.recFailed(); m != nil {
		in.recordErr = m
	}
	in.fps = st.fps
	in.frameP50, in.frameP99 = st.frameHist.quantile(0.5), st.frameHist.quantile(0.99)
	if el := now - st.start; el > 0 {
		in.tps = float64(sim.Ticks) * 1e9 / float64(el)
	}
	in.sim, in.paused = sim, sim.Paused
	in.gcCycles, in.gcPauseMs, in.gcMaxMs = st.gcCycles, st.gcPauseTotal*1e3, st.gcPauseMax*1e3
	h.layout.scale = float32(max(1, fh/720))
	h.quads.Draw(h.layout.build(in, st), fw, fh)
}

// build lays out the HUD and returns its quads: a panel, a line of text
// for each part, and the frame-time graph.
func (h *hud) build(in *hudInfo, st *frameStats) []gl.Quad {
	h.quads = h.quads[:0]
	h.x, h.y, h.width = hudPad*2, hudPad*2, 0
	panelAt := len(h.quads)
	h.quads = append(h.quads, gl.Quad{}) // the panel, sized at the end
	h.row(h.title(in), hudDim)
	h.row(h.frameLine(in), hudText)
	h.row(h.simLine(in), hudText)
	h.row(h.viewLine(in), hudText)
	h.row(h.memLine(in), hudText)
	h.warnings(in)
	h.graph(st)
	h.quads[panelAt] = gl.Quad{X: hudPad * h.scale, Y: hudPad * h.scale,
		W: float32(h.width+2*hudPad) * h.scale, H: float32(h.y-hudPad+hudPad) * h.scale,
		Frame: h.art.white, Tint: hudPanel}
	return h.quads
}

// row lays out one line of the HUD and moves down a line.
func (h *hud) row(b []byte, tint uint32) {
	h.width = max(h.width, h.text(b, h.x, h.y, tint))
	h.y += h.art.glyphs.LineHeight
}

func (h *hud) title(in *hudInfo) []byte {
	b := h.line[:0]
	b = append(b, "tandem  "...)
	b = append(b, in.scene...)
	b = append(b, "  "...)
	b = append(b, in.loop...)
	switch in.vsync {
	case vsyncOn, vsyncEmulated:
		b = append(b, "  vsync "...)
		b = strconv.AppendInt(b, int64(in.refreshHz), 10)
		b = append(b, " Hz"...)
		if in.vsync == vsyncEmulated {
			b = append(b, " (emulated)"...)
		}
	case vsyncIgnored:
		b = append(b, "  vsync ignored by the driver"...)
	}
	return b
}

func (h *hud) frameLine(in *hudInfo) []byte {
	b := h.line[:0]
	b = append(b, "FPS 0.5s "...) // over the last half second; the JSON's fps_mean is the window's
	b = strconv.AppendFloat(b, in.fps, 'f', 1, 64)
	b = append(b, "   frame p50 "...)
	b = strconv.AppendFloat(b, in.frameP50, 'f', 2, 64)
	b = append(b, " ms  p99 "...)
	b = strconv.AppendFloat(b, in.frameP99, 'f', 2, 64)
	return append(b, " ms"...)
}

func (h *hud) simLine(in *hudInfo) []byte {
	b := h.line[:0]
	b = append(b, "TPS "...)
	b = strconv.AppendFloat(b, in.tps, 'f', 1, 64)
	b = append(b, "   time scale "...)
	b = strconv.AppendFloat(b, in.sim.Scale, 'f', 2, 64)
	b = append(b, "x (chosen "...)
	b = strconv.AppendInt(b, in.sim.Chosen.Num, 10)
	if in.sim.Chosen.Den != 1 {
		b = append(b, '/')
		b = strconv.AppendInt(b, in.sim.Chosen.Den, 10)
	}
	b = append(b, "x)"...)
	if in.paused {
		b = append(b, "  PAUSED"...)
	}
	return b
}

func (h *hud) viewLine(in *hudInfo) []byte {
	b := h.line[:0]
	b = append(b, "snapshot age "...)
	b = strconv.AppendFloat(b, float64(in.view.Age)/1e6, 'f', 2, 64)
	b = append(b, " ms   alpha "...)
	b = strconv.AppendFloat(b, float64(in.view.Alpha), 'f', 2, 64)
	b = append(b, "   delay "...)
	b = strconv.AppendFloat(b, float64(in.delay)/1e6, 'f', 2, 64)
	b = append(b, " ms   "...)
	if in.hold > 0 {
		b = append(b, "hold "...)
		b = strconv.AppendFloat(b, float64(in.hold)/1e6, 'f', 2, 64)
		b = append(b, " ms   "...)
	}
	b = append(b, "tick "...)
	return strconv.AppendUint(b, in.sim.Ticks, 10)
}

func (h *hud) memLine(in *hudInfo) []byte {
	b := h.line[:0]
	b = append(b, "sprite slots "...) // the JSON's sprite_slots; its sprites are the live ones
	b = strconv.AppendInt(b, int64(in.sprites), 10)
	b = append(b, "   GC "...)
	b = strconv.AppendUint(b, in.gcCycles, 10)
	b = append(b, " cycles, pauses "...)
	b = strconv.AppendFloat(b, in.gcPauseMs, 'f', 2, 64)
	b = append(b, " ms (max "...)
	b = strconv.AppendFloat(b, in.gcMaxMs, 'f', 2, 64)
	return append(b, " ms)"...)
}

// warnings lays out the lines that say something is wrong.
func (h *hud) warnings(in *hudInfo) {
	if in.sim.Dropped > 0 {
		b := append(h.line[:0], "overloaded: dropped "...)
		b = strconv.AppendFloat(b, float64(in.sim.Dropped)/1e6, 'f', 0, 64)
		h.row(append(b, " ms of sim time"...), hudBad)
	}
	if in.steal >= hoststat.Notable {
		b := append(h.line[:0], "host steal "...)
		b = strconv.AppendFloat(b, in.steal, 'f', 1, 64)
		h.row(append(b, "% of the CPU (a VM's hypervisor): frame times disturbed"...), hudBad)
	}
	if len(in.recordErr) > 0 {
		h.row(append(append(h.line[:0], "recording stopped: "...), in.recordErr[:min(len(in.recordErr), 90)]...), hudBad)
	}
	if in.sim.InputLate > 0 {
		b := append(h.line[:0], "input late: "...)
		b = strconv.AppendUint(b, in.sim.InputLate, 10)
		h.row(append(b, " events applied a tick after their stamp"...), hudText)
	}
}

// graph lays out the frame-time graph: one bar per frame, newest on the
// right, with a line at one 60 Hz frame.
func (h *hud) graph(st *frameStats) {
	h.y += hudPad / 2
	base := float32(h.y + hudGraphH)
	for i := range graphLen {
		ms := st.graph[(st.gi+i)%graphLen]
		hgt := min(ms*hudMsPx, hudGraphH)
		tint := uint32(hudGood)
		switch {
		case ms > 34:
			tint = hudBad
		case ms > 17.5:
			tint = hudWarn
		}
		h.quad(float32(h.x+i*2), base-hgt, 2, hgt, h.art.white, tint)
	}
	h.quad(float32(h.x), base-1000.0/60*hudMsPx, graphLen*2, 1, h.art.white, hudRefLine)
	h.width = max(h.width, graphLen*2)
	h.y += hudGraphH
}

// gameText lays out a snapshot's game text and returns its quads, in
// framebuffer pixels (the HUD's own scale does not apply).
func (h *hud) gameText(t *snapshot.Text) []gl.Quad {
	scale := h.scale
	h.scale = 1
	defer func() { h.scale = scale }()
	h.quads = h.quads[:0]
	for _, l := range t.Lines {
		h.text(t.Chars[l.From:l.To], int(l.X), int(l.Y), l.Tint)
	}
	return h.quads
}

// text lays out b at (x, y) and returns the width of its ink in pixels.
func (h *hud) text(b []byte, x, y int, tint uint32) int {
	if len(b) == 0 {
		return 0
	}
	// Layout takes a string; this one only lives for the call, and b is
	// not written meanwhile, so no copy is needed.
	h.glyphs = h.art.glyphs.Layout(h.glyphs[:0], unsafe.String(&b[0], len(b)), x, y)
	w := 0
	for _, g := range h.glyphs {
		if g.Rune < 0 || g.Rune >= 128 {
			continue
		}
		h.quad(float32(g.X), float32(g.Y), float32(g.W), float32(g.H), h.art.glyph[g.Rune], tint)
		w = max(w, g.X+g.W-x)
	}
	return w
}

func (h *hud) quad(x, y, w, hgt float32, frame uint16, tint uint32) {
	s := h.scale
	h.quads = append(h.quads, gl.Quad{X: x * s, Y: y * s, W: w * s, H: hgt * s, Frame: frame, Tint: tint})
}
