package bench

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/tandem-engine/tandem/internal/mallocs"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

func TestHistogramBound(t *testing.T) {
	// Property: every quantile of values of any sign and magnitude (from
	// 1 ns to an hour in ms, zeros, repeats) is within HistRelErr of the
	// exact nearest-rank one; 0 and 1 are the exact minimum and maximum.
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		n := 1 + rng.IntN(3000)
		xs := make([]float64, n)
		for i := range xs {
			switch rng.IntN(10) {
			case 0:
				xs[i] = 0
			case 1:
				xs[i] = xs[rng.IntN(i+1)] // a repeat
			default:
				xs[i] = math.Pow(10, -6+rng.Float64()*12.6) // 1 ns to 1 h
				if trial%3 == 0 && rng.IntN(3) == 0 {
					xs[i] = -xs[i]
				}
			}
		}
		h := NewHistogram()
		for _, x := range xs {
			h.Add(x)
		}
		if h.Count() != uint64(n) {
			t.Fatalf("count %d, want %d", h.Count(), n)
		}
		for _, q := range []float64{0, 0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1, rng.Float64()} {
			want, got := Percentile(xs, q), h.Quantile(q)
			if math.Abs(got-want) > HistRelErr*math.Abs(want) {
				t.Fatalf("trial %d: q %v of %d values: %v, exact %v: off by %.3g of it, bound %.3g",
					trial, q, n, got, want, math.Abs(got-want)/math.Abs(want), HistRelErr)
			}
		}
		if h.Quantile(0) != slices.Min(xs) || h.Quantile(1) != slices.Max(xs) || h.Max() != slices.Max(xs) {
			t.Fatalf("ends %v %v, want %v %v", h.Quantile(0), h.Quantile(1), slices.Min(xs), slices.Max(xs))
		}
	}
	// The bound is tight where it is claimed: a value just above a
	// bucket's lower edge is read at the bucket's middle.
	h := NewHistogram()
	h.Add(1)
	h.Add(1)
	h.Add(2)
	if got := h.Quantile(0.5); got != 1+HistRelErr {
		t.Fatalf("median of 1, 1, 2: %v, want the bucket's middle %v", got, 1+HistRelErr)
	}
	empty := NewHistogram()
	empty.Add(math.NaN())
	if !math.IsNaN(empty.Quantile(0.5)) || !math.IsNaN(empty.Max()) || empty.Count() != 0 {
		t.Fatal("an empty histogram (NaN is not counted) has no quantile")
	}
}

// synthRun is a made-up run on a fake clock: Hz 60, frames at about 843
// FPS (jittered, a hitch now and then) drawn 2 ms behind the newest
// snapshot the sim had published, ticks that start late by up to 20 ms,
// a button press every 250 ms. The records are as the loop writes them.
func synthRun(frames int, seed uint64) *Records {
	rng := rand.New(rand.NewPCG(seed, 7))
	r := &Records{Hz: 60, Frames: make([]FrameRecord, 0, frames)}
	// tick k is due at SimTime(k) + 100 ms.
	const base = 100_000_000
	var end int64
	addTicks := func(upTo int64) {
		for k := uint64(len(r.Ticks)); r.SimTime(k)+base <= upTo; k++ {
			due := r.SimTime(k) + base
			late := 50_000 + rng.Int64N(1_000_000)
			if rng.IntN(100) == 0 {
				late = 5_000_000 + rng.Int64N(15_000_000)
			}
			start := max(due+late, end)
			end = start + 500_000 + rng.Int64N(1_000_000)
			r.Ticks = append(r.Ticks, simthread.TickRecord{Tick: k, Due: due, Start: start, End: end})
		}
	}
	p, nextIn, shownTick := int64(200_000_000), int64(300_000_000), uint64(0)
	newest := -1 // the newest tick published by the frame's decision
	for range frames {
		iv := int64(1_186_000 * (0.6 + 0.8*rng.Float64()))
		if rng.IntN(1000) == 0 {
			iv += 70_000_000 + rng.Int64N(50_000_000)
		}
		prev := p
		p += iv
		start := max(p-300_000-rng.Int64N(700_000), prev+1)
		decide := start + 50_000
		addTicks(decide + 50_000_000)
		for newest+1 < len(r.Ticks) && r.Ticks[newest+1].End <= decide {
			newest++
		}
		for nextIn <= decide {
			k := uint64(sort.Search(len(r.Ticks), func(i int) bool { return r.Ticks[i].Start >= nextIn }))
			kind := simthread.EventButton
			if len(r.Inputs)%5 == 4 {
				kind = simthread.EventPointer
			}
			r.Inputs = append(r.Inputs, simthread.InputRecord{Stamp: nextIn, Tick: k, Kind: kind})
			nextIn += 250_000_000 + rng.Int64N(2_000_000)
		}
		tick := uint64(newest + 1)
		want := decide - base - 2_000_000 // the moment shown, on the sim's time
		s := min(want, r.SimTime(tick))
		x := FrameRecord{Start: start, Decide: decide, Present: p, SimShown: s, ProbeX: float64(s) * 240 / 1e9, Tick: tick,
			Age: -1, Overdue: want > s, Delay: 2_000_000, Alpha: 1}
		if tick != shownTick {
			x.Age = decide - r.Ticks[newest].End
			shownTick = tick
		}
		if rng.IntN(50) == 0 {
			x.Hold = rng.Int64N(3_000_000)
		}
		if rng.IntN(500) == 0 {
			x.Alpha = 1.1
		}
		r.Frames = append(r.Frames, x)
	}
	addTicks(p + 100_000_000) // the sim runs on until it is stopped
	r.From, r.To = 1_000_000_000, r.Frames[len(r.Frames)-1].Start-500_000_000
	return r
}

// fakeLog is a [Source] over a run's records, in rings of its own
// capacities, writing them as the clock passes: a tick when it has
// published, an input when its tick starts.
type fakeLog struct {
	r                   *Records
	ticksCap, inputsCap uint64
	nt, ni              uint64 // written
}

func (l *fakeLog) advance(now int64) {
	for l.nt < uint64(len(l.r.Ticks)) && l.r.Ticks[l.nt].End <= now {
		l.nt++
	}
	for l.ni < uint64(len(l.r.Inputs)) && l.r.Ticks[l.r.Inputs[l.ni].Tick].Start <= now {
		l.ni++
	}
}

func (l *fakeLog) all() { l.nt, l.ni = uint64(len(l.r.Ticks)), uint64(len(l.r.Inputs)) }

func readFake[T any](src []T, written, c uint64, dst []T, from uint64) (int, uint64) {
	var lost uint64
	if written > c && from < written-c {
		lost, from = written-c-from, written-c
	}
	n := copy(dst, src[from:written])
	return n, lost
}

func (l *fakeLog) ReadTicks(dst []simthread.TickRecord, from uint64) (int, uint64) {
	return readFake(l.r.Ticks, l.nt, l.ticksCap, dst, from)
}

func (l *fakeLog) ReadInputs(dst []simthread.InputRecord, from uint64) (int, uint64) {
	return readFake(l.r.Inputs, l.ni, l.inputsCap, dst, from)
}

// stream feeds run r through a Stream as the loop does: each frame into a
// ring of ringCap, the log's records as they are written, a Drain every
// every frames until the window ends (the loop's frames stop there), and
// End. A Drain reads at most every frames.
func stream(r *Records, ringCap, every int, log *fakeLog) (Figures, *Frames) {
	fr := NewFrames(ringCap)
	s := NewStream(r.Hz, r.From, every)
	for i, x := range r.Frames {
		log.advance(x.Present)
		fr.Add(x)
		if i%every == every-1 && x.Present < r.To {
			s.Drain(fr, log)
		}
	}
	log.all()
	return s.End(fr, log, r.To), fr
}

// checkFigures compares a stream's figures with the exact ones: counts
// equal, sums and means to rounding, percentiles within HistRelErr.
func checkFigures(t *testing.T, got, want Figures) {
	t.Helper()
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"frames", got.Frames, want.Frames}, {"hitches", got.Hitches, want.Hitches},
		{"over 2 ms", got.AnimErrOver2ms, want.AnimErrOver2ms}, {"inputs", got.Inputs, want.Inputs},
		{"overdue", got.OverdueFrames, want.OverdueFrames}, {"extrapolated", got.ExtrapolatedFrames, want.ExtrapolatedFrames},
		{"backwards", got.SimBackwardsFrames, want.SimBackwardsFrames}, {"held", got.SimHeldFrames, want.SimHeldFrames},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, exact %d", c.name, c.got, c.want)
		}
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"fps", float64(got.FPSMean), float64(want.FPSMean)}, {"tps", float64(got.TPS), float64(want.TPS)}, {"rms", float64(got.AnimErrMsRMS), float64(want.AnimErrMsRMS)},
		{"judder", float64(got.Judder), float64(want.Judder)}, {"judder pixels", float64(got.JudderPixels), float64(want.JudderPixels)},
		{"on time", float64(got.OnTimePct), float64(want.OnTimePct)},
		{"probe speed", float64(got.ProbeSpeedPxPerSecs), float64(want.ProbeSpeedPxPerSecs)}, {"frame max", float64(got.FrameMsMax), float64(want.FrameMsMax)},
	} {
		if math.IsNaN(c.want) != math.IsNaN(c.got) || math.Abs(c.got-c.want) > 1e-9*math.Abs(c.want)+1e-12 {
			t.Errorf("%s: %v, exact %v", c.name, c.got, c.want)
		}
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"frame p50", float64(got.FrameMsP50), float64(want.FrameMsP50)}, {"frame p99", float64(got.FrameMsP99), float64(want.FrameMsP99)},
		{"tick jitter p99", float64(got.TickJitterMsP99), float64(want.TickJitterMsP99)},
		{"anim err p99", float64(got.AnimErrMsP99), float64(want.AnimErrMsP99)}, {"anim err p95", float64(got.AnimErrMsP95), float64(want.AnimErrMsP95)},
		{"latency p50", float64(got.LatencyMsP50), float64(want.LatencyMsP50)}, {"latency p99", float64(got.LatencyMsP99), float64(want.LatencyMsP99)},
		{"input latency p50", float64(got.InputLatencyMsP50), float64(want.InputLatencyMsP50)},
		{"input latency p99", float64(got.InputLatencyMsP99), float64(want.InputLatencyMsP99)},
		{"delay p50", float64(got.DelayMsP50), float64(want.DelayMsP50)}, {"hold p50", float64(got.HoldMsP50), float64(want.HoldMsP50)},
		{"age p50", float64(got.SnapshotAgeMsP50), float64(want.SnapshotAgeMsP50)}, {"age p99", float64(got.SnapshotAgeMsP99), float64(want.SnapshotAgeMsP99)},
		{"work p50", float64(got.FrameWorkMsP50), float64(want.FrameWorkMsP50)},
	} {
		if math.IsNaN(c.want) != math.IsNaN(c.got) || math.Abs(c.got-c.want) > HistRelErr*math.Abs(c.want) {
			t.Errorf("%s: %v, exact %v: off by more than %.2g of it", c.name, c.got, c.want, HistRelErr)
		}
	}
}

func TestStreamWholeRun(t *testing.T) {
	// A long run through the streaming path, its rings wrapping many
	// times: the figures are the whole run's, the percentiles within the
	// stated bound of Compute's over every record.
	if raceEnabled {
		t.Skip("one goroutine streaming 2 million frames: make test runs it without -race")
	}
	n := 2_000_000
	if testing.Short() {
		n = 400_000
	}
	r := synthRun(n, 1)
	want := Compute(r)
	got, fr := stream(r, 1<<17, 256, &fakeLog{r: r, ticksCap: 1 << 16, inputsCap: 1 << 14})
	if fr.Written() != uint64(n) || want.Frames < n*9/10 || want.Inputs < 100 || want.Hitches == 0 || want.AnimErrOver2ms == 0 {
		t.Fatalf("the made-up run is not what it should be: %+v", want)
	}
	checkFigures(t, got, want)
	if got.FramesLost+got.TicksLost+got.InputsLost+got.InputsUnpaired != 0 {
		t.Errorf("lost %d frames, %d ticks, %d inputs; %d inputs unpaired", got.FramesLost, got.TicksLost, got.InputsLost, got.InputsUnpaired)
	}
	if !math.IsNaN(got.ProbeErrorPxMaxAbs) {
		t.Errorf("probe error %v from a stream, want NaN", got.ProbeErrorPxMaxAbs)
	}
	// Draining every frame, or rarely, reads the same.
	for _, every := range []int{1, 20_000} {
		if n != 2_000_000 && every == 1 {
			continue
		}
		if g, _ := stream(r, 1<<17, every, &fakeLog{r: r, ticksCap: 1 << 16, inputsCap: 1 << 14}); g != got && !sameFigures(g, got) {
			t.Errorf("drained every %d frames: %+v\nevery 256: %+v", every, g, got)
		}
	}
}

// sameFigures reports whether a and b are equal, NaN equal to NaN.
func sameFigures(a, b Figures) bool {
	a.ProbeErrorPxMaxAbs, b.ProbeErrorPxMaxAbs = 0, 0
	return a == b
}

func TestStreamInputAcrossRingWrap(t *testing.T) {
	// Issue 21: a 300 s run at 843 FPS holds more frames than the frames
	// ring, and inputs older than the ring were paired with its oldest
	// frame (input_latency_ms_p99 of 142,401 ms). Streamed, the input
	// latency is the whole run's.
	if raceEnabled {
		t.Skip("one goroutine streaming 250,000 frames: make test runs it without -race")
	}
	r := synthRun(300*843, 2)
	want := Compute(r)
	got, fr := stream(r, 1<<17, 256, &fakeLog{r: r, ticksCap: 1 << 16, inputsCap: 1 << 14})
	recs, _ := fr.Records()
	old := Compute(&Records{Hz: r.Hz, From: r.From, To: r.To, Frames: recs, Ticks: r.Ticks, Inputs: r.Inputs})
	if old.InputLatencyMsP99 < 10_000 {
		t.Fatalf("the ring's records alone give an input latency p99 of %v ms: the bug is not reproduced", old.InputLatencyMsP99)
	}
	if want.InputLatencyMsP99 > 100 || math.Abs(float64(got.InputLatencyMsP99-want.InputLatencyMsP99)) > HistRelErr*float64(want.InputLatencyMsP99) ||
		got.Inputs != want.Inputs || got.Frames != want.Frames {
		t.Fatalf("input latency p99 %v ms over %d inputs, %d frames; exact %v over %d, %d",
			got.InputLatencyMsP99, got.Inputs, got.Frames, want.InputLatencyMsP99, want.Inputs, want.Frames)
	}

	// Drained too rarely, frames are lost as the ring wraps past them: no
	// input is paired with a frame after the gap that it may not have
	// been first shown in, the frames presented are still counted, and
	// what was lost says so.
	for _, c := range []struct{ ring, every int }{{4096, 10_000}, {1024, 3000}, {512, 700}} {
		got, _ := stream(r, c.ring, c.every, &fakeLog{r: r, ticksCap: 1 << 16, inputsCap: 1 << 14})
		fr, _ := r.Window()
		exact := r.InputLatencies(fr)
		if got.FramesLost == 0 || got.InputsUnpaired == 0 || got.Inputs+got.InputsUnpaired > want.Inputs ||
			got.Frames > want.Frames || got.Frames+got.FramesLost < want.Frames {
			t.Fatalf("ring %d drained every %d: %d frames lost, %d inputs unpaired, %d paired, %d frames; want some lost and unpaired, at most %d inputs, %d frames",
				c.ring, c.every, got.FramesLost, got.InputsUnpaired, got.Inputs, got.Frames, want.Inputs, want.Frames)
		}
		if hi := slices.Max(exact); float64(got.InputLatencyMsP99) > hi*(1+HistRelErr) || got.InputLatencyMsP99 < want.InputLatencyMsP50/2 {
			t.Fatalf("ring %d drained every %d: input latency p99 %v ms; every input's is at most %v, p50 %v",
				c.ring, c.every, got.InputLatencyMsP99, hi, want.InputLatencyMsP50)
		}
	}
}

func TestStreamTickGap(t *testing.T) {
	// Ticks lost from their ring: the frames that needed them have no
	// animation error or latency, the rest do, and the loss is counted.
	r := synthRun(200_000, 3)
	want := Compute(r)
	got, _ := stream(r, 1<<17, 40_000, &fakeLog{r: r, ticksCap: 256, inputsCap: 1 << 14})
	if got.TicksLost == 0 || got.Frames != want.Frames || got.TPS >= want.TPS {
		t.Fatalf("%d ticks lost, %d frames (want %d), TPS %v (all: %v)", got.TicksLost, got.Frames, want.Frames, got.TPS, want.TPS)
	}
	if math.IsNaN(float64(got.AnimErrMsP99)) || got.AnimErrMsP99 > want.FrameMsMax || math.IsNaN(float64(got.LatencyMsP50)) || got.LatencyMsP99 > 100 {
		t.Fatalf("anim err p99 %v, latency p50 %v p99 %v", got.AnimErrMsP99, got.LatencyMsP50, got.LatencyMsP99)
	}
}

func TestStreamWindowAndPause(t *testing.T) {
	// Frames before the window pass through; a sim paused for longer
	// than half the ring (no tick comes) does not lose its frames.
	fr := paced(10_000, 1_000_000) // presents every 1 ms from 1 s, no ticks
	r := &Records{Hz: 60, From: fr[1000].Start, To: fr[9000].Start, Frames: fr}
	want := Compute(r)
	log := &fakeLog{r: r, ticksCap: 16, inputsCap: 16}
	got, _ := stream(r, 4096, 100, log)
	checkFigures(t, got, want)
	if got.FramesLost != 0 {
		t.Fatalf("%d frames lost waiting for ticks", got.FramesLost)
	}
}

// idleSim is a world that does nothing, to drive a real loop and log.
type idleSim struct{}

func (idleSim) Step(simthread.TickInput)   {}
func (idleSim) Publish(*snapshot.Snapshot) {}
func (idleSim) Hash() uint64               { return 0 }

func TestStreamAllocs(t *testing.T) {
	// The recording and the drains allocate nothing: a coupled loop on a
	// fake clock logs ticks and inputs, frames go into the ring, and a
	// drain runs every 256 frames, over many drains and wraps of every
	// ring. Counted over all mallocs, not an average.
	log, clk := simthread.NewLog(1<<10, 1<<6), simthread.NewFakeClock(0)
	run, err := simthread.New(idleSim{}, simthread.Config{Hz: 60, Clock: clk, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	fr := NewFrames(1 << 12)
	s := NewStream(60, 0, 0)
	now := int64(0)
	frame := func() {
		now += 1_186_000
		if now%250_000_000 < 1_186_000 {
			run.Push(simthread.Event{Time: now, Kind: simthread.EventButton, Buttons: 1, Down: true})
		}
		clk.Set(now)
		run.RunDue(now)
		_, curr, _ := run.Ring().Acquire()
		shown := curr.SimTime - 2_000_000
		fr.Add(FrameRecord{Start: now - 500_000, Decide: now - 400_000, Present: now, SimShown: shown, ProbeX: float64(shown) * 240 / 1e9,
			Tick: curr.Tick, Age: -1})
	}
	for range 3000 { // the warm-up: the loop's and the stream's first use
		frame()
		if fr.Written()-s.FramesRead() >= 256 {
			s.Drain(fr, log)
		}
	}
	// The quietest of three tries: the count is the whole process's.
	const frames, tries = 100_000, 3
	drains := 0
	if n := mallocs.Fewest(tries, func() {
		for range frames {
			frame()
			if fr.Written()-s.FramesRead() >= 256 {
				s.Drain(fr, log)
				drains++
			}
		}
	}); n != 0 {
		t.Fatalf("%d frames and %d drains allocated %d times", frames, drains, n)
	}
	f := s.End(fr, log, now)
	if drains < 300*tries || f.Frames != 3000+tries*frames || f.Inputs < 400 || f.FramesLost+f.TicksLost+f.InputsLost != 0 || !(f.InputLatencyMsP50 < 40) {
		t.Fatalf("%d drains; %+v", drains, f)
	}
}

// BenchmarkStreamDrain times one Drain of a full batch: 256 frames (the
// loop's batch) and 1024 (a Drain's most), with their ticks and inputs.
func BenchmarkStreamDrain(b *testing.B) {
	r := synthRun(400_000, 5)
	for _, batch := range []int{256, 1024} {
		b.Run("frames="+strconv.Itoa(batch), func(b *testing.B) {
			fr := NewFrames(1 << 17)
			log := &fakeLog{r: r, ticksCap: 1 << 16, inputsCap: 1 << 14}
			s := NewStream(r.Hz, r.From, batch)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				if i+batch > len(r.Frames) {
					fr, log, s, i = NewFrames(1<<17), &fakeLog{r: r, ticksCap: 1 << 16, inputsCap: 1 << 14}, NewStream(r.Hz, r.From, batch), 0
				}
				for _, x := range r.Frames[i : i+batch] {
					log.advance(x.Present)
					fr.Add(x)
				}
				i += batch
				b.StartTimer()
				s.Drain(fr, log)
			}
		})
	}
}
