//go:build cgo

package app

import (
	"strings"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/bench"
)

func TestMeasureFloor(t *testing.T) {
	// The floor runs at the measured frames' median work, decision to
	// present, within a bounded time; a stop (Ctrl-C) leaves the floor
	// out and the rest of the summary as it was.
	ms := int64(time.Millisecond)
	run := &bench.Records{Hz: 60, From: 0, To: 1000 * ms}
	for i := range int64(9) {
		run.Frames = append(run.Frames, bench.FrameRecord{Start: 100*ms + i*10*ms, Decide: 100*ms + i*10*ms, Present: 102*ms + i*10*ms + i*ms/10})
	}
	s := &Summary{run: run}
	s.FPSMean = 50
	s.measureFloor(func() bool { return true })
	if s.HostFloorWorkMs != nil || s.HostFloorMsP99 != nil || s.HostFloorCacheMsP99 != nil || s.FPSMean != 50 {
		t.Fatalf("stopped: %+v", s)
	}
	s.measureFloor(nil)
	if s.HostFloorWorkMs == nil || *s.HostFloorWorkMs != 2.4 || s.HostFloorReps == nil || *s.HostFloorReps != floorReps {
		t.Fatalf("floor at %v ms over %v runs, want 2.4 (the median of 2.0-2.8) and %d", s.HostFloorWorkMs, s.HostFloorReps, floorReps)
	}
	if s.HostFloorMsP99 == nil || s.HostFloorOver2msPct == nil || s.HostFloorCacheMsP99 == nil || s.HostFloorCacheOver2msPct == nil {
		t.Fatalf("figures missing: %+v", s)
	}
	for _, c := range []struct {
		d    time.Duration
		want int
	}{
		{2 * time.Millisecond, floorReps},
		{20 * time.Millisecond, floorReps},
		{50 * time.Millisecond, 60}, // 3 s of each kind
		{time.Second, floorMinReps},
		{0, floorReps},
	} {
		if got := floorRepsFor(c.d); got != c.want {
			t.Errorf("floorRepsFor(%v) = %d, want %d", c.d, got, c.want)
		}
	}
}

func TestWriteText(t *testing.T) {
	// Without -json the bench prints its main figures for a person: each
	// where its subject is, "–" for one not measured, the host's floor
	// only when it was measured.
	s := &Summary{Summary: bench.Summary{
		Run: bench.Run{Scene: "bunnymark", Sprites: 5000, Loop: string(Decoupled), FPSCap: 30, Seconds: 5, WarmupSeconds: 1,
			InterpDelay: "auto"},
		Figures: bench.Figures{Frames: 150, FPSMean: 30, FrameMsP50: 33.33, FrameMsP99: 34.1, TPS: 60, TickJitterMsP99: 0.9,
			AnimErrMsP99: 1.94, AnimErrOver2ms: 1, Judder: 0.011, DelayMsP50: 1.06, LatencyMsP50: 33.4, LatencyMsP99: 40,
			InputLatency: bench.InputLatency{InputLatencyMsP50: bench.NaN}},
		Host: bench.Host{HostStealPct: 0.1}}}
	var b strings.Builder
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"bunnymark, 5000 sprites, decoupled loop, -fps-cap 30; 5.0 s measured after 1.0 s",
		"150 at 30.0 FPS", "p99 34.10 ms", "animation error p99 1.94 ms, 1 frames over 2 ms", "judder 0.011",
		"delay 1.06 ms (auto)", "input p50 –", "steal 0.1%", "-json",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "arithmetic") {
		t.Errorf("a floor that was not measured:\n%s", out)
	}
	if !strings.Contains(out, "; 0 allocs a frame\n") {
		t.Errorf("no profiler: want the allocations alone, no note:\n%s", out)
	}
	// With a profiler on, the allocations it makes are in the count, and
	// the line says which ran; "none" says nothing.
	for prof, want := range map[string]string{
		"none":             "; 0 allocs a frame\n",
		"cpuprofile,trace": "; 2.9 allocs a frame (with cpuprofile,trace on, theirs counted)\n",
	} {
		s.Profiling, s.AllocsPerFrame = prof, 0
		if prof != "none" {
			s.AllocsPerFrame = 2.9
		}
		b.Reset()
		if err := s.WriteText(&b); err != nil || !strings.Contains(b.String(), want) {
			t.Errorf("profiling %q: want %q in\n%s", prof, want, b.String())
		}
	}
	s.Profiling = ""
	s.FPSMean, s.AllocsPerFrame = bench.NaN, bench.NaN // no frames
	b.Reset()
	if err := s.WriteText(&b); err != nil || !strings.Contains(b.String(), "150 at – FPS") || !strings.Contains(b.String(), "– allocs a frame") {
		t.Errorf("frame rate and allocations not measured: want – for each:\n%s", b.String())
	}
	s.Judder = bench.NaN // not measured: the probe did not move
	b.Reset()
	if err := s.WriteText(&b); err != nil || !strings.Contains(b.String(), "judder –;") {
		t.Errorf("judder not measured: %v\n%s", err, b.String())
	}
	s.HostFloorWorkMs, s.HostFloorMsP99, s.HostFloorCacheMsP99 = ptr(19.5), ptr(1.1), ptr(9.8)
	b.Reset()
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if want := "19.50 ms of work again and again differs by 1.10 ms (arithmetic) and 9.80 ms (cache-bound)"; !strings.Contains(b.String(), want) {
		t.Errorf("no %q in\n%s", want, b.String())
	}
}

func TestStealWarning(t *testing.T) {
	for _, pct := range []bench.Num{bench.NaN, 0, 0.4, 1.99} {
		if w := StealWarning(pct); w != "" {
			t.Errorf("StealWarning(%v) = %q, want none", pct, w)
		}
	}
	if w := StealWarning(8.94); !strings.Contains(w, "8.9%") || !strings.Contains(w, "host_steal_pct") {
		t.Errorf("StealWarning(8.94) = %q: want the share and the field it is in", w)
	}
}
