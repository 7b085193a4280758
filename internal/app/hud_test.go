//go:build cgo

package app

import (
	"testing"

	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/simthread"
)

func TestHUDLayout(t *testing.T) {
	a, err := buildArt(&engine.Look{})
	if err != nil {
		t.Fatal(err)
	}
	h := newHUD(a)
	st := newFrameStats(0, 0)
	for i := range graphLen {
		st.frame(int64(i+1)*16_000_000, 1_000_000)
	}
	in := &hudInfo{loop: "decoupled", scene: "platformer", fps: 144.25, tps: 60,
		sim: simthread.Stats{Ticks: 1234, Scale: 1, Chosen: simthread.RealTime, Dropped: 5e6}, sprites: 5000}
	glyphs := 0
	for _, v := range []struct {
		vsync vsyncState
		hz    int
		hold  int64
		steal float64
	}{{vsyncOff, 0, 0, -1}, {vsyncOn, 144, 0, 0.3}, {vsyncIgnored, 0, 0, -1}, {vsyncEmulated, 60, 0, -1}, {vsyncOff, 0, 20_500_000, -1}, {vsyncOff, 0, 0, 8.5}} {
		in.vsync, in.refreshHz, in.hold, in.steal = v.vsync, v.hz, v.hold, v.steal
		quads := h.build(in, st)
		// Panel, one bar per graph frame, the reference line, and glyphs:
		// every variant says more than the plain one (a steal of 0.3% says
		// nothing; 8.5% gets its own line).
		if len(quads) < 1+graphLen+1+100 || len(quads) <= glyphs {
			t.Fatalf("%+v: %d quads, after %d without vsync or hold", v, len(quads), glyphs)
		}
		if glyphs == 0 {
			glyphs = len(quads)
		}
		panel := quads[0]
		for _, q := range quads[1:] {
			if q.X < panel.X || q.Y < panel.Y || q.X+q.W > panel.X+panel.W+0.5 || q.Y+q.H > panel.Y+panel.H+0.5 {
				t.Fatalf("%+v: quad %+v outside the panel %+v", v, q, panel)
			}
		}
		if a := testing.AllocsPerRun(100, func() { h.build(in, st) }); a != 0 {
			t.Fatalf("%+v: building the HUD allocates %.1f times a frame", v, a)
		}
	}
	if a := testing.AllocsPerRun(100, func() { st.frame(st.last+16_000_000, 1) }); a != 0 {
		t.Fatalf("recording a frame allocates %.1f times", a)
	}
}

func TestHistQuantile(t *testing.T) {
	var h hist
	for i := range 100 {
		h.add(int64(i+1) * 1_000_000) // 1..100 ms
	}
	if p50, p99 := h.quantile(0.5), h.quantile(0.99); p50 < 49.9 || p50 > 50.1 || p99 < 98.9 || p99 > 99.1 {
		t.Fatalf("p50 %v p99 %v", p50, p99)
	}
}
