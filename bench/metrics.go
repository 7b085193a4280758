package bench

import (
	"math"
	"sort"

	"github.com/tandem-engine/tandem/simthread"
)

// Figures are a run's measured figures. Times are in milliseconds. A
// figure that could not be measured (no frames, a probe that did not move)
// is NaN.
type Figures struct {
	Frames          int `json:"frames"`       // frames measured
	FPSMean         Num `json:"fps_mean"`     // (frames-1) / (last present - first present)
	FrameMsP50      Num `json:"frame_ms_p50"` // present-to-present intervals
	FrameMsP99      Num `json:"frame_ms_p99"`
	FrameMsMax      Num `json:"frame_ms_max"`
	Hitches         int `json:"hitches"`            // frames over 60 ms and 1.5x the frame before (Unreal's definition)
	TPS             Num `json:"tps"`                // ticks started per second of the window
	TickJitterMsP99 Num `json:"tick_jitter_ms_p99"` // tick start - due
	AnimErrMsP99    Num `json:"anim_err_ms_p99"`    // |animation error| (PresentMon)
	AnimErrMsRMS    Num `json:"anim_err_ms_rms"`
	AnimErrMsP95    Num `json:"anim_err_ms_p95"`
	AnimErrOver2ms  int `json:"frames_anim_err_over_2ms"` // frames whose |animation error| is over 2 ms
	Judder          Num `json:"judder"`                   // coefficient of variation of the probe's on-screen speed
	JudderPixels    Num `json:"judder_pixels"`            // the same from the whole pixels the probe covers
	OnTimePct       Num `json:"on_time_pct"`              // share of display time the picture is within OnTimeTolMs of right ([OnTime])
	LatencyMsP50    Num `json:"latency_ms_p50"`           // present - start of the newest tick shown
	LatencyMsP99    Num `json:"latency_ms_p99"`
	InputLatency
	OverdueFrames      int `json:"frames_snapshot_overdue"` // frames drawn after their next snapshot was due
	ExtrapolatedFrames int `json:"frames_extrapolated"`     // frames drawn past the newest snapshot (alpha > 1)
	DelayMsP50         Num `json:"interp_delay_ms_p50"`     // the interpolation delay in use
	HoldMsP50          Num `json:"present_hold_ms_p50"`     // the present hold's lead (0: none)
	SnapshotAgeMsP50   Num `json:"snapshot_age_ms_p50"`
	SnapshotAgeMsP99   Num `json:"snapshot_age_ms_p99"`
	SimBackwardsFrames int `json:"frames_sim_backwards"` // frames that show an earlier sim time than the frame before (must be 0)
	SimHeldFrames      int `json:"frames_sim_held"`      // frames that show the same sim time as the frame before while time passed

	// Not in the summary: the probe's error and speed, which tests check,
	// and the median frame work, which -host-floor times.
	ProbeErrorPxMaxAbs  float64 `json:"-"` // NaN from a Stream: it needs the whole run's median
	ProbeSpeedPxPerSecs float64 `json:"-"` // mean on-screen speed of the probe
	FrameWorkMsP50      float64 `json:"-"` // decision to present ([FrameWorkMs])

	// What a [Stream] could not read or pair (0 from Compute): records
	// overwritten in their rings before it read them, and inputs in the
	// window whose first frame showing them may have been among the lost
	// frames, left out of the input latency. The summary counts the lost
	// ones in records_lost.
	FramesLost     int `json:"-"`
	TicksLost      int `json:"-"`
	InputsLost     int `json:"-"`
	InputsUnpaired int `json:"-"`
}

// Compute derives every figure from the records of run r. It is a pure
// function of its input, exact, and allocates in proportion to the run: a
// [Stream] computes the same figures over a run of any length in fixed
// memory, its percentiles within [HistRelErr].
func Compute(r *Records) Figures {
	fr, _ := r.Window()
	ft := FrameTimes(fr)
	f := Figures{
		Frames:          len(fr),
		FPSMean:         Num(FPS(fr)),
		FrameMsP50:      Num(Percentile(ft, 0.5)),
		FrameMsP99:      Num(Percentile(ft, 0.99)),
		FrameMsMax:      Num(Percentile(ft, 1)),
		Hitches:         Hitches(ft),
		TPS:             Num(r.TPS()),
		TickJitterMsP99: Num(Percentile(r.TickLateness(), 0.99)),
		Judder:          Num(Judder(fr)),
		JudderPixels:    Num(JudderPixels(fr)),
	}
	ae := AnimErrors(r.OnSchedule(fr))
	for i, e := range ae {
		ae[i] = math.Abs(e)
	}
	f.AnimErrMsP99, f.AnimErrMsP95, f.AnimErrMsRMS = Num(Percentile(ae, 0.99)), Num(Percentile(ae, 0.95)), Num(RMS(ae))
	f.AnimErrOver2ms = CountOver(ae, 2)
	f.OnTimePct = Num(OnTime(r.OnSchedule(fr)))
	lat := r.Latencies(fr)
	f.LatencyMsP50, f.LatencyMsP99 = Num(Percentile(lat, 0.5)), Num(Percentile(lat, 0.99))
	in := r.InputLatencies(fr)
	f.Inputs = len(in)
	f.InputLatencyMsP50, f.InputLatencyMsP99 = Num(Percentile(in, 0.5)), Num(Percentile(in, 0.99))
	var ages, delays, holds []float64
	for _, x := range fr {
		if x.Overdue {
			f.OverdueFrames++
		}
		if x.Alpha > 1 {
			f.ExtrapolatedFrames++
		}
		delays = append(delays, ms(x.Delay))
		holds = append(holds, ms(x.Hold))
		if x.Age >= 0 {
			ages = append(ages, ms(x.Age))
		}
	}
	f.SnapshotAgeMsP50, f.SnapshotAgeMsP99 = Num(Percentile(ages, 0.5)), Num(Percentile(ages, 0.99))
	f.DelayMsP50 = Num(Percentile(delays, 0.5))
	f.HoldMsP50 = Num(Percentile(holds, 0.5))
	f.FrameWorkMsP50 = Percentile(FrameWorkMs(fr), 0.5)
	for i := 1; i < len(fr); i++ {
		switch {
		case fr[i].SimShown < fr[i-1].SimShown:
			f.SimBackwardsFrames++
		case fr[i].SimShown == fr[i-1].SimShown:
			f.SimHeldFrames++
		}
	}
	pe := ProbeErrors(fr)
	for _, e := range pe {
		f.ProbeErrorPxMaxAbs = max(f.ProbeErrorPxMaxAbs, math.Abs(e))
	}
	if len(fr) > 1 {
		f.ProbeSpeedPxPerSecs = (fr[len(fr)-1].ProbeX - fr[0].ProbeX) / (float64(fr[len(fr)-1].Present-fr[0].Present) / 1e9)
	}
	return f
}

// Window returns the frames and the ticks that started inside [From, To).
func (r *Records) Window() ([]FrameRecord, []simthread.TickRecord) {
	lo := sort.Search(len(r.Frames), func(i int) bool { return r.Frames[i].Start >= r.From })
	hi := sort.Search(len(r.Frames), func(i int) bool { return r.Frames[i].Start >= r.To })
	tlo := sort.Search(len(r.Ticks), func(i int) bool { return r.Ticks[i].Start >= r.From })
	thi := sort.Search(len(r.Ticks), func(i int) bool { return r.Ticks[i].Start >= r.To })
	return r.Frames[lo:hi], r.Ticks[tlo:thi]
}

func ms(ns int64) float64 { return float64(ns) / 1e6 }

// FPS returns the frames per second of fr, from its present times: the
// number of intervals over their total length. NaN for fewer than two.
func FPS(fr []FrameRecord) float64 {
	if len(fr) < 2 || fr[len(fr)-1].Present <= fr[0].Present {
		return math.NaN()
	}
	return float64(len(fr)-1) * 1e9 / float64(fr[len(fr)-1].Present-fr[0].Present)
}

// FrameTimes returns the present-to-present intervals of fr, in ms.
func FrameTimes(fr []FrameRecord) []float64 {
	if len(fr) < 2 {
		return nil
	}
	out := make([]float64, len(fr)-1)
	for i := 1; i < len(fr); i++ {
		out[i-1] = ms(fr[i].Present - fr[i-1].Present)
	}
	return out
}

// Hitches counts Unreal's hitches in a sequence of frame times (ms): a
// frame over 60 ms that is also more than 1.5 times the frame before it.
func Hitches(frameMs []float64) int {
	n := 0
	for i := 1; i < len(frameMs); i++ {
		if hitch(frameMs[i], frameMs[i-1]) {
			n++
		}
	}
	return n
}

// hitch reports whether a frame of ms after one of prev ms is a hitch.
func hitch(ms, prev float64) bool { return ms > 60 && ms > 1.5*prev }

// AnimErrors returns PresentMon's animation error of each frame after the
// first, in ms: how much more sim time the frame advanced than wall time
// passed between the two presents, (sim_i - sim_i-1) - (present_i -
// present_i-1). 0 is perfectly paced motion; it is positive when the
// picture jumps ahead and negative when it lags. [Compute] gives it the
// frames [Records.OnSchedule], so that slow motion paced evenly is 0 too.
func AnimErrors(fr []FrameRecord) []float64 {
	if len(fr) < 2 {
		return nil
	}
	out := make([]float64, len(fr)-1)
	for i := 1; i < len(fr); i++ {
		out[i-1] = animError(fr[i-1], fr[i])
	}
	return out
}

// animError returns the animation error of frame b after frame a, in ms.
func animError(a, b FrameRecord) float64 {
	return ms((b.SimShown - a.SimShown) - (b.Present - a.Present))
}

// OnTimeTolMs is how far from right a picture may be and still count as
// on time in [OnTime]: one refresh of a 60 Hz display, ms.
const OnTimeTolMs = 1000.0 / 60

// OnTime returns the share of the display time of fr, in percent, during
// which the picture on screen was within [OnTimeTolMs] of the one perfect
// motion would show then: the smoothness figure that weighs a picture's
// evenness with how long it stays up. Each picture is judged against the
// one that replaced it, taken as right at its own present: while frame a
// is up, from its present to b's, the right sim time runs up to b's, so
// a's picture is behind by (b.SimShown - a.SimShown) - (b.Present - t) at
// time t. A run of even frames at 60 FPS or more scores 100; a slideshow
// of even 130 ms frames scores 13 (only its first 16.7 ms of each are
// right), where [Judder] and the animation error call it perfect. NaN for
// fewer than two frames or no display time.
func OnTime(fr []FrameRecord) float64 {
	var on, total float64
	for i := 1; i < len(fr); i++ {
		o, t := onTime(fr[i-1], fr[i])
		on += o
		total += t
	}
	if !(total > 0) {
		return math.NaN()
	}
	return 100 * on / total
}

// onTime returns how long, in ms, frame a's picture was within
// [OnTimeTolMs] of right while it was up (until b's present), and how
// long it was up.
func onTime(a, b FrameRecord) (on, up float64) {
	up = ms(b.Present - a.Present)
	if up <= 0 {
		return 0, 0
	}
	// Behind by e(u) = step - up + u at u ms into the interval: on time
	// while -tol <= e(u) <= tol.
	step := ms(b.SimShown - a.SimShown)
	lo := max(0, -OnTimeTolMs-(step-up))
	hi := min(up, OnTimeTolMs-(step-up))
	return max(0, hi-lo), up
}

// Judder returns the coefficient of variation (standard deviation over
// mean) of the probe's on-screen speed from frame to frame: pixels moved
// over the present interval. 0 is perfectly smooth motion; a picture that
// moves every other frame gives 1. NaN when the probe did not move.
func Judder(fr []FrameRecord) float64 {
	if len(fr) < 3 {
		return math.NaN()
	}
	v := make([]float64, 0, len(fr)-1)
	for i := 1; i < len(fr); i++ {
		if s, ok := probeSpeed(fr[i-1].Present, fr[i].Present, fr[i-1].ProbeX, fr[i].ProbeX); ok {
			v = append(v, s)
		}
	}
	mean, sd := MeanSD(v)
	if !(mean > 0) {
		return math.NaN()
	}
	return sd / mean
}

// probeSpeed returns the probe's speed from (t0, x0) to (t1, x1), px per
// second, unless no time passed.
func probeSpeed(t0, t1 int64, x0, x1 float64) (float64, bool) {
	dt := float64(t1-t0) / 1e9
	if dt <= 0 {
		return 0, false
	}
	return (x1 - x0) / dt, true
}

// PixelX is the leftmost pixel column of a probe whose left edge is at x:
// the first column whose centre is inside the square, as the rasterizer
// covers it and an outside tool reads it (see [JudderPixels]). The
// renderer draws the probe from this column.
func PixelX(x float64) float64 { return math.Ceil(x - 0.5) }

// JudderPixels is [Judder] measured as an outside tool reading the
// framebuffer would: from the probe's leftmost pixel column, its x rounded
// to a whole pixel (the rasterizer covers the pixels whose centres are
// inside the square). At speeds of a few pixels a frame the rounding alone
// makes it larger than Judder.
func JudderPixels(fr []FrameRecord) float64 {
	px := make([]FrameRecord, len(fr))
	for i, x := range fr {
		px[i] = x
		px[i].ProbeX = PixelX(x.ProbeX)
	}
	return Judder(px)
}

// ProbeErrors returns, per frame, how far the probe is drawn from where
// perfectly paced motion would put it at that frame's present time, in px:
// the displayed x minus a line at the probe's mean speed through the
// frames, its offset chosen so that the median error is 0. A hold shows
// as a falling error, a catch-up as a rise back.
func ProbeErrors(fr []FrameRecord) []float64 {
	if len(fr) < 2 {
		return nil
	}
	first, last := fr[0], fr[len(fr)-1]
	dt := float64(last.Present - first.Present)
	if dt <= 0 {
		return nil
	}
	speed := (last.ProbeX - first.ProbeX) / dt // px per ns
	out := make([]float64, len(fr))
	for i, x := range fr {
		out[i] = x.ProbeX - first.ProbeX - speed*float64(x.Present-first.Present)
	}
	med := Percentile(out, 0.5)
	for i := range out {
		out[i] -= med
	}
	return out
}

// TPS returns the ticks started per second of the window.
func (r *Records) TPS() float64 {
	if r.To <= r.From {
		return math.NaN()
	}
	n := 0
	for _, t := range r.Ticks {
		if r.inWindow(t.Start) {
			n++
		}
	}
	return float64(n) * 1e9 / float64(r.To-r.From)
}

// TickLateness returns, for every tick that started in the window, how
// late it started against its due time, in ms.
func (r *Records) TickLateness() []float64 {
	var out []float64
	for _, t := range r.Ticks {
		if r.inWindow(t.Start) {
			out = append(out, ms(t.Start-t.Due))
		}
	}
	return out
}

// inWindow reports whether time t is in the measured window [From, To).
func (r *Records) inWindow(t int64) bool { return t >= r.From && t < r.To }

// tickStart returns when the tick with index k started, if it was
// recorded.
func (r *Records) tickStart(k uint64) (int64, bool) {
	t, ok := r.tick(k)
	return t.Start, ok
}

// tick returns the record of the tick with index k, if it was recorded.
func (r *Records) tick(k uint64) (simthread.TickRecord, bool) {
	if len(r.Ticks) == 0 || k < r.Ticks[0].Tick {
		return simthread.TickRecord{}, false
	}
	i := k - r.Ticks[0].Tick
	if i >= uint64(len(r.Ticks)) || r.Ticks[i].Tick != k {
		// Not contiguous (should not happen): search.
		j := sort.Search(len(r.Ticks), func(j int) bool { return r.Ticks[j].Tick >= k })
		if j == len(r.Ticks) || r.Ticks[j].Tick != k {
			return simthread.TickRecord{}, false
		}
		i = uint64(j)
	}
	return r.Ticks[i], true
}

// OnSchedule returns fr with each frame's SimShown replaced by the moment
// it shows on the sim's schedule: the wall time (on the Now base) at which
// the schedule puts the sim time it shows. The renderer shows the state
// after j ticks fully when the state after j+1 is due, which is when tick
// j was due; between two such times it blends, and so does this mapping.
// That is the time PresentMon takes as a frame's simulation time (a
// timestamp the game reports, not game time), and the one the renderer
// paces by. In real time it is the sim time plus a constant, and the
// animation error is the same either way; in slow motion (chosen, or
// forced on an overloaded sim whose lag is clamped) each tick's sim time
// is spread over more wall time, and a picture that moves evenly at that
// pace has no error. Where a frame's states were not recorded (a run
// without tick records), it returns fr as it is.
func (r *Records) OnSchedule(fr []FrameRecord) []FrameRecord {
	if r.Hz <= 0 || len(r.Ticks) == 0 {
		return fr
	}
	out := make([]FrameRecord, len(fr))
	for i, x := range fr {
		a, ok := r.scheduled(x.SimShown)
		if !ok {
			return fr
		}
		x.SimShown = a
		out[i] = x
	}
	return out
}

// scheduled returns the moment on the sim's schedule that shows sim time
// s (see [Records.OnSchedule]), if the ticks it needs were recorded. r.Hz > 0
// and r.Ticks is not empty.
func (r *Records) scheduled(s int64) (int64, bool) {
	if s < 0 {
		return 0, false
	}
	// j: the newest state at or before s, from floor(s*Hz/1e9) (which
	// SimTime's rounding down can leave one short).
	hz, u := uint64(r.Hz), uint64(s)
	j := u/1e9*hz + u%1e9*hz/1e9
	for r.SimTime(j+1) <= s {
		j++
	}
	a, ok := r.shown(j)
	if !ok {
		return 0, false
	}
	if frac := s - r.SimTime(j); frac > 0 {
		b, ok := r.shown(j + 1)
		if !ok {
			return 0, false
		}
		a += int64(math.Round(float64(frac) * float64(b-a) / float64(r.SimTime(j+1)-r.SimTime(j))))
	}
	return a, true
}

// shown returns when the schedule shows the state after j ticks fully:
// when tick j was due. Past the last tick recorded (the run ended before
// tick j started: the newest state of a coupled frame, or the pair a late
// frame blends) the schedule moves on at the pace of the last two, for at
// most two ticks. r.Ticks is not empty.
func (r *Records) shown(j uint64) (int64, bool) {
	if t, ok := r.tick(j); ok {
		return t.Due, true
	}
	last := r.Ticks[len(r.Ticks)-1]
	if j <= last.Tick || j > last.Tick+2 || last.Tick == 0 {
		return 0, false
	}
	prev, ok := r.tick(last.Tick - 1)
	if !ok {
		return 0, false
	}
	return last.Due + int64(j-last.Tick)*(last.Due-prev.Due), true
}

// Latencies returns PresentMon's instrumented latency of each frame of fr,
// in ms: its present time minus the start of the newest tick whose state
// it shows (the tick that produced the newest snapshot drawn).
func (r *Records) Latencies(fr []FrameRecord) []float64 {
	out := make([]float64, 0, len(fr))
	for _, x := range fr {
		if l, ok := r.latency(x); ok {
			out = append(out, l)
		}
	}
	return out
}

// latency returns frame x's instrumented latency in ms, if the tick it
// shows was recorded.
func (r *Records) latency(x FrameRecord) (float64, bool) {
	if x.Tick == 0 {
		return 0, false
	}
	s, ok := r.tickStart(x.Tick - 1)
	return ms(x.Present - s), ok
}

// InputLatencies returns, for every button event stamped in the window,
// the present time of the first frame whose picture shows the tick that
// applied it minus the event's stamp, in ms. A frame shows tick k once the
// sim time it shows is past the start of tick k (k*1e9/Hz): interpolated,
// it is then blending toward the state tick k produced. Events no frame
// showed before the end are left out.
func (r *Records) InputLatencies(fr []FrameRecord) []float64 {
	var out []float64
	for _, in := range r.Inputs {
		if !r.measured(in) {
			continue
		}
		i := sort.Search(len(fr), func(i int) bool { return r.shows(fr[i], in) })
		if i < len(fr) {
			out = append(out, ms(fr[i].Present-in.Stamp))
		}
	}
	return out
}

// measured reports whether input in counts for the input latency: a
// button event stamped in the window.
func (r *Records) measured(in simthread.InputRecord) bool {
	return in.Kind == simthread.EventButton && r.inWindow(in.Stamp)
}

// shows reports whether frame x's picture shows the tick that applied
// input in.
func (r *Records) shows(x FrameRecord, in simthread.InputRecord) bool {
	return x.SimShown > r.SimTime(in.Tick)
}
