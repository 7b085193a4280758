package bench

import (
	"math"
	"testing"

	"github.com/tandem-engine/tandem/simthread"
)

const tick60 = 16_666_667 // ns

// paced returns n frames presented every interval ns, each showing the
// sim time of its present minus a constant, with the probe at 240 px per
// second of that sim time.
func paced(n int, interval int64) []FrameRecord {
	fr := make([]FrameRecord, n)
	for i := range fr {
		p := int64(i)*interval + 1_000_000_000
		sim := p - 30_000_000
		fr[i] = FrameRecord{Start: p - 5_000_000, Present: p, SimShown: sim, ProbeX: float64(sim) * 240 / 1e9, Age: -1}
	}
	return fr
}

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

func TestPerfectlyPaced(t *testing.T) {
	fr := paced(300, tick60)
	r := &Run{Hz: 60, From: 0, To: math.MaxInt64, Frames: fr}
	f := Compute(r)
	if f.AnimErrMsP99 > 1e-6 || f.AnimErrMsRMS > 1e-6 {
		t.Errorf("animation error p99 %v rms %v, want 0", f.AnimErrMsP99, f.AnimErrMsRMS)
	}
	if f.Judder > 1e-9 {
		t.Errorf("judder %v, want 0", f.Judder)
	}
	if !near(f.FPSMean, 1e9/tick60, 1e-6) || f.Hitches != 0 || f.Frames != 300 {
		t.Errorf("fps %v hitches %d frames %d", f.FPSMean, f.Hitches, f.Frames)
	}
	if f.SimBackwardsFrames != 0 || f.SimHeldFrames != 0 {
		t.Errorf("backwards %d held %d", f.SimBackwardsFrames, f.SimHeldFrames)
	}
	if !near(f.ProbeSpeedPxPerSecs, 240, 1e-6) || f.ProbeErrorPxMaxAbs > 1e-6 {
		t.Errorf("probe speed %v, error %v", f.ProbeSpeedPxPerSecs, f.ProbeErrorPxMaxAbs)
	}
}

func TestEveryOtherFrame(t *testing.T) {
	// Presents every T; the picture advances 2T, then not at all: each
	// frame's animation error is ±T, and the speeds 2v, 0, 2v, 0 have a
	// coefficient of variation of exactly 1.
	const T = 10_000_000
	fr := paced(201, T)
	for i := 1; i < len(fr); i += 2 {
		fr[i].SimShown = fr[i-1].SimShown
		fr[i].ProbeX = fr[i-1].ProbeX
	}
	for i := 2; i < len(fr); i += 2 {
		fr[i].SimShown = fr[i-2].SimShown + 2*T
		fr[i].ProbeX = float64(fr[i].SimShown) * 240 / 1e9
	}
	for i, e := range AnimErrors(fr) {
		if !near(math.Abs(e), T/1e6, 1e-9) {
			t.Fatalf("frame %d: animation error %v ms, want ±%v", i+1, e, T/1e6)
		}
	}
	f := Compute(&Run{Hz: 60, To: math.MaxInt64, Frames: fr})
	if !near(f.AnimErrMsP99, 10, 1e-9) || !near(f.AnimErrMsRMS, 10, 1e-9) {
		t.Errorf("p99 %v rms %v, want 10 and 10", f.AnimErrMsP99, f.AnimErrMsRMS)
	}
	if !near(f.Judder, 1, 1e-9) {
		t.Errorf("judder %v, want 1", f.Judder)
	}
	if f.SimHeldFrames != 100 {
		t.Errorf("held %d frames, want 100", f.SimHeldFrames)
	}
}

func TestHitches(t *testing.T) {
	for _, tc := range []struct {
		ms   []float64
		want int
	}{
		{[]float64{16, 16, 16}, 0},
		{[]float64{16, 61, 16}, 1},           // over 60 and over 1.5x
		{[]float64{16, 60, 16}, 0},           // exactly 60 is not over
		{[]float64{50, 70, 16}, 0},           // over 60 but not 1.5x of 50
		{[]float64{16, 100, 200, 16}, 2},     // 200 is over 1.5x of 100
		{[]float64{16, 100, 120, 16}, 1},     // a long frame after a long frame
		{[]float64{100}, 0},                  // the first frame has no frame before it
		{[]float64{16, 16, 90, 16, 95}, 2},   // two separate hitches
		{[]float64{40, 61, 91.6, 30, 10}, 2}, // 61 > 1.5*40, 91.6 > 1.5*61
	} {
		if got := Hitches(tc.ms); got != tc.want {
			t.Errorf("Hitches(%v) = %d, want %d", tc.ms, got, tc.want)
		}
	}
}

func TestPercentileRMSMeanSD(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3, 6, 8, 7, 10, 9}
	for _, tc := range []struct{ q, want float64 }{{0, 1}, {0.1, 1}, {0.5, 5}, {0.51, 6}, {0.99, 10}, {1, 10}} {
		if got := Percentile(xs, tc.q); got != tc.want {
			t.Errorf("Percentile(%v) = %v, want %v", tc.q, got, tc.want)
		}
	}
	if xs[0] != 5 {
		t.Error("Percentile sorted its input")
	}
	if !math.IsNaN(Percentile(nil, 0.5)) || !math.IsNaN(RMS(nil)) {
		t.Error("no values must give NaN")
	}
	if got := RMS([]float64{3, -4, 3, -4}); !near(got, math.Sqrt(12.5), 1e-12) {
		t.Errorf("RMS = %v", got)
	}
	m, sd := MeanSD([]float64{2, 4, 4, 4, 5, 5, 7, 9})
	if m != 5 || sd != 2 {
		t.Errorf("MeanSD = %v, %v, want 5, 2", m, sd)
	}
}

func TestHistQuantile(t *testing.T) {
	inf := math.Inf(1)
	buckets := []float64{math.Inf(-1), 0, 1e-3, 2e-3, 4e-3, inf}
	counts := []uint64{0, 90, 9, 1, 0}
	if got := HistQuantile(counts, buckets, 0.5); got != 1e-3 {
		t.Errorf("p50 = %v, want the upper edge 1e-3", got)
	}
	if got := HistQuantile(counts, buckets, 0.99); got != 2e-3 {
		t.Errorf("p99 = %v, want 2e-3", got)
	}
	if got := HistQuantile(counts, buckets, 1); got != 4e-3 {
		t.Errorf("max = %v, want 4e-3", got)
	}
	if got := HistQuantile([]uint64{0, 0, 0, 0, 3}, buckets, 0.5); got != 4e-3 {
		t.Errorf("the open last bucket: %v, want its lower edge", got)
	}
	if !math.IsNaN(HistQuantile(make([]uint64, 5), buckets, 0.5)) {
		t.Error("an empty histogram must give NaN")
	}
}

func TestTicksAndLatency(t *testing.T) {
	// Ticks due every 10 ms from 0 (Hz 100), each starting 1 ms late and
	// publishing 2 ms after its start; the window is [100 ms, 200 ms).
	r := &Run{Hz: 100, From: 100_000_000, To: 200_000_000}
	for k := uint64(0); k < 30; k++ {
		due := int64(k) * 10_000_000
		r.Ticks = append(r.Ticks, simthread.TickRecord{Tick: k, Due: due, Start: due + 1_000_000, End: due + 3_000_000})
	}
	if got := r.TPS(); !near(got, 100, 1e-9) {
		t.Errorf("TPS = %v, want 100", got)
	}
	lat := r.TickLateness()
	if len(lat) != 10 {
		t.Fatalf("%d ticks in the window, want 10", len(lat))
	}
	for _, l := range lat {
		if l != 1 {
			t.Fatalf("lateness %v ms, want 1", l)
		}
	}
	// A frame presented at 157 ms showing the state after 15 ticks (made
	// by tick 14, which started at 141 ms): latency 16 ms.
	fr := []FrameRecord{{Start: 150_000_000, Present: 157_000_000, Tick: 15, SimShown: 140_000_000}}
	if got := r.Latencies(fr); len(got) != 1 || !near(got[0], 16, 1e-9) {
		t.Errorf("Latencies = %v, want [16]", got)
	}
	if got := r.Latencies([]FrameRecord{{Tick: 0}, {Tick: 99}}); len(got) != 0 {
		t.Errorf("frames with no recorded tick gave %v", got)
	}
}

func TestInputLatencies(t *testing.T) {
	// An input stamped at 105 ms applied at tick 11 (which starts at sim
	// time 110 ms at 100 Hz): the first frame showing more than 110 ms of
	// sim time is presented at 130 ms, so 25 ms.
	r := &Run{Hz: 100, From: 100_000_000, To: 200_000_000,
		Inputs: []simthread.InputRecord{
			{Stamp: 105_000_000, Tick: 11, Kind: simthread.EventButton},
			{Stamp: 106_000_000, Tick: 11, Kind: simthread.EventPause},  // not a button
			{Stamp: 50_000_000, Tick: 5, Kind: simthread.EventButton},   // before the window
			{Stamp: 190_000_000, Tick: 19, Kind: simthread.EventButton}, // never shown
		}}
	fr := []FrameRecord{
		{Present: 120_000_000, SimShown: 105_000_000},
		{Present: 125_000_000, SimShown: 110_000_000}, // exactly the tick's start: not yet
		{Present: 130_000_000, SimShown: 112_000_000},
		{Present: 140_000_000, SimShown: 122_000_000},
	}
	got := r.InputLatencies(fr)
	if len(got) != 1 || !near(got[0], 25, 1e-9) {
		t.Fatalf("InputLatencies = %v, want [25]", got)
	}
}

func TestComputeWindow(t *testing.T) {
	// Frames before From (the warm-up) and from To on are left out.
	fr := paced(100, 10_000_000) // presents from 1 s, every 10 ms
	for i := range 20 {
		fr[i].SimShown = 0 // a wild warm-up
	}
	fr[90].SimShown = 0 // and a wild frame after the window
	r := &Run{Hz: 60, From: fr[20].Start, To: fr[90].Start, Frames: fr}
	f := Compute(r)
	if f.Frames != 70 || f.AnimErrMsP99 > 1e-9 || f.SimBackwardsFrames != 0 {
		t.Fatalf("frames %d, anim err %v, backwards %d: the window leaked", f.Frames, f.AnimErrMsP99, f.SimBackwardsFrames)
	}
	fr[50].SimShown -= 11_000_000 // 1 ms before frame 49
	if f := Compute(r); f.SimBackwardsFrames != 1 {
		t.Fatalf("backwards = %d, want 1", f.SimBackwardsFrames)
	}
}

func TestProbeErrorsHoldAndCatchUp(t *testing.T) {
	// The picture holds for 3 frames, then jumps back onto the line: the
	// error falls while held and returns to 0.
	fr := paced(60, 10_000_000)
	for i := 30; i < 33; i++ {
		fr[i].ProbeX = fr[29].ProbeX
	}
	pe := ProbeErrors(fr)
	if !near(pe[10], 0, 1e-9) || !near(pe[40], 0, 1e-9) {
		t.Fatalf("error away from the hold: %v, %v", pe[10], pe[40])
	}
	for i, want := range []float64{-2.4, -4.8, -7.2} { // 240 px/s x 10, 20, 30 ms
		if !near(pe[30+i], want, 1e-6) {
			t.Fatalf("frame %d of the hold: error %v px, want %v", i, pe[30+i], want)
		}
	}
}

func TestJudderPixels(t *testing.T) {
	// At 2.4 px a frame the whole-pixel positions step 2, 3, 2, 3, 2: the
	// rounding alone shows as judder where the exact positions have none.
	fr := paced(200, 10_000_000)
	if j := Judder(fr); j > 1e-9 {
		t.Fatalf("judder %v", j)
	}
	if j := JudderPixels(fr); !(j > 0.1 && j < 0.3) {
		t.Fatalf("judder from whole pixels %v, want about 0.2", j)
	}
}

func TestFramesRing(t *testing.T) {
	f := NewFrames(4)
	for i := range int64(3) {
		f.Add(FrameRecord{Start: i})
	}
	recs, lost := f.Records()
	if len(recs) != 3 || lost != 0 || recs[0].Start != 0 || recs[2].Start != 2 {
		t.Fatalf("before wrapping: %v lost %d", recs, lost)
	}
	for i := int64(3); i < 10; i++ {
		f.Add(FrameRecord{Start: i})
	}
	recs, lost = f.Records()
	if lost != 6 || len(recs) != 4 {
		t.Fatalf("after wrapping: %d records, lost %d; want 4 and 6", len(recs), lost)
	}
	for i, r := range recs {
		if r.Start != int64(6+i) {
			t.Fatalf("record %d is frame %d, want %d (oldest first)", i, r.Start, 6+i)
		}
	}
	var before, after runtimeMallocs
	before.read()
	for i := range int64(10_000) {
		f.Add(FrameRecord{Start: i})
	}
	after.read()
	if after.n != before.n {
		t.Fatalf("Add allocated %d times", after.n-before.n)
	}
}
