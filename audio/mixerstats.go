package audio

import (
	"github.com/tandem-engine/tandem/internal/quantile"
	"slices"
	"sync/atomic"
)

// stats are the mixer's counts, written by the audio thread.
type stats struct {
	written       atomic.Int64
	underruns     atomic.Int64
	clockSteps    atomic.Int64
	voicesDropped atomic.Int64
	eventsDropped atomic.Int64
	streamStarved atomic.Int64
	started       atomic.Int64
	late          atomic.Int64
	takeMax       atomic.Int64 // the most frames the device took between two pulls
	takeLeast     atomic.Int64 // read at the device's requests (no player): the least request, frames
	retimed       atomic.Int64 // readings of the server's timing that moved the clock
	timingErrs    atomic.Int64 // readings of the server's timing that failed
	// The server's own underflow notices while the mixer played on a
	// PulseAudio stream of its own (serverCounted), its end excluded.
	serverUnderflows atomic.Int64
	serverCounted    atomic.Bool
	errs             [1 << 16]int64 // start minus aimed, ns, of the first 65536 starts
}

// record counts a start err ns after its aimed instant; one frame is
// how late the first frame at or after the instant may be.
func (s *stats) record(err, frame int64) {
	k := s.started.Load()
	if k < int64(len(s.errs)) {
		s.errs[k] = err
	}
	if err > frame {
		s.late.Add(1)
	}
	s.started.Store(k + 1)
}

// Stats are the mixer's figures for a run's summary.
type Stats struct {
	Device    string  // the device (Output's); "" from a Mixer alone
	LatencyMs float64 // the least offset: the device's latency, the mixer's lead and the margin, ms
	// DeviceLatencyMs is the device's own latency, from a frame handed to
	// it to its being heard, ms; LatencySource says whether it was
	// measured (LatencyPulse, LatencyWASAPI, LatencyALSA) or is the buffer asked for (LatencyModel),
	// and LatencyWhy why not measured.
	DeviceLatencyMs float64
	LatencySource   string
	LatencyWhy      string
	// Anchored reports whether the clock anchored before Open returned
	// (within Options.AnchorWait), which took AnchorMs: if not, the first
	// sounds wait for it and start late.
	Anchored bool
	AnchorMs float64
	AheadMs  float64 // what the mixer kept ahead of the device's takes, ms (Options.Ahead); on PulseAudio's own stream, its least request
	Started  int64   // sounds started
	Late     int64   // of those, started more than a frame after their aimed instant
	// Start minus aimed instant, ms: 0 when on time. On call (OnCall)
	// the aimed instant is where a sample-exact start would be, and
	// P99Ms - P1Ms is the spread the next pull puts in the starts.
	StartErrP1Ms  float64
	StartErrP50Ms float64
	StartErrP99Ms float64
	Underruns     int64 // times the device ran dry and inserted silence
	// ServerUnderflows counts the sound server's own notices that the
	// mixer's stream ran dry while it played, when ServerCounted (the
	// mixer played on a PulseAudio stream of its own): the device's word
	// beside Underruns, which the mixer finds from its clock.
	ServerUnderflows int64
	ServerCounted    bool
	ClockSteps       int64   // times the device's takes moved more than 2 ms at once without running dry (see clock)
	VoicesDropped    int64   // plays that found every voice busy (see MaxVoices)
	EventsDropped    int64   // events lost to a full queue or a bad sound index
	StreamStarved    int64   // buffers a stream could not fill in time
	StreamErrors     int64   // streamed files that failed while playing (each then plays no further)
	StreamError      string  // the first of those errors, naming its file; "" when none
	Frames           int64   // frames handed to the device
	TakeMaxMs        float64 // the most the device took between two pulls (on PulseAudio's own stream, its largest request), ms
	// Retimed counts the readings of the server's timing during the run
	// that moved the clock by more than 1 ms; TimingErrors those that
	// failed.
	Retimed      int64
	TimingErrors int64
}

// Stats returns the mixer's figures so far. Any one goroutine; it
// allocates (a copy of the errors to sort), so call it at the summary.
func (m *Mixer) Stats() Stats {
	k := min(m.st.started.Load(), int64(len(m.st.errs)))
	errs := slices.Clone(m.st.errs[:k])
	slices.Sort(errs)
	s := Stats{Started: m.st.started.Load(), Late: m.st.late.Load(), Underruns: m.st.underruns.Load(),
		VoicesDropped: m.st.voicesDropped.Load(), EventsDropped: m.st.eventsDropped.Load(),
		StreamStarved: m.st.streamStarved.Load(), Frames: m.st.written.Load(), ClockSteps: m.st.clockSteps.Load(),
		TakeMaxMs: float64(m.clock.framesNs(m.st.takeMax.Load())) / 1e6, Retimed: m.st.retimed.Load(), TimingErrors: m.st.timingErrs.Load(),
		ServerUnderflows: m.st.serverUnderflows.Load(), ServerCounted: m.st.serverCounted.Load()}
	for _, st := range m.streams {
		if !st.failed.Load() {
			continue
		}
		s.StreamErrors++
		if err, ok := st.err.Load().(error); ok && s.StreamError == "" {
			s.StreamError = err.Error()
		}
	}
	if len(errs) > 0 {
		// Nearest rank, as every figure of the summary.
		s.StartErrP1Ms = float64(errs[quantile.Rank(len(errs), 0.01)]) / 1e6
		s.StartErrP50Ms = float64(errs[quantile.Rank(len(errs), 0.5)]) / 1e6
		s.StartErrP99Ms = float64(errs[quantile.Rank(len(errs), 0.99)]) / 1e6
	}
	return s
}

// Onsets appends the onsets recorded since the last call to dst: the
// rows of sounds.csv. Any one goroutine.
func (m *Mixer) Onsets(dst []Onset) []Onset { return m.starts.drain(dst) }
