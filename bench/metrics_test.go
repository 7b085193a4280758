package bench

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/mallocs"
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

func near[A ~float64](a A, b, eps float64) bool { return math.Abs(float64(a)-b) <= eps }

func TestPerfectlyPaced(t *testing.T) {
	fr := paced(300, tick60)
	r := &Records{Hz: 60, From: 0, To: math.MaxInt64, Frames: fr}
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
		// A held frame lags by T, the next jumps ahead by T.
		want := T / 1e6
		if i%2 == 0 {
			want = -want
		}
		if !near(e, want, 1e-9) {
			t.Fatalf("frame %d: animation error %v ms, want %v", i+1, e, want)
		}
	}
	f := Compute(&Records{Hz: 60, To: math.MaxInt64, Frames: fr})
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
	r := &Records{Hz: 100, From: 100_000_000, To: 200_000_000}
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
	r := &Records{Hz: 100, From: 100_000_000, To: 200_000_000,
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
	r := &Records{Hz: 60, From: fr[20].Start, To: fr[90].Start, Frames: fr}
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
	if n := mallocs.Fewest(3, func() {
		for i := range int64(10_000) {
			f.Add(FrameRecord{Start: i})
		}
	}); n != 0 {
		t.Fatalf("Add allocated %d times", n)
	}
}

func TestFPS(t *testing.T) {
	at := func(presents ...int64) []FrameRecord {
		fr := make([]FrameRecord, len(presents))
		for i, p := range presents {
			fr[i].Present = p
		}
		return fr
	}
	for _, tc := range []struct {
		name string
		fr   []FrameRecord
		want float64
	}{
		{"three frames 10 ms apart", at(0, 10e6, 20e6), 100},
		{"uneven intervals count, not their spread", at(5e6, 6e6, 30e6, 55e6), 60},
		{"fifty-one frames 20 ms apart", paced(51, 20_000_000), 50},
		{"no frames", nil, math.NaN()},
		{"one frame", at(7), math.NaN()},
		{"no time between", at(7, 7), math.NaN()},
	} {
		got := FPS(tc.fr)
		if !(near(got, tc.want, 1e-9) || math.IsNaN(tc.want) && math.IsNaN(got)) {
			t.Errorf("%s: FPS = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestPacedAtAnyRateWithJitter(t *testing.T) {
	// Property: when the sim time shown advances exactly as much as the
	// present time, however unevenly the frames are presented, there is no
	// animation error and the probe (240 px per second of sim time) moves
	// at one speed: no judder. The rest of the figures follow the presents.
	rng := rand.New(rand.NewPCG(1, 2))
	for _, hz := range []float64{30, 60, 144, 240} {
		for range 20 {
			interval := 1e9 / hz
			fr := make([]FrameRecord, 200)
			p := int64(1_000_000_000)
			for i := range fr {
				sim := p - 40_000_000
				fr[i] = FrameRecord{Start: p - 3_000_000, Present: p, SimShown: sim, ProbeX: float64(sim) * 240 / 1e9, Age: -1}
				p += int64(interval * (0.5 + rng.Float64())) // 0.5 to 1.5 frames
			}
			f := Compute(&Records{Hz: 60, To: math.MaxInt64, Frames: fr})
			wantFPS := 199 / (float64(fr[199].Present-fr[0].Present) / 1e9)
			if f.AnimErrMsP99 != 0 || f.AnimErrMsRMS != 0 || f.Judder > 1e-9 || !near(f.FPSMean, wantFPS, 1e-9) ||
				f.SimHeldFrames != 0 || f.SimBackwardsFrames != 0 || f.ProbeErrorPxMaxAbs > 1e-6 || !near(f.ProbeSpeedPxPerSecs, 240, 1e-6) {
				t.Fatalf("%v Hz: %+v", hz, f)
			}
		}
	}
}

func TestHitchEdges(t *testing.T) {
	for _, tc := range []struct {
		ms   []float64
		want int
	}{
		{nil, 0},
		{[]float64{60, 90}, 0},          // exactly 1.5x is not more than 1.5x
		{[]float64{60, 90.001}, 1},      // just over both
		{[]float64{40, 60.001}, 1},      // just over 60 and 1.5x of 40
		{[]float64{100, 100, 100}, 0},   // a run of long frames is one long stall, not hitches
		{[]float64{1000, 61, 200}, 1},   // only the jump counts: 200 > 1.5x 61
		{[]float64{0, 61}, 1},           // after a zero-length frame
		{[]float64{16, 16, 16, 16}, 0},  // smooth
		{[]float64{16, 59.999, 16}, 0},  // under 60
		{[]float64{16, 60.0001, 16}, 1}, // over 60
	} {
		if got := Hitches(tc.ms); got != tc.want {
			t.Errorf("Hitches(%v) = %d, want %d", tc.ms, got, tc.want)
		}
	}
	// Property: every hitch is a frame over 60 ms, so there are never more
	// hitches than such frames, and none where there are none.
	rng := rand.New(rand.NewPCG(5, 6))
	for range 1000 {
		ms := make([]float64, rng.IntN(50))
		over := 0
		for i := range ms {
			ms[i] = rng.Float64() * 150
			if ms[i] > 60 {
				over++
			}
		}
		if h := Hitches(ms); h > over {
			t.Fatalf("Hitches(%v) = %d, more than the %d frames over 60 ms", ms, h, over)
		}
	}
}

func TestPercentileNearestRank(t *testing.T) {
	// Property, over random samples and q: the result is one of the
	// values; at least ceil(q*n) values are at or below it (at least one),
	// and fewer are strictly below it: the smallest such value.
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		xs := make([]float64, 1+rng.IntN(40))
		for i := range xs {
			xs[i] = float64(rng.IntN(10)) // ties are common
		}
		q := rng.Float64()
		if rng.IntN(5) == 0 {
			q = float64(rng.IntN(5)) / 4 // 0, 0.25, 0.5, 0.75, 1 exactly
		}
		got := Percentile(xs, q)
		var atOrBelow, below int
		for _, x := range xs {
			if x <= got {
				atOrBelow++
			}
			if x < got {
				below++
			}
		}
		rank := max(int(math.Ceil(q*float64(len(xs)))), 1)
		if !slices.Contains(xs, got) || atOrBelow < rank || below >= rank {
			t.Fatalf("Percentile(%v, %v) = %v: %d values at or below, %d below, rank %d", xs, q, got, atOrBelow, below, rank)
		}
	}
	if got := Percentile([]float64{42}, 0.99); got != 42 {
		t.Errorf("one value: %v", got)
	}
}

func TestMeanSDRMSProperties(t *testing.T) {
	// RMS² = mean² + SD² (population SD); shifting every value shifts the
	// mean and leaves the SD; scaling scales both.
	rng := rand.New(rand.NewPCG(7, 8))
	for range 500 {
		xs := make([]float64, 1+rng.IntN(30))
		for i := range xs {
			xs[i] = rng.NormFloat64()*3 + 1
		}
		m, sd := MeanSD(xs)
		if r := RMS(xs); !near(r*r, m*m+sd*sd, 1e-9) || sd < 0 {
			t.Fatalf("%v: rms %v, mean %v, sd %v", xs, r, m, sd)
		}
		c := rng.Float64()*100 - 50
		shifted := make([]float64, len(xs))
		scaled := make([]float64, len(xs))
		for i, x := range xs {
			shifted[i], scaled[i] = x+c, x*-2
		}
		if m2, sd2 := MeanSD(shifted); !near(m2, m+c, 1e-9) || !near(sd2, sd, 1e-9) {
			t.Fatalf("shifted by %v: mean %v sd %v, want %v %v", c, m2, sd2, m+c, sd)
		}
		if m2, sd2 := MeanSD(scaled); !near(m2, -2*m, 1e-9) || !near(sd2, 2*sd, 1e-9) {
			t.Fatalf("scaled by -2: mean %v sd %v, want %v %v", m2, sd2, -2*m, 2*sd)
		}
	}
	if m, sd := MeanSD([]float64{7}); m != 7 || sd != 0 {
		t.Errorf("one value: %v, %v", m, sd)
	}
	if m, sd := MeanSD(nil); !math.IsNaN(m) || !math.IsNaN(sd) {
		t.Errorf("no values: %v, %v", m, sd)
	}
}

func TestHistQuantileEdges(t *testing.T) {
	// runtime/metrics' histograms open with a bucket from -Inf and close
	// with one to +Inf. A quantile in the first is bounded by its upper
	// edge; one in the last by its lower edge (the only finite one).
	buckets := []float64{math.Inf(-1), 0, 1, 2, math.Inf(1)}
	for _, tc := range []struct {
		counts []uint64
		q      float64
		want   float64
	}{
		{[]uint64{4, 0, 0, 0}, 0.5, 0},  // all in [-Inf, 0)
		{[]uint64{1, 1, 1, 1}, 0.25, 0}, // the first value
		{[]uint64{1, 1, 1, 1}, 0.26, 1},
		{[]uint64{1, 1, 1, 1}, 0.75, 2},
		{[]uint64{1, 1, 1, 1}, 0.76, 2}, // in [2, +Inf): its lower edge
		{[]uint64{1, 1, 1, 1}, 1, 2},
		{[]uint64{0, 5, 0, 0}, 0, 1}, // q = 0 is the smallest value's bucket
		{[]uint64{0, 0, 0, 9}, 0.5, 2},
	} {
		if got := HistQuantile(tc.counts, buckets, tc.q); got != tc.want {
			t.Errorf("HistQuantile(%v, %v) = %v, want %v", tc.counts, tc.q, got, tc.want)
		}
	}
	// Property: the result is the finite edge of the bucket that holds the
	// nearest-rank quantile of the values binned: its upper edge (so a
	// bound on it), or its lower edge in the bucket to +Inf.
	rng := rand.New(rand.NewPCG(9, 10))
	edges := []float64{math.Inf(-1)}
	for e := -9.0; e <= 0; e++ {
		edges = append(edges, math.Pow(10, e))
	}
	edges = append(edges, math.Inf(1))
	bucket := func(x float64) int {
		i := 0
		for x >= edges[i+1] {
			i++
		}
		return i
	}
	for range 2000 {
		counts := make([]uint64, len(edges)-1)
		var xs []float64
		for i := range counts {
			counts[i] = uint64(rng.IntN(3))
			for range counts[i] {
				var x float64
				switch {
				case i == 0:
					x = edges[1] - rng.Float64() // below the first finite edge
				case i == len(counts)-1:
					x = edges[i] + 10*rng.Float64()
				default:
					x = edges[i] + (edges[i+1]-edges[i])*rng.Float64()
				}
				xs = append(xs, x)
			}
		}
		if len(xs) == 0 {
			continue
		}
		q := rng.Float64()
		i := bucket(Percentile(xs, q))
		want := edges[i+1]
		if i == len(counts)-1 {
			want = edges[i]
		}
		if got := HistQuantile(counts, edges, q); got != want {
			t.Fatalf("HistQuantile(%v, %v) = %v; the values' quantile is in bucket %d, want %v", counts, q, got, i, want)
		}
	}
}

func TestTickWindowOnStart(t *testing.T) {
	// A tick counts in the window [From, To) by when it started, not when
	// it was due: a tick due before From that started at From is in; one
	// that started at To is out.
	const ms = 1_000_000
	r := &Records{Hz: 100, From: 100 * ms, To: 200 * ms, Ticks: []simthread.TickRecord{
		{Tick: 9, Due: 90 * ms, Start: 99 * ms},   // out: started before From
		{Tick: 10, Due: 95 * ms, Start: 100 * ms}, // in: due before From, started at it, 5 ms late
		{Tick: 11, Due: 110 * ms, Start: 110 * ms},
		{Tick: 12, Due: 120 * ms, Start: 123 * ms},
		{Tick: 13, Due: 190 * ms, Start: 199 * ms}, // in: started just before To
		{Tick: 14, Due: 195 * ms, Start: 200 * ms}, // out: started at To, though due before it
		{Tick: 15, Due: 198 * ms, Start: 201 * ms}, // out: started after To
	}}
	if got, want := r.TickLateness(), []float64{5, 0, 3, 9}; !slices.Equal(got, want) {
		t.Errorf("TickLateness = %v, want %v", got, want)
	}
	if got := r.TPS(); !near(got, 40, 1e-9) { // 4 ticks in 100 ms
		t.Errorf("TPS = %v, want 40", got)
	}
	if _, ticks := r.Window(); len(ticks) != 4 || ticks[0].Tick != 10 || ticks[3].Tick != 13 {
		t.Errorf("Window's ticks: %+v", ticks)
	}
	if got := (&Records{From: 5, To: 5}).TPS(); !math.IsNaN(got) {
		t.Errorf("TPS of an empty window = %v, want NaN", got)
	}
	if got := (&Records{From: 0, To: 1e9}).TickLateness(); len(got) != 0 {
		t.Errorf("TickLateness with no ticks = %v", got)
	}
}

func TestLatenciesFindTheTick(t *testing.T) {
	// The log keeps the newest ticks: the first kept may be tick 1000. A
	// frame showing the state after k ticks is measured from the start of
	// tick k-1, found by its index, or by a search when a record is
	// missing; a frame whose tick was not kept is left out.
	const ms = 1_000_000
	var r Records
	for k := uint64(1000); k < 1010; k++ {
		if k == 1004 {
			continue // a gap: the records after it are off by one
		}
		r.Ticks = append(r.Ticks, simthread.TickRecord{Tick: k, Start: int64(k) * 10 * ms})
	}
	fr := []FrameRecord{
		{Tick: 1001, Present: 10_001 * ms}, // tick 1000 started at 10 000 ms
		{Tick: 1004, Present: 10_040 * ms}, // tick 1003, before the gap
		{Tick: 1008, Present: 10_085 * ms}, // tick 1007, after it: 15 ms
		{Tick: 1010, Present: 10_100 * ms}, // tick 1009, the last kept
		{Tick: 1005, Present: 10_050 * ms}, // tick 1004: not recorded
		{Tick: 1000, Present: 10_000 * ms}, // tick 999: before the first kept
		{Tick: 1011, Present: 10_110 * ms}, // tick 1010: not yet recorded
		{Tick: 0, Present: 10_000 * ms},    // no tick shown yet
	}
	if got, want := r.Latencies(fr), []float64{1, 10, 15, 10}; !slices.Equal(got, want) {
		t.Errorf("Latencies = %v, want %v", got, want)
	}
}

func TestInputLatenciesWindowEdges(t *testing.T) {
	// Button events stamped in [From, To) are measured: at From in, at To
	// out. Two events applied at the same tick are measured to the same
	// frame, each from its own stamp.
	const ms = 1_000_000
	r := &Records{Hz: 100, From: 100 * ms, To: 200 * ms, Inputs: []simthread.InputRecord{
		{Stamp: 100 * ms, Tick: 10, Kind: simthread.EventButton}, // at From: in
		{Stamp: 200 * ms, Tick: 20, Kind: simthread.EventButton}, // at To: out
		{Stamp: 141 * ms, Tick: 15, Kind: simthread.EventButton},
		{Stamp: 148 * ms, Tick: 15, Kind: simthread.EventButton},
		{Stamp: 150 * ms, Tick: 15, Kind: simthread.EventStep}, // not a button
	}}
	var fr []FrameRecord
	for p := int64(100); p < 300; p += 10 {
		fr = append(fr, FrameRecord{Present: p * ms, SimShown: (p - 25) * ms})
	}
	// Tick 10 starts at sim time 100 ms: first shown past it by the frame
	// presented at 130 ms (sim 105 ms). Tick 15 at 150 ms: the frame at
	// 180 ms.
	if got, want := r.InputLatencies(fr), []float64{30, 39, 32}; !slices.Equal(got, want) {
		t.Errorf("InputLatencies = %v, want %v", got, want)
	}
}

func TestComputeFrameCounters(t *testing.T) {
	// The per-frame fields: overdue and extrapolated frames are counted,
	// the delay's median taken, and the snapshot age only from frames that
	// drew a snapshot first (Age >= 0).
	fr := paced(10, 10_000_000)
	for i := range fr {
		fr[i].Delay = int64(i) * 1_000_000 // 0 to 9 ms
		fr[i].Alpha = 0.5
	}
	fr[2].Overdue, fr[7].Overdue = true, true
	fr[3].Alpha, fr[4].Alpha = 1.2, 1 // 1 is the newest snapshot itself, not past it
	fr[1].Age, fr[5].Age, fr[6].Age = 0, 4_000_000, 0
	f := Compute(&Records{Hz: 60, To: math.MaxInt64, Frames: fr})
	if f.OverdueFrames != 2 || f.ExtrapolatedFrames != 1 {
		t.Errorf("overdue %d extrapolated %d, want 2 and 1", f.OverdueFrames, f.ExtrapolatedFrames)
	}
	if f.DelayMsP50 != 4 {
		t.Errorf("delay p50 %v ms, want 4", f.DelayMsP50)
	}
	if f.SnapshotAgeMsP50 != 0 || f.SnapshotAgeMsP99 != 4 {
		t.Errorf("snapshot age p50 %v p99 %v, want 0 and 4 (of 0, 0, 4)", f.SnapshotAgeMsP50, f.SnapshotAgeMsP99)
	}
	if f := Compute(&Records{Hz: 60, To: math.MaxInt64}); f.Frames != 0 || !math.IsNaN(float64(f.FPSMean)) || !math.IsNaN(float64(f.AnimErrMsP99)) || !math.IsNaN(float64(f.SnapshotAgeMsP50)) {
		t.Errorf("no frames: %+v; want NaN figures", f)
	}
}

func TestAnimErrorTail(t *testing.T) {
	// 101 evenly paced frames, two presented 5 ms late and two 1 ms late:
	// each late frame is error twice (late, then the jump back), so of the
	// 100 errors 4 are 5 ms, 4 are 1 ms and 92 are 0. Over 2 ms: 4; the
	// 95th percentile is 1 ms, the 99th 5.
	fr := paced(101, 10_000_000)
	for _, k := range []int{20, 60} {
		fr[k].Present += 5_000_000
	}
	for _, k := range []int{35, 80} {
		fr[k].Present += 1_000_000
	}
	f := Compute(&Records{Hz: 60, To: math.MaxInt64, Frames: fr})
	if f.AnimErrOver2ms != 4 || !near(f.AnimErrMsP95, 1, 1e-9) || !near(f.AnimErrMsP99, 5, 1e-9) {
		t.Fatalf("over 2 ms %d, p95 %v, p99 %v; want 4, 1 and 5", f.AnimErrOver2ms, f.AnimErrMsP95, f.AnimErrMsP99)
	}
}

func TestAnimErrorOnSchedule(t *testing.T) {
	// The schedule runs at scale (1 real time; 0.5 and 0.25 slow motion,
	// chosen or forced by a clamped overload): tick k is due at
	// k*tick/scale. A picture that shows the moment its present falls on,
	// on that schedule, is perfectly paced: 0 animation error on the
	// schedule, whatever the scale, where sim time alone would count every
	// frame of slow motion as lagging by (1-scale) of its interval.
	const interval = 10_000_000
	for _, scale := range []float64{1, 0.5, 0.25} {
		ticks := make([]simthread.TickRecord, 0, 400)
		for k := range uint64(400) {
			due := int64(math.Round(float64(k) * 1e9 / 60 / scale))
			ticks = append(ticks, simthread.TickRecord{Tick: k, Due: due, Start: due, End: due + 100_000})
		}
		r := &Records{Hz: 60, To: math.MaxInt64, Ticks: ticks}
		var fr []FrameRecord
		for i := range int64(300) {
			p := 100_000_000 + i*interval
			w := p - 30_000_000 // the moment shown, on the schedule
			// The state after j ticks is shown fully at tick j's due.
			sim := int64(math.Round(float64(w) * scale))
			fr = append(fr, FrameRecord{Present: p, SimShown: sim, Age: -1})
		}
		r.Frames = fr
		f := Compute(r)
		if f.AnimErrMsP99 > 1e-5 || f.AnimErrOver2ms != 0 {
			t.Errorf("scale %v: anim_err_ms_p99 %v on the schedule, want 0", scale, f.AnimErrMsP99)
		}
		raw := AnimErrors(fr)
		if want := -(1 - scale) * interval / 1e6; !near(raw[len(raw)/2], want, 1e-5) {
			t.Errorf("scale %v: sim-time error %v, want %v", scale, raw[len(raw)/2], want)
		}
		// The run ended before the tick after the last frame's state: the
		// schedule moves on at its pace.
		// A coupled frame shows the newest state, whose own tick (the
		// next frame's first) never ran: the same, a tick further on.
		last := uint64(fr[len(fr)-1].SimShown) * 60 / 1e9
		for _, keep := range []uint64{last + 1, last} {
			r.Ticks = ticks[:keep]
			if f := Compute(r); f.AnimErrMsP99 > 1e-5 {
				t.Errorf("scale %v, ticks up to %d, frames up to state %d: anim_err_ms_p99 %v, want 0", scale, keep, last, f.AnimErrMsP99)
			}
		}
	}
	// No tick records: the frames as they are.
	fr := paced(10, tick60)
	if got := (&Records{Hz: 60}).OnSchedule(fr); &got[0] != &fr[0] {
		t.Error("OnSchedule without ticks copied the frames")
	}
}

func TestUnevenness(t *testing.T) {
	ms := int64(time.Millisecond)
	got := Unevenness([]int64{19 * ms, 21 * ms, 21 * ms, 18 * ms})
	want := []float64{2, 0, 3}
	if !slices.Equal(got, want) {
		t.Fatalf("Unevenness = %v, want %v", got, want)
	}
	if Unevenness([]int64{ms}) != nil {
		t.Fatal("one duration has no unevenness")
	}
	// Its 99th percentile is the largest of the three here, and one
	// difference of three is over 2 ms.
	if p99, over, ok := UnevennessFigures([]int64{19 * ms, 21 * ms, 21 * ms, 18 * ms}); !ok || p99 != 3 || !near(over, 100.0/3, 1e-12) {
		t.Fatalf("UnevennessFigures = %v, %v, %v; want 3, 33.3, true", p99, over, ok)
	}
	if _, _, ok := UnevennessFigures([]int64{ms}); ok {
		t.Fatal("one duration has figures")
	}
	if n := CountOver([]float64{1, 2, 2.5, 7}, 2); n != 2 {
		t.Fatalf("CountOver = %d, want 2 (over, not at)", n)
	}
}

func TestFrameWorkMs(t *testing.T) {
	ms := int64(time.Millisecond)
	fr := []FrameRecord{
		{Decide: 100 * ms, Present: 119 * ms},
		{Decide: 0, Present: 140 * ms},        // no decision recorded
		{Decide: 150 * ms, Present: 149 * ms}, // a present before it: not a frame's work
		{Decide: 160 * ms, Present: 180*ms + ms/2},
	}
	got := FrameWorkMs(fr)
	if want := []float64{19, 20.5}; !slices.Equal(got, want) {
		t.Fatalf("FrameWorkMs = %v, want %v", got, want)
	}
}

func TestCorrelation(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	x := []float64{1, 2, 3, 4}
	if c := Correlation(x, []float64{2, 4, 6, 8}); !near(c, 1) {
		t.Errorf("together: %v, want 1", c)
	}
	if c := Correlation(x, []float64{8, 6, 4, 2}); !near(c, -1) {
		t.Errorf("opposite: %v, want -1", c)
	}
	if c := Correlation(x, []float64{1, -1, -1, 1}); !near(c, 0) {
		t.Errorf("unrelated: %v, want 0", c)
	}
	if c := Correlation(x, []float64{5, 5, 5, 5}); !math.IsNaN(c) {
		t.Errorf("one does not vary: %v, want NaN", c)
	}
	if c := Correlation([]float64{1}, []float64{2}); !math.IsNaN(c) {
		t.Errorf("one pair: %v, want NaN", c)
	}
}

// TestOnTimeSlideshow checks that the on-time share ranks a slideshow
// below smooth motion, where judder calls both perfect: even frames at 60
// FPS and faster are on time all the time; even 130 ms frames only for
// their first 16.7 ms; a frame that holds its picture for two refreshes
// then jumps loses the second refresh.
func TestOnTimeSlideshow(t *testing.T) {
	even := func(n int, every int64) []FrameRecord {
		fr := make([]FrameRecord, n)
		for i := range fr {
			fr[i] = FrameRecord{Present: int64(i) * every, SimShown: int64(i) * every, ProbeX: float64(i) * float64(every) / 1e6}
		}
		return fr
	}
	for _, c := range []struct {
		name string
		fr   []FrameRecord
		want float64
	}{
		{"60 fps", even(100, 16_666_667), 100},
		{"240 fps", even(100, 4_166_667), 100},
		{"slideshow 130 ms", even(20, 130_000_000), 100 * OnTimeTolMs / 130},
	} {
		if got := OnTime(c.fr); math.Abs(got-c.want) > 0.01 {
			t.Errorf("%s: on time %.3f%%, want %.3f%%", c.name, got, c.want)
		}
		if j := Judder(c.fr); j > 1e-6 {
			t.Errorf("%s: judder %v: even frames should have none (the point of OnTime)", c.name, j)
		}
	}
	// 60 FPS, but every other picture held for a refresh and then the
	// motion jumps two ticks: the held picture is behind by up to a
	// refresh (on time), then the one before the jump is behind by one to
	// two refreshes (late).
	fr := even(101, 16_666_667)
	for i := 1; i < len(fr); i += 2 {
		fr[i].SimShown = fr[i-1].SimShown
	}
	if got := OnTime(fr); got < 45 || got > 55 {
		t.Errorf("held every other frame: on time %.1f%%, want about 50%%", got)
	}
	if !math.IsNaN(OnTime(fr[:1])) {
		t.Error("one frame: want NaN (no display time)")
	}
}
