package bench

import (
	"math"

	"github.com/tandem-engine/tandem/simthread"
)

// Source is what a [Stream] reads tick and input records from while the
// run goes on: a [simthread.Log], read as it is written.
type Source interface {
	ReadTicks(dst []simthread.TickRecord, from uint64) (n int, lost uint64)
	ReadInputs(dst []simthread.InputRecord, from uint64) (n int, lost uint64)
}

var _ Source = (*simthread.Log)(nil)

const (
	// DefaultStep is how many frames a [Stream.Drain] reads at most.
	DefaultStep = 1024
	// streamInputs is how many inputs may wait for the frame that shows
	// them; streamRead, how many tick or input records are read at a time;
	// streamFrames, how many frames (few: the oldest often waits for its
	// tick, and the rest are read again next time).
	streamInputs = 1 << 12
	streamRead   = 256
	streamFrames = 64
)

// Stream computes a run's [Figures] while it goes on, over the whole run
// in fixed memory, from the rings the records are written into: the
// render thread's [Frames] and the sim's [simthread.Log]. Each [Stream.Drain]
// reads what was written since the one before, and must come before a
// ring wraps past it (what did is counted lost, in Figures.FramesLost,
// TicksLost and InputsLost); [Stream.End] reads the rest.
//
// It pairs the records as [Compute] does, with the same functions: a
// frame is read once the ticks it is paired with are (its moment on the
// schedule, its latency's tick), so that every frame gets the values it
// would get over the whole run, and an input waits for the first frame
// that shows it. Nothing is paired across a gap: after frames were lost,
// the first frame read has no frame before it, and the inputs it would
// show are left out (Figures.InputsUnpaired), since a lost frame may have
// shown them first; a frame whose ticks were lost has no animation error
// or latency. Lost frames between two frames of the window still count in
// Figures.Frames: they were presented. Counts, FPS, RMS and judder are exact (judder and RMS up to
// floating-point rounding); percentiles come from [Histogram]s, within
// [HistRelErr] of the exact ones. ProbeErrorPxMaxAbs is NaN: it needs
// the whole run's median ([ProbeErrors] over the records kept).
//
// Where [Compute] maps no frame onto the schedule when one of them cannot
// be (a tick missing), a Stream leaves that frame out of the animation
// error only.
//
// Drain and End never allocate. One goroutine (the render thread, which
// writes the frames) calls them.
type Stream struct {
	// run holds Hz, From, To and, in Ticks, the newest ticks read, kept
	// contiguous for the pairing (backed by ticks).
	run   Records
	ticks []simthread.TickRecord // cap 2*keep
	keep  int
	saw   bool // a tick record was read: frames are mapped onto the schedule

	step                           int
	nextFrame, nextTick, nextInput uint64
	frameBuf                       []FrameRecord
	tickBuf                        []simthread.TickRecord
	inputBuf                       []simthread.InputRecord

	// pend is a ring of the inputs waiting for a frame, oldest first.
	pend              []simthread.InputRecord
	pendHead, pendLen int

	gap       bool // frames were lost before the next
	gapFrames int

	// The window frame before, its moment on the schedule, its frame time.
	prev        FrameRecord
	prevOn      int64
	prevOnOK    bool
	havePrev    bool
	prevMs      float64
	havePrevMs  bool
	first, last FrameRecord

	f                                       Figures // the counts as they stand
	frameMs, animErr, latency, inputLatency *Histogram
	tickLate, age, delay, hold, work        *Histogram
	animSumSq                               float64
	animN                                   int
	judder, judderPx                        welford
	onTime, upTime                          float64 // [OnTime]'s sums, ms
	ticksIn                                 int
}

// NewStream returns a stream of a run at hz ticks a second whose measured
// window starts at from, reading at most step frames a Drain (0:
// [DefaultStep]). Its window is open until [Stream.End].
func NewStream(hz int, from int64, step int) *Stream {
	if step <= 0 {
		step = DefaultStep
	}
	keep := max(1<<12, 4*hz) // ticks kept for frames that lag the sim: seconds of them
	s := &Stream{
		run:      Records{Hz: hz, From: from, To: math.MaxInt64},
		ticks:    make([]simthread.TickRecord, 0, 2*keep),
		keep:     keep,
		step:     step,
		frameBuf: make([]FrameRecord, streamFrames),
		tickBuf:  make([]simthread.TickRecord, streamRead),
		inputBuf: make([]simthread.InputRecord, streamRead),
		pend:     make([]simthread.InputRecord, streamInputs),
	}
	for _, h := range []**Histogram{&s.frameMs, &s.animErr, &s.latency, &s.inputLatency, &s.tickLate, &s.age, &s.delay, &s.hold, &s.work} {
		*h = NewHistogram()
	}
	return s
}

// FramesRead returns how many frames of the ring the stream has read: the
// ring's Written less this is what waits for the next Drain.
func (s *Stream) FramesRead() uint64 { return s.nextFrame }

// Drain reads every tick and input record written since the last Drain,
// and the frames after them, oldest first, up to the first whose ticks
// have not been written yet, at most the stream's step. When more than
// half of fr waits (the sim paused: its frames wait for a tick that does
// not come), it reads the oldest of them anyway.
func (s *Stream) Drain(fr *Frames, src Source) { s.drain(fr, src, false) }

// End reads everything left, once nothing writes the records any more
// (the sim has stopped), with the window ending at to, and returns the
// figures. Inputs no frame showed are left out, as [Compute] leaves them.
func (s *Stream) End(fr *Frames, src Source, to int64) Figures {
	s.run.To = to
	s.drain(fr, src, true)
	return s.Figures()
}

func (s *Stream) drain(fr *Frames, src Source, end bool) {
	s.readTicks(src)
	s.readInputs(src)
	budget := s.step
	for end || budget > 0 {
		want := len(s.frameBuf)
		if !end {
			want = min(want, budget)
		}
		n, lost := fr.Read(s.frameBuf[:want], s.nextFrame)
		if lost > 0 {
			s.f.FramesLost += int(lost)
			s.gap, s.gapFrames = true, s.gapFrames+int(lost)
			s.nextFrame += lost
		}
		if n == 0 {
			return
		}
		force := end || fr.Written()-s.nextFrame > uint64(fr.Cap()/2)
		for _, x := range s.frameBuf[:n] {
			if !force && !s.ready(x) {
				return
			}
			s.frame(x)
			s.nextFrame++
			budget--
		}
	}
}

// readTicks reads the new tick records: the window's count and lateness,
// and the ticks kept for pairing.
func (s *Stream) readTicks(src Source) {
	for {
		n, lost := src.ReadTicks(s.tickBuf, s.nextTick)
		s.nextTick += lost + uint64(n)
		s.f.TicksLost += int(lost)
		for _, t := range s.tickBuf[:n] {
			if s.run.inWindow(t.Start) {
				s.ticksIn++
				s.tickLate.Add(ms(t.Start - t.Due))
			}
			if k := len(s.ticks); k > 0 && t.Tick != s.ticks[k-1].Tick+1 {
				s.ticks = s.ticks[:0] // a gap: keep them contiguous
			}
			if len(s.ticks) == cap(s.ticks) {
				s.ticks = s.ticks[:copy(s.ticks, s.ticks[len(s.ticks)-s.keep:])]
			}
			s.ticks = append(s.ticks, t)
			s.saw = true
		}
		s.run.Ticks = s.ticks
		if n < len(s.tickBuf) {
			return
		}
	}
}

// readInputs reads the new input records: the button events stamped in
// the window wait for their frame.
func (s *Stream) readInputs(src Source) {
	for {
		n, lost := src.ReadInputs(s.inputBuf, s.nextInput)
		s.nextInput += lost + uint64(n)
		s.f.InputsLost += int(lost)
		for _, in := range s.inputBuf[:n] {
			if in.Kind != simthread.EventButton || in.Stamp < s.run.From {
				continue
			}
			if s.pendLen == len(s.pend) {
				s.popInput() // no frame for a long while: the oldest gives way
				s.f.InputsUnpaired++
			}
			s.pend[(s.pendHead+s.pendLen)%len(s.pend)] = in
			s.pendLen++
		}
		if n < len(s.inputBuf) {
			return
		}
	}
}

func (s *Stream) popInput() {
	s.pendHead = (s.pendHead + 1) % len(s.pend)
	s.pendLen--
}

// ready reports whether frame x can be read: the ticks it is paired with
// have been (the tick after the sim time it shows, so that its moment on
// the schedule is the one the whole run gives, and the tick of its
// latency). A frame outside the window is paired with nothing.
func (s *Stream) ready(x FrameRecord) bool {
	if !s.run.inWindow(x.Start) || s.run.Hz <= 0 {
		return true
	}
	if len(s.ticks) == 0 {
		return false
	}
	t := s.ticks[len(s.ticks)-1].Tick
	return x.SimShown < s.run.SimTime(t) && (x.Tick == 0 || x.Tick-1 <= t)
}

// frame adds frame x, the next one in the order presented.
func (s *Stream) frame(x FrameRecord) {
	if s.gap {
		// Frames were lost: the first of them to show an input waiting
		// may have been among them.
		for s.pendLen > 0 && s.run.shows(x, s.pend[s.pendHead]) {
			s.popInput()
			s.f.InputsUnpaired++
		}
		if s.havePrev && s.run.inWindow(x.Start) {
			s.f.Frames += s.gapFrames // presented in the window, between two frames of it
		}
		s.gap, s.gapFrames, s.havePrev, s.havePrevMs = false, 0, false, false
	}
	if !s.run.inWindow(x.Start) {
		return
	}
	if s.f.Frames == 0 {
		s.first = x
	}
	s.f.Frames++
	s.last = x
	if x.Overdue {
		s.f.OverdueFrames++
	}
	if x.Alpha > 1 {
		s.f.ExtrapolatedFrames++
	}
	s.delay.Add(ms(x.Delay))
	s.hold.Add(ms(x.Hold))
	if x.Age >= 0 {
		s.age.Add(ms(x.Age))
	}
	if x.Decide > 0 && x.Present >= x.Decide {
		s.work.Add(ms(x.Present - x.Decide))
	}
	if l, ok := s.run.latency(x); ok {
		s.latency.Add(l)
	}
	on, onOK := x.SimShown, true
	if s.run.Hz > 0 && s.saw {
		on, onOK = 0, false
		if len(s.run.Ticks) > 0 {
			on, onOK = s.run.scheduled(x.SimShown)
		}
	}
	if p := s.prev; s.havePrev {
		d := ms(x.Present - p.Present)
		s.frameMs.Add(d)
		if s.havePrevMs && hitch(d, s.prevMs) {
			s.f.Hitches++
		}
		s.prevMs, s.havePrevMs = d, true
		switch {
		case x.SimShown < p.SimShown:
			s.f.SimBackwardsFrames++
		case x.SimShown == p.SimShown:
			s.f.SimHeldFrames++
		}
		if onOK && s.prevOnOK {
			e := math.Abs(animError(FrameRecord{SimShown: s.prevOn, Present: p.Present}, FrameRecord{SimShown: on, Present: x.Present}))
			s.animErr.Add(e)
			s.animSumSq += e * e
			s.animN++
			if e > 2 {
				s.f.AnimErrOver2ms++
			}
			on, up := onTime(FrameRecord{SimShown: s.prevOn, Present: p.Present}, FrameRecord{SimShown: on, Present: x.Present})
			s.onTime += on
			s.upTime += up
		}
		if v, ok := probeSpeed(p.Present, x.Present, p.ProbeX, x.ProbeX); ok {
			s.judder.add(v)
		}
		if v, ok := probeSpeed(p.Present, x.Present, PixelX(p.ProbeX), PixelX(x.ProbeX)); ok {
			s.judderPx.add(v)
		}
	}
	for s.pendLen > 0 {
		in := s.pend[s.pendHead]
		if !s.run.measured(in) {
			s.popInput() // stamped at or after To
			continue
		}
		if !s.run.shows(x, in) {
			break // nor the ones after it, of later ticks
		}
		s.inputLatency.Add(ms(x.Present - in.Stamp))
		s.f.Inputs++
		s.popInput()
	}
	s.prev, s.prevOn, s.prevOnOK, s.havePrev = x, on, onOK, true
}

// Figures returns the figures of what has been read; after [Stream.End],
// the run's. TPS is over the window, so it is meaningful only then.
func (s *Stream) Figures() Figures {
	f := s.f
	nan := math.NaN()
	f.FPSMean, f.TPS, f.AnimErrMsRMS, f.ProbeErrorPxMaxAbs = NaN, NaN, NaN, nan
	if f.Frames >= 2 && s.last.Present > s.first.Present {
		f.FPSMean = Num(float64(f.Frames-1) * 1e9 / float64(s.last.Present-s.first.Present))
	}
	if f.Frames > 1 {
		f.ProbeSpeedPxPerSecs = (s.last.ProbeX - s.first.ProbeX) / (float64(s.last.Present-s.first.Present) / 1e9)
	}
	if s.run.To > s.run.From {
		f.TPS = Num(float64(s.ticksIn) * 1e9 / float64(s.run.To-s.run.From))
	}
	f.OnTimePct = NaN
	if s.upTime > 0 {
		f.OnTimePct = Num(100 * s.onTime / s.upTime)
	}
	if s.animN > 0 {
		f.AnimErrMsRMS = Num(math.Sqrt(s.animSumSq / float64(s.animN)))
	}
	q := func(h *Histogram, q float64) Num { return Num(h.Quantile(q)) }
	f.FrameMsP50, f.FrameMsP99, f.FrameMsMax = q(s.frameMs, 0.5), q(s.frameMs, 0.99), q(s.frameMs, 1)
	f.TickJitterMsP99 = q(s.tickLate, 0.99)
	f.AnimErrMsP99, f.AnimErrMsP95 = q(s.animErr, 0.99), q(s.animErr, 0.95)
	f.Judder, f.JudderPixels = Num(s.judder.cv(f.Frames)), Num(s.judderPx.cv(f.Frames))
	f.LatencyMsP50, f.LatencyMsP99 = q(s.latency, 0.5), q(s.latency, 0.99)
	f.InputLatencyMsP50, f.InputLatencyMsP99 = q(s.inputLatency, 0.5), q(s.inputLatency, 0.99)
	f.DelayMsP50, f.HoldMsP50 = q(s.delay, 0.5), q(s.hold, 0.5)
	f.SnapshotAgeMsP50, f.SnapshotAgeMsP99 = q(s.age, 0.5), q(s.age, 0.99)
	f.FrameWorkMsP50 = s.work.Quantile(0.5)
	return f
}

// welford is a streaming mean and variance (Welford's).
type welford struct {
	n, mean, m2 float64
}

func (w *welford) add(x float64) {
	w.n++
	d := x - w.mean
	w.mean += d / w.n
	w.m2 += d * (x - w.mean)
}

// cv is [Judder]'s coefficient of variation of the values added, over a
// run of frames frames.
func (w *welford) cv(frames int) float64 {
	if frames < 3 || w.n == 0 || !(w.mean > 0) {
		return math.NaN()
	}
	return math.Sqrt(w.m2/w.n) / w.mean
}
