package app

import (
	"github.com/tandem-engine/tandem/internal/quantile"
	"math"
	"runtime"
	"runtime/metrics"

	"github.com/tandem-engine/tandem/bench"
)

// histBucket is the resolution of the frame-time histograms: 10 µs. They
// cover 0 to 1 s; longer frames land in the last bucket.
const (
	histBucket  = 10_000
	histBuckets = 100_000
)

// hist is a fixed histogram of durations: percentiles without keeping (or
// allocating) every sample.
type hist struct {
	n      uint64
	counts [histBuckets]uint32
	sum    int64
}

func (h *hist) add(d int64) {
	i := min(max(d/histBucket, 0), histBuckets-1)
	h.counts[i]++
	h.n++
	h.sum += d
}

// quantile returns the q-quantile in milliseconds (nearest rank,
// quantile.Rank), at the bucket's middle; 0 for none (the HUD's).
func (h *hist) quantile(q float64) float64 {
	if h.n == 0 {
		return 0
	}
	want := uint64(quantile.Rank(int(h.n), q)) + 1 // the value of this rank, from 1
	var seen uint64
	for i, c := range h.counts {
		seen += uint64(c)
		if seen >= want {
			return (float64(i) + 0.5) * histBucket / 1e6
		}
	}
	return float64(histBuckets) * histBucket / 1e6
}

// graphLen is how many recent frames the HUD graph shows.
const graphLen = 240

// frameStats measures the render loop from the main thread. Nothing in it
// allocates after start.
type frameStats struct {
	start, last int64
	frames      uint64
	overdue     uint64 // frames drawn after the next snapshot was due
	frameHist   hist   // present-to-present time
	ageHist     hist   // age of the newest snapshot when drawn
	graph       [graphLen]float32
	gi          int

	// Allocation, from runtime.ReadMemStats, and GC, from runtime/metrics.
	// The warm-up (the bench's -warmup, or the first second of a run:
	// buffers growing, caches filling) is left out of allocs-per-frame and
	// the GC pause percentile. ReadMemStats flushes every P's cache, so
	// its count is exact; runtime/metrics' /gc/heap/allocs:objects counts
	// a cache's small objects only when it is refilled, and read 0 over a
	// window with hundreds made.
	samples      []metrics.Sample
	mem          runtime.MemStats // filled in place: no allocation
	warmAt       int64
	warmFrames   uint64
	warmAllocs   uint64
	warm         bool
	allocs       uint64  // the process's allocations at the last reading
	allocFrames  uint64  // the frames by then
	gcCycles     uint64  // the process's, from its start
	gcCyclesWarm uint64  // gcCycles at the end of the warm-up
	gcPauseTotal float64 // seconds, estimated from the pause histogram
	gcPauseMax   float64
	gcWarm       []uint64 // the pause histogram's counts at the end of the warm-up
	nextGCRead   int64

	// fpsWindow is the HUD's FPS over the last half second.
	fpsAt     int64
	fpsFrames uint64
	fps       float64
}

const (
	mGCCycles = "/gc/cycles/total:gc-cycles"
	mGCPauses = "/sched/pauses/total/gc:seconds"
)

// newFrameStats starts the statistics at now, with the warm-up ending at
// warmAt (at least a second after now).
func newFrameStats(now, warmAt int64) *frameStats {
	s := &frameStats{start: now, last: now, warmAt: max(warmAt, now+1e9), fpsAt: now}
	s.samples = []metrics.Sample{{Name: mGCCycles}, {Name: mGCPauses}}
	s.readGC()
	s.gcWarm = make([]uint64, len(s.samples[1].Value.Float64Histogram().Counts))
	return s
}

// frame records a frame presented at now, drawn from a snapshot of age ns.
func (s *frameStats) frame(now, age int64) {
	d := now - s.last
	s.last = now
	s.frames++
	s.frameHist.add(d)
	s.ageHist.add(age)
	s.graph[s.gi] = float32(d) / 1e6
	s.gi = (s.gi + 1) % graphLen
	if now-s.fpsAt >= 500_000_000 {
		s.fps = float64(s.frames-s.fpsFrames) * 1e9 / float64(now-s.fpsAt)
		s.fpsAt, s.fpsFrames = now, s.frames
	}
	if !s.warm && now >= s.warmAt {
		s.readAllocs()
		s.warm, s.warmFrames, s.warmAllocs = true, s.frames, s.allocs
		s.readGC()
		s.gcCyclesWarm = s.gcCycles
		copy(s.gcWarm, s.samples[1].Value.Float64Histogram().Counts)
	}
	if now >= s.nextGCRead {
		s.readGC()
		if s.warm {
			s.readAllocs()
		}
		s.nextGCRead = now + 250_000_000
	}
}

// readAllocs reads the process's allocation count as of this frame. It
// stops the world for a moment (tens of µs), four times a second.
func (s *frameStats) readAllocs() {
	runtime.ReadMemStats(&s.mem)
	s.allocs, s.allocFrames = s.mem.Mallocs, s.frames
}

// readGC reads the GC counters. The pause histogram's buckets are reused
// from the first read on.
func (s *frameStats) readGC() {
	metrics.Read(s.samples)
	s.gcCycles = s.samples[0].Value.Uint64()
	h := s.samples[1].Value.Float64Histogram()
	s.gcPauseTotal, s.gcPauseMax = 0, 0
	for i, c := range h.Counts {
		if c == 0 {
			continue
		}
		lo, hi := h.Buckets[i], h.Buckets[i+1]
		if math.IsInf(hi, 1) {
			hi = lo
		}
		if math.IsInf(lo, -1) {
			lo = 0
		}
		mid := (lo + hi) / 2 // the histogram knows only the bucket
		s.gcPauseTotal += float64(c) * mid
		s.gcPauseMax = max(s.gcPauseMax, mid)
	}
}

// gcCyclesMeasured returns the GC cycles that ended from the warm-up to
// the last reading (readGC; the summary reads once, for gc_cycles too),
// or NaN when the run ended within the warm-up.
func (s *frameStats) gcCyclesMeasured() float64 {
	if !s.warm {
		return math.NaN()
	}
	return float64(s.gcCycles - s.gcCyclesWarm)
}

// gcPauseP99 returns the 99th percentile of the GC's stop-the-world pauses
// since the warm-up, in ms (an upper bound: the histogram's bucket edge),
// or NaN when there were none. It allocates; call it at the end.
func (s *frameStats) gcPauseP99() float64 {
	s.readGC()
	h := s.samples[1].Value.Float64Histogram()
	counts := append([]uint64(nil), h.Counts...)
	if s.warm {
		for i := range counts {
			counts[i] -= s.gcWarm[i]
		}
	}
	return bench.HistQuantile(counts, h.Buckets, 0.99) * 1e3
}

// allocsPerFrame returns the heap allocations per frame from the warm-up
// to the last reading (at most a quarter second before the last frame):
// the whole process's, so the sim thread's count too (it should be zero as
// well).
func (s *frameStats) allocsPerFrame() float64 {
	if !s.warm || s.allocFrames == s.warmFrames {
		return math.NaN()
	}
	return float64(s.allocs-s.warmAllocs) / float64(s.allocFrames-s.warmFrames)
}
