//go:build cgo

package app

import (
	"os"
	"sort"
	"time"

	"github.com/tandem-engine/tandem/audio"
	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/snapshot"
)

// sound is the add-on that plays a run's sounds: every tick's plays reach
// the mixer from the sim thread as the tick is published (publish), and
// each starts on the sample of its tick's time plus the run's offset (see
// docs/sound.md), or, with the bench's -audio-on-call, at the device's
// next pull, for comparison. In the bench, each press of its key that
// lands on a tick plays a click on that tick. Silent with -mute or no
// device: the summary's audio says why.
type sound struct {
	noHooks
	out    *audio.Output
	click  uint16 // the click's index in the mixer's sounds
	bench  bool   // click on the bench's key presses (real ones: not the synthetic button)
	avLock bool   // the renderer's delay was raised to the device's latency
	onCall bool   // each sound starts at the device's next pull, not on its sample
	held   bool   // the bench's button was down in the last tick published
	// offset is how long after its tick's time a sound starts.
	offset time.Duration
	// onsets are the sounds started, drained from the mixer at most every
	// drainEvery (and at the end) into room made at the start: sounds.csv's
	// rows and av_offset's.
	onsets    []audio.Onset
	drainedAt int64
}

// maxOnsets is how many sound starts a run keeps for sounds.csv: 24
// bytes each, 1.5 MiB; a bench run of minutes plays far fewer.
const maxOnsets = 1 << 16

// newSound opens the sound device for a game's sounds (the bench's click
// added) with the options o; clickPresses plays the click on the bench's
// real key presses. It always returns an add-on, silent when muted or
// with no device (said once on stderr).
func newSound(sounds []*audio.Sound, o AudioOptions, clickPresses bool) *sound {
	a := &sound{click: uint16(len(sounds)), bench: clickPresses}
	a.onCall = o.OnCall
	a.out = audio.Start(append(sounds[:len(sounds):len(sounds)], audio.Click()), o.Mute,
		audio.Options{OnCall: a.onCall, Buffer: o.Buffer}, os.Stderr)
	if a.out.Latency() > 0 { // it plays: run and bench alike give its figures
		a.onsets = make([]audio.Onset, 0, maxOnsets)
	}
	return a
}

// lock sets the run's one offset from the renderer's pacing p, and
// returns the pacing the renderer is to use: a tick's sound starts the
// renderer's fixed delay after the tick's time, or the device's latency
// after it where that is longer (the auto delay, a few ms that move, is
// always shorter). With avLock the renderer's delay is raised to that
// latency, fixed, so that the picture of a tick and its sound meet within
// a frame, at the cost of input latency. At a paced frame rate (a cap,
// an emulated refresh) a tick's picture is shown at the first frame at or
// after its moment, half a frame later on average: the picture's delay is
// then the latency less half a frame and the sound's offset half a frame
// more than that, so that the sound falls in the middle of the frames'
// spread, not at its start, with no latency added.
func (a *sound) lock(p PacingOptions, avLock bool) PacingOptions {
	half := time.Duration(0)
	if avLock && a.out.Latency() > 0 {
		half = framePeriod(p) / 2
		p.DelayAuto, p.Delay = false, max(p.Delay, a.out.Latency()-half)
		a.avLock = true
	}
	if p.DelayAuto {
		a.offset = a.out.SetOffset(0)
	} else {
		a.offset = a.out.SetOffset(p.Delay + half)
	}
	return p
}

// framePeriod is the period p paces frames at: the cap's or the emulated
// refresh's, the slower of the two; 0 at full rate.
func framePeriod(p PacingOptions) time.Duration {
	hz := p.FPSCap
	if p.EmulateHz > 0 && (hz == 0 || p.EmulateHz < hz) {
		hz = p.EmulateHz
	}
	if hz <= 0 {
		return 0
	}
	return time.Second / time.Duration(hz)
}

// publish hands the tick's sounds to the mixer, on the sim thread, and
// in the bench a click on the tick the bench's key went down.
func (a *sound) publish(dst *snapshot.Snapshot) {
	a.out.Feed(dst)
	if !a.bench {
		return
	}
	if dst.ProbeHeld && !a.held {
		a.out.Push(audio.Event{Op: audio.OpPlay, Sound: a.click, Volume: 1, Tick: dst.Tick, Time: dst.Time})
	}
	a.held = dst.ProbeHeld
}

// frameEnd drains the sounds started, at most every drainEvery.
func (a *sound) frameEnd(e frameEnd) {
	if a.onsets != nil && e.at-a.drainedAt >= drainEvery {
		a.drainedAt = e.at
		a.drain()
	}
}

// drain appends the sounds started since the last drain to onsets,
// within the room made at the start.
func (a *sound) drain() { a.onsets = a.out.Onsets(a.onsets) }

// summary closes the output (the sim thread has stopped) and fills the
// sound's section of sum: the start errors over the measured window's
// sounds when their onsets were kept (the bench), else the mixer's over
// the run; null when no sound started.
func (a *sound) summary(sum *Summary, run *bench.Records) {
	if a.onsets != nil {
		a.drain()
	}
	a.out.Close()
	st := a.out.Stats()
	sum.Audio, sum.AudioLatencyMs = st.Device, Round(st.LatencyMs, 2)
	sum.AudioDeviceLatencyMs, sum.AudioLatencySource = Round(st.DeviceLatencyMs, 2), st.LatencySource
	sum.AudioAnchored, sum.AudioAnchorMs = st.Anchored, Round(st.AnchorMs, 1)
	sum.AudioTiming = "sample"
	if a.onCall {
		sum.AudioTiming = "on-call"
	}
	if st.Started > 0 {
		sum.AudioStartErrMsP1 = bench.Num(st.StartErrP1Ms)
		sum.AudioStartErrMsP50, sum.AudioStartErrMsP99 = bench.Num(st.StartErrP50Ms), bench.Num(st.StartErrP99Ms)
	}
	sum.AudioUnderruns, sum.AudioVoicesDropped = st.Underruns, st.VoicesDropped
	if st.ServerCounted {
		sum.AudioServerUnderflows = bench.Num(st.ServerUnderflows)
	}
	sum.AudioEventsDropped, sum.AudioStreamStarved = st.EventsDropped, st.StreamStarved
	sum.AudioStreamErrors, sum.AudioStreamError = st.StreamErrors, st.StreamError
	sum.AVLock = a.avLock
	sum.sounds = a.onsets
	if a.onsets == nil {
		return
	}
	// The figures of the sounds of the measured window's ticks, as for
	// every other figure (a run's window is the whole run; the bench's
	// leaves out its warm-up).
	var errs []float64
	for _, o := range a.onsets {
		if a.inWindow(run, o) {
			errs = append(errs, float64(o.Start-o.Aimed)/1e6)
		}
	}
	sum.AudioStartErrMsP1, sum.AudioStartErrMsP50, sum.AudioStartErrMsP99 = bench.NaN, bench.NaN, bench.NaN
	if len(errs) > 0 {
		sum.AudioStartErrMsP1 = bench.Num(bench.Percentile(errs, 0.01))
		sum.AudioStartErrMsP50 = bench.Num(bench.Percentile(errs, 0.5))
		sum.AudioStartErrMsP99 = bench.Num(bench.Percentile(errs, 0.99))
	}
	if offs := a.avOffsets(run); len(offs) > 0 {
		sum.AVOffsetMsP1 = bench.Num(bench.Percentile(offs, 0.01))
		sum.AVOffsetMsP50 = bench.Num(bench.Percentile(offs, 0.5))
		sum.AVOffsetMsP99 = bench.Num(bench.Percentile(offs, 0.99))
	}
}

// inWindow reports whether onset o is of a tick in run's measured window.
func (a *sound) inWindow(run *bench.Records, o audio.Onset) bool {
	at := o.Aimed - int64(a.offset) // the tick's time
	return o.Tick > 0 && at >= run.From && at < run.To
}

// avOffsets returns, for each sound of a tick in the measured window, its
// start at the device minus the present of the first frame that shows
// the tick that played it, in ms (positive: the sound came after the
// picture). A frame shows the tick once the sim time it shows is past
// the tick's start, as for the input latency.
func (a *sound) avOffsets(run *bench.Records) []float64 {
	fr, _ := run.Window()
	var out []float64
	for _, o := range a.onsets {
		if !a.inWindow(run, o) {
			continue
		}
		at := run.SimTime(o.Tick - 1) // the tick index that played it
		i := sort.Search(len(fr), func(i int) bool { return fr[i].SimShown > at })
		if i < len(fr) {
			out = append(out, float64(o.Start-fr[i].Present)/1e6)
		}
	}
	return out
}
