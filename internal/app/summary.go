package app

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tandem-engine/tandem/audio"
	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/internal/hoststat"
)

// Summary is the one JSON line -json prints at exit. Field names are a
// contract: scripts read them. The frame, tick, pacing and latency figures
// are computed by package bench from the run's records over the whole
// measured window (after -warmup in the bench; the whole run in run), so
// they are what an outside tool would compute from the same timestamps:
// a bench.Stream reads every record from the rings as they fill, its
// percentiles within bench.HistRelErr (0.4%) of the exact ones. The rings
// keep the newest records for -out (RecordsFrames of the window's frames).
type Summary struct {
	Engine            string  `json:"engine"`
	StoppedBy         string  `json:"stopped_by"`
	Scene             string  `json:"scene"`
	Loop              string  `json:"loop"`
	Interp            string  `json:"interp"`
	Seconds           float64 `json:"seconds"`
	WarmupSeconds     float64 `json:"warmup_seconds"`
	Frames            int     `json:"frames"`
	FPSMean           float64 `json:"fps_mean"`
	FrameMsP50        float64 `json:"frame_ms_p50"`
	FrameMsP99        float64 `json:"frame_ms_p99"`
	FrameMsMax        float64 `json:"frame_ms_max"`
	Hitches           int     `json:"hitches"`
	TPS               float64 `json:"tps"`
	Ticks             uint64  `json:"ticks"`
	TickJitterMsP99   float64 `json:"tick_jitter_ms_p99"`
	AnimErrMsP99      float64 `json:"anim_err_ms_p99"`
	AnimErrMsRMS      float64 `json:"anim_err_ms_rms"`
	AnimErrMsP95      float64 `json:"anim_err_ms_p95"`
	AnimErrOver2ms    int     `json:"frames_anim_err_over_2ms"`
	Judder            float64 `json:"judder"`
	JudderPixels      float64 `json:"judder_pixels"`
	OnTimePct         float64 `json:"on_time_pct"`
	LatencyMsP50      float64 `json:"latency_ms_p50"`
	LatencyMsP99      float64 `json:"latency_ms_p99"`
	InputLatencyMsP50 float64 `json:"input_latency_ms_p50"`
	InputLatencyMsP99 float64 `json:"input_latency_ms_p99"`
	Inputs            int     `json:"inputs"`
	// The bench's input: "xtest" (a real key through the X server, the
	// latency from the press), "sendinput" (the same through Windows'
	// SendInput) or "synthetic" (a button pushed into the
	// queue, the latency from its stamp, taken when a frame polls).
	InputSource string `json:"input_source,omitempty"`
	// With real presses: how late the engine stamped them, and the parts
	// of their latency (the stamp's is input_stamp_err_ms_p50); -1
	// otherwise.
	InputStampErrMsP50 float64 `json:"input_stamp_err_ms_p50"`
	InputStampErrMsP99 float64 `json:"input_stamp_err_ms_p99"`
	// The X server's part of the stamp's lateness at most: each press's
	// answer to a round trip sent right after it, minus the press.
	InputServerMsP99 float64       `json:"input_server_ms_p99"`
	InputTickMsP50   float64       `json:"input_wait_tick_ms_p50"`
	InputShownMsP50  float64       `json:"input_shown_ms_p50"`
	InputFrameMsP50  float64       `json:"input_frame_ms_p50"`
	InputUnpaired    int           `json:"input_unpaired,omitempty"`
	InputLate        uint64        `json:"input_late"`
	SimBackwards     int           `json:"frames_sim_backwards"`
	SimHeld          int           `json:"frames_sim_held"`
	Hz               int           `json:"hz"`
	Sprites          int           `json:"sprites"`      // live entities at the end
	SpriteSlots      int           `json:"sprite_slots"` // the slots a snapshot carries, live or reserved
	SpriteSize       int           `json:"sprite_size"`
	VSync            bool          `json:"vsync"`
	SimCost          string        `json:"simcost"`
	RenderCost       string        `json:"rendercost"`
	Hitch            string        `json:"hitch,omitempty"`
	GCLoad           float64       `json:"gcload_mb_s"`
	StateHash        string        `json:"state_hash"`
	AllocsPerFrame   float64       `json:"allocs_per_frame"`
	OverdueFrames    int           `json:"frames_snapshot_overdue"`
	Extrapolated     int           `json:"frames_extrapolated"`
	Eased            int           `json:"frames_eased"`
	InterpDelayMsP50 float64       `json:"interp_delay_ms_p50"`
	InterpDelay      string        `json:"interp_delay"`
	PresentHoldMsP50 float64       `json:"present_hold_ms_p50"`
	FPSCap           int           `json:"fps_cap"`
	EmulatedVSyncHz  int           `json:"emulated_vsync_hz"`
	SnapshotAgeP50   float64       `json:"snapshot_age_ms_p50"`
	SnapshotAgeP99   float64       `json:"snapshot_age_ms_p99"`
	TimeScale        float64       `json:"time_scale"`
	DroppedMs        float64       `json:"dropped_ms"`
	LateMaxMs        float64       `json:"tick_late_ms_max"`
	GCCycles         uint64        `json:"gc_cycles"`
	GCPauseMsTotal   float64       `json:"gc_pause_ms_total"`
	GCPauseMsP99     float64       `json:"gc_pause_ms_p99"`
	Renderer         string        `json:"gl_renderer"`
	GLVersion        string        `json:"gl_version"`
	GoVersion        string        `json:"go_version"`
	LPNumThreads     string        `json:"lp_num_threads"`
	MaxRSSMB         float64       `json:"max_rss_mb"`
	HostStealPct     float64       `json:"host_steal_pct"`
	Record           string        `json:"record,omitempty"`
	RecordError      string        `json:"record_error,omitempty"`
	Replay           *replayReport `json:"replay,omitempty"`
	// Error is what failed the run, when something did (a recording,
	// a profile or the report that could not be written): the exit code
	// is then 1.
	Error string `json:"error,omitempty"`
	// SimStuckAt is the tick the sim was inside when the run ended and
	// never finished it (a game's Tick that hangs): the state hash and
	// the game's figures are not known, and the recording ends cut there.
	SimStuckAt *uint64 `json:"sim_stuck_at_tick,omitempty"`
	// The sound (docs/sound.md): the device, or why none ("none: ...");
	// the latency the mixer used; how each sound starts, "sample" (on its
	// tick's sample) or "on-call" (at the device's next pull, as engines
	// that play on call do: bench -audio-on-call); each start at the
	// device minus the instant it was aimed at (on call, the instant a
	// sample-exact start would have had); each start minus the present of
	// the first frame showing its tick (-1: not measured); the times the
	// device ran dry; the plays that found every voice busy (they started,
	// and a voice playing yielded to them); the sound calls a tick made
	// past its cap of 16 (never published, so never heard: the same in a
	// replay, and counted with or without a device).
	Audio              string  `json:"audio"`
	AudioLatencyMs     float64 `json:"audio_latency_ms"`
	AudioTiming        string  `json:"audio_timing"`
	AudioStartErrMsP1  float64 `json:"audio_start_err_ms_p1"`
	AudioStartErrMsP50 float64 `json:"audio_start_err_ms_p50"`
	AudioStartErrMsP99 float64 `json:"audio_start_err_ms_p99"`
	AVOffsetMsP1       float64 `json:"av_offset_ms_p1"`
	AVOffsetMsP50      float64 `json:"av_offset_ms_p50"`
	AVOffsetMsP99      float64 `json:"av_offset_ms_p99"`
	AudioUnderruns     int64   `json:"audio_underruns"`
	AudioVoicesDropped int64   `json:"audio_voices_dropped"`
	AudioPlaysDropped  int64   `json:"audio_plays_dropped"`
	// What the device and the streamed files lost (docs/sound.md, "When
	// things fail"): sound events the mixer never took (its queue full
	// while the device took nothing, or a play of a stream that failed);
	// streamed files that failed while playing, and the first one's
	// error, naming it; buffers a stream could not fill in time. What
	// happened to the device, and when, is in audio.
	AudioEventsDropped int64  `json:"audio_events_dropped"`
	AudioStreamErrors  int64  `json:"audio_stream_errors"`
	AudioStreamError   string `json:"audio_stream_error,omitempty"`
	AudioStreamStarved int64  `json:"audio_stream_starved"`
	AVLock             bool   `json:"av_lock,omitempty"`

	// The device's own latency (from a frame handed to it to its being
	// heard) and where it came from: "pulseaudio" (the server's timing of
	// the stream, measured at the start) or "model" (the buffer asked
	// for: oto gives no delay through ALSA or WASAPI); whether the
	// sound's clock anchored before the first tick, and how long the
	// device's start took to anchor it (a run whose clock did not anchor
	// starts its first sounds late; "" and 0 when silent).
	AudioDeviceLatencyMs float64 `json:"audio_device_latency_ms"`
	AudioLatencySource   string  `json:"audio_latency_source"`
	AudioAnchored        bool    `json:"audio_anchored"`
	AudioAnchorMs        float64 `json:"audio_anchor_ms"`

	// RecordsFrames is how many of the window's frames -out's frames.csv
	// and charts hold: the newest the ring kept, all of them in a run of
	// up to 131,072 frames. RecordsLost counts the records the figures
	// could not read before their ring wrapped (0 unless the render
	// thread fell that far behind).
	RecordsFrames int `json:"records_frames"`
	RecordsLost   int `json:"records_lost"`

	// With -host-floor: the machine's unevenness at the run's frame work.
	HostFloorWorkMs     *float64 `json:"host_floor_work_ms,omitempty"`
	HostFloorMsP99      *float64 `json:"host_floor_ms_p99,omitempty"`
	HostFloorOver2msPct *float64 `json:"host_floor_over_2ms_pct,omitempty"`
	HostFloorReps       *int     `json:"host_floor_reps,omitempty"`
	// The same for work bound by the shared cache and memory.
	HostFloorCacheMsP99      *float64 `json:"host_floor_cache_ms_p99,omitempty"`
	HostFloorCacheOver2msPct *float64 `json:"host_floor_cache_over_2ms_pct,omitempty"`

	// With -probe-check: the measured frames whose probe was read back
	// (every 8th), those skipped at the wrap, those where no probe was
	// found; how far the probe's centre in the pixels was from where the
	// frame's record puts it (mean and most, in px); with -probe-shape
	// too, how much the label's centre moved against the square's
	// (highest less lowest offset, px). ProbeShape says the probe was
	// drawn as a shape and text (-probe-shape), not as a quad.
	ProbeShape         bool     `json:"probe_shape,omitempty"`
	ProbeChecked       *int     `json:"probe_checked_frames,omitempty"`
	ProbeSkipped       *int     `json:"probe_check_skipped,omitempty"`
	ProbeMissing       *int     `json:"probe_missing_frames,omitempty"`
	ProbeErrPxMean     *float64 `json:"probe_err_px_mean,omitempty"`
	ProbeErrPxMax      *float64 `json:"probe_err_px_max,omitempty"`
	ProbeLabelSpreadPx *float64 `json:"probe_label_spread_px,omitempty"`

	// Profiling names the profilers that ran ("cpuprofile,trace,pprof,
	// memprofile", or "none"; the command line sets it): they take CPU
	// and allocate, and allocs_per_frame counts the whole process's
	// allocations, theirs too. Compare figures between runs with the same.
	Profiling string `json:"profiling,omitempty"`

	// counts are the game's own figures (see Counter), written as fields
	// of their own after the engine's.
	counts []engine.Count

	// run is the records the rings kept, for -out; work, the median
	// frame work over the whole window (nil: take it from run).
	run  *bench.Records
	work *float64
	// presses is the real key presses the figures paired, for -out's
	// inputs.csv.
	presses []bench.PressRow
	// sounds are the sounds the bench's run started (sounds.csv).
	sounds []audio.Onset
	// shot is the record of the frame -screenshot wrote (tests read its
	// probe position).
	shot bench.FrameRecord
}

// Shot is the record of the frame -screenshot wrote (tests read its
// probe position).
func (s *Summary) Shot() bench.FrameRecord { return s.shot }

// Records returns the records the rings kept, for -out's CSVs and charts:
// the newest 131,072 frames and the ticks of up to 73 minutes at 60 Hz
// (the figures are the whole window's); nil when nothing ran.
func (s *Summary) Records() *bench.Records { return s.run }

// Sounds are sounds.csv's rows: each sound the bench's run started, with
// its tick, the instant it was aimed at and its start at the device.
func (s *Summary) Sounds() []audio.Onset { return s.sounds }

// Presses returns the bench's real key presses, each with its stamp, tick
// and the frame that showed it, for -out's inputs.csv; nil without them.
func (s *Summary) Presses() []bench.PressRow { return s.presses }

// Draining: the render thread hands the records to the figures every
// drainFrames frames, and at least every drainEvery (the ticks and inputs
// of a minimised window), long before a ring wraps: the frames ring holds
// 131,072, the ticks ring at least 65,536 (18 minutes at 60 Hz), the
// inputs ring 16,384. A drain costs tens of nanoseconds a frame read
// (bench's BenchmarkStreamDrain times a batch of 256, and of 1024, a
// drain's most after a pause), far under a frame.
const (
	drainFrames = 256
	drainEvery  = 100_000_000 // ns
)

// StealWarning returns what to tell the user about a run during which
// the host stole pct of the CPU, or "" when that was too little to matter
// (or is not known, -1).
func StealWarning(pct float64) string {
	if pct < hoststat.Notable {
		return ""
	}
	return fmt.Sprintf("warning: the host took %.1f%% of the CPU time (steal, host_steal_pct) during the measured window: the timing figures are disturbed; run again when the machine is quiet", pct)
}

// delayName is -interp-delay as given: auto, or the ms.
func delayName(o Options) string {
	if o.Pacing.DelayAuto {
		return "auto"
	}
	return strconv.FormatFloat(float64(o.Pacing.Delay)/1e6, 'g', -1, 64)
}

// Measured is v as measured, unrounded, for the figures a matrix's
// verdict tests: rounding would tie reps that differ, and the rank tests
// would count those ties. NaN (nothing measured) becomes -1, as in Round.
func Measured(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return -1
	}
	return v
}

// Round rounds to d decimals; NaN (nothing measured) becomes -1, which JSON
// can carry.
func Round(v float64, d int) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return -1
	}
	p := math.Pow(10, float64(d))
	return math.Round(v*p) / p
}

// WriteText writes the figures a person reads first, a line a subject,
// for tandem bench without -json: what ran, the frames, the sim, the
// pacing, the latency and the host. -json has every figure.
func (s *Summary) WriteText(w io.Writer) error {
	ms := func(v float64) string { // -1: not measured
		if v < 0 {
			return "–"
		}
		return strconv.FormatFloat(v, 'f', 2, 64) + " ms"
	}
	judder := "–" // the probe did not move
	if s.Judder >= 0 {
		judder = strconv.FormatFloat(s.Judder, 'f', 3, 64)
	}
	ran := fmt.Sprintf("%s, %d sprites, %s loop", s.Scene, s.Sprites, s.Loop)
	if s.FPSCap > 0 {
		ran += fmt.Sprintf(", -fps-cap %d", s.FPSCap)
	}
	if s.VSync || s.EmulatedVSyncHz > 0 {
		ran += ", vsync"
	}
	allocs := fmt.Sprintf("%.3g allocs a frame", s.AllocsPerFrame)
	if s.Profiling != "" && s.Profiling != "none" {
		// The profilers allocate in the process too, and the count is the
		// whole process's.
		allocs += " (with " + s.Profiling + " on, theirs counted)"
	}
	lines := []string{
		fmt.Sprintf("tandem bench: %s; %.1f s measured after %.1f s of warm-up", ran, s.Seconds, s.WarmupSeconds),
		fmt.Sprintf("  frames   %d at %.1f FPS; frame time p50 %s, p99 %s; %d hitches; %s",
			s.Frames, s.FPSMean, ms(s.FrameMsP50), ms(s.FrameMsP99), s.Hitches, allocs),
		fmt.Sprintf("  sim      %.1f ticks a second; ticks start late by %s at p99", s.TPS, ms(s.TickJitterMsP99)),
		fmt.Sprintf("  pacing   animation error p99 %s, %d frames over 2 ms; judder %s; delay %s (%s); %d frames overdue, %d backwards",
			ms(s.AnimErrMsP99), s.AnimErrOver2ms, judder, ms(s.InterpDelayMsP50), s.InterpDelay, s.OverdueFrames, s.SimBackwards),
		fmt.Sprintf("  latency  p50 %s, p99 %s; input p50 %s", ms(s.LatencyMsP50), ms(s.LatencyMsP99), ms(s.InputLatencyMsP50)),
	}
	host := "  host     steal " + strconv.FormatFloat(s.HostStealPct, 'f', 1, 64) + "%"
	if s.HostStealPct < 0 {
		host = "  host     steal –"
	}
	if s.HostFloorMsP99 != nil && s.HostFloorCacheMsP99 != nil && s.HostFloorWorkMs != nil {
		host += fmt.Sprintf("; the same %s of work again and again differs by %s (arithmetic) and %s (cache-bound) at p99",
			ms(*s.HostFloorWorkMs), ms(*s.HostFloorMsP99), ms(*s.HostFloorCacheMsP99))
	}
	lines = append(lines, host, "  (-json prints every figure; -out DIR writes the report and the CSVs, which tandem report DIR draws)")
	_, err := fmt.Fprintln(w, strings.Join(lines, "\n"))
	return err
}

// WriteJSON writes the summary as one line of JSON: the engine's fields,
// then the game's own counts. A count named like an engine field is
// written as game_NAME, so the engine's figure stays what scripts read.
func (s *Summary) WriteJSON(w io.Writer) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	b = b[:len(b)-1] // the closing brace
	for _, c := range s.counts {
		name := c.Name
		if slices.Contains(SummaryFields(), name) {
			name = "game_" + name
		}
		k, err := json.Marshal(name)
		if err != nil {
			return err
		}
		b = fmt.Appendf(b, ",%s:%d", k, c.Value)
	}
	_, err = fmt.Fprintf(w, "%s}\n", b)
	return err
}

// WriteJSONLine writes v as one line of JSON.
func WriteJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
