package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
)

// Num is a figure that may not have been measured: NaN stands for "not
// measured" (no frames, no presses, no sounds in the window), and JSON
// writes it null. A measured figure may be any number, negative too (a
// sound that starts early, a picture that leads its sound).
type Num float64

// NaN is the value of a figure not measured.
var NaN = Num(math.NaN())

// Value returns n and whether it was measured.
func (n Num) Value() (float64, bool) {
	v := float64(n)
	return v, !math.IsNaN(v) && !math.IsInf(v, 0)
}

// MarshalJSON writes n as encoding/json writes a float64, or null when
// it was not measured.
func (n Num) MarshalJSON() ([]byte, error) {
	v, ok := n.Value()
	if !ok {
		return []byte("null"), nil
	}
	return json.Marshal(v)
}

// UnmarshalJSON reads a number, or null as not measured.
func (n *Num) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*n = NaN
		return nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("bench: a figure of %s: not a number or null", b)
	}
	*n = Num(v)
	return nil
}

// Summary is the JSON summary line of a run (tandem bench -json, a
// matrix cell's report.json), in sections each filled by the part of the
// engine that measures it. The sections are embedded, so the line is
// flat: its field names are a contract scripts read. "Not measured" is
// null ([Num]).
type Summary struct {
	Run
	Sim
	Figures
	Input
	Sound
	Host
	Probe
}

// Run is what ran and how it ended: the session's, from its options.
type Run struct {
	Engine        string  `json:"engine"`
	StoppedBy     string  `json:"stopped_by"`
	Scene         string  `json:"scene"`
	Loop          string  `json:"loop"`
	Interp        string  `json:"interp"`
	Seconds       float64 `json:"seconds"`
	WarmupSeconds float64 `json:"warmup_seconds"`
	Hz            int     `json:"hz"`
	Sprites       int     `json:"sprites"`      // live entities at the end
	SpriteSlots   int     `json:"sprite_slots"` // the slots a snapshot carries, live or reserved
	SpriteSize    int     `json:"sprite_size"`
	VSync         bool    `json:"vsync"`
	// ProbeShape says the probe was drawn as a shape and text
	// (-probe-shape), not as a quad.
	ProbeShape  bool    `json:"probe_shape,omitempty"`
	SimCost     string  `json:"simcost"`
	RenderCost  string  `json:"rendercost"`
	Hitch       string  `json:"hitch,omitempty"`
	GCLoad      float64 `json:"gcload_mb_s"`
	StateHash   string  `json:"state_hash"`
	InterpDelay string  `json:"interp_delay"`
	// Eased counts the frames the interpolation eased (a snapshot late).
	Eased           int    `json:"frames_eased"`
	FPSCap          int    `json:"fps_cap"`
	EmulatedVSyncHz int    `json:"emulated_vsync_hz"`
	Record          string `json:"record,omitempty"`
	RecordError     string `json:"record_error,omitempty"`
	// Error is what failed the run, when something did (a recording,
	// a profile or the report that could not be written): the exit code
	// is then 1.
	Error string `json:"error,omitempty"`
	// SimStuckAt is the tick the sim was inside when the run ended and
	// never finished it (a game's Tick that hangs): the state hash and
	// the game's figures are not known, and the recording ends cut there.
	SimStuckAt *uint64 `json:"sim_stuck_at_tick,omitempty"`
	// RecordsFrames is how many of the window's frames -out's frames.csv
	// and charts hold: the newest the ring kept, all of them in a run of
	// up to 131,072 frames. RecordsLost counts the records the figures
	// could not read before their ring wrapped (0 unless the render
	// thread fell that far behind).
	RecordsFrames int `json:"records_frames"`
	RecordsLost   int `json:"records_lost"`
	// Profiling names the profilers that ran ("cpuprofile,trace,pprof,
	// memprofile", or "none"; the command line sets it): they take CPU
	// and allocate, and allocs_per_frame counts the whole process's
	// allocations, theirs too. Compare figures between runs with the same.
	Profiling string `json:"profiling,omitempty"`
}

// Sim is the sim thread's own account of its ticks.
type Sim struct {
	Ticks     uint64  `json:"ticks"`
	InputLate uint64  `json:"input_late"`
	TimeScale float64 `json:"time_scale"`
	DroppedMs float64 `json:"dropped_ms"`
	LateMaxMs float64 `json:"tick_late_ms_max"`
}

// InputLatency is the input latency: from the stamp of each input (a
// button the bench pushes, a key) to the present of the first frame
// showing its tick, from the records; with the bench's real presses, from
// each press instead (the bench's input add-on fills it then).
type InputLatency struct {
	Inputs            int `json:"inputs"` // input events measured
	InputLatencyMsP50 Num `json:"input_latency_ms_p50"`
	InputLatencyMsP99 Num `json:"input_latency_ms_p99"`
}

// Input is what the bench's real key presses measure (docs/bench.md),
// besides the input latency and count of [InputLatency].
type Input struct {
	// The bench's input: "xtest" (a real key through the X server, the
	// latency from the press), "sendinput" (the same through Windows'
	// SendInput) or "synthetic" (a button pushed into the queue, the
	// latency from its stamp, taken when a frame polls).
	InputSource string `json:"input_source,omitempty"`
	// With real presses: how late the engine stamped them, and the parts
	// of their latency; null otherwise.
	InputStampErrMsP50 Num `json:"input_stamp_err_ms_p50"`
	InputStampErrMsP99 Num `json:"input_stamp_err_ms_p99"`
	// The X server's part of the stamp's lateness at most: each press's
	// answer to a round trip sent right after it, minus the press.
	InputServerMsP99 Num `json:"input_server_ms_p99"`
	InputTickMsP50   Num `json:"input_wait_tick_ms_p50"`
	InputShownMsP50  Num `json:"input_shown_ms_p50"`
	InputFrameMsP50  Num `json:"input_frame_ms_p50"`
	InputUnpaired    int `json:"input_unpaired,omitempty"`
}

// NoInput is the Input of a run without real presses: nothing measured.
func NoInput(source string) Input {
	return Input{InputSource: source, InputStampErrMsP50: NaN, InputStampErrMsP99: NaN, InputServerMsP99: NaN,
		InputTickMsP50: NaN, InputShownMsP50: NaN, InputFrameMsP50: NaN}
}

// Sound is the sound's figures (docs/sound.md): the device, or why none
// ("none: ..."); the latency the mixer used; how each sound starts,
// "sample" (on its tick's sample) or "on-call" (at the device's next
// pull, as engines that play on call do: bench -audio-on-call); each
// start at the device minus the instant it was aimed at (on call, the
// instant a sample-exact start would have had); each start minus the
// present of the first frame showing its tick; the times the device ran
// dry; the plays that found every voice busy (they started, and a voice
// playing yielded to them); the sound calls a tick made past its cap of
// 16 (never published, so never heard: the same in a replay, and counted
// with or without a device).
type Sound struct {
	Audio              string  `json:"audio"`
	AudioLatencyMs     float64 `json:"audio_latency_ms"`
	AudioTiming        string  `json:"audio_timing"`
	AudioStartErrMsP1  Num     `json:"audio_start_err_ms_p1"`
	AudioStartErrMsP50 Num     `json:"audio_start_err_ms_p50"`
	AudioStartErrMsP99 Num     `json:"audio_start_err_ms_p99"`
	AVOffsetMsP1       Num     `json:"av_offset_ms_p1"`
	AVOffsetMsP50      Num     `json:"av_offset_ms_p50"`
	AVOffsetMsP99      Num     `json:"av_offset_ms_p99"`
	AudioUnderruns     int64   `json:"audio_underruns"`
	// The sound server's own notices that the stream ran dry while it
	// played (PulseAudio's underflows; null on any other device, or
	// silent), beside audio_underruns, which the mixer finds itself.
	AudioServerUnderflows Num   `json:"audio_server_underflows"`
	AudioVoicesDropped    int64 `json:"audio_voices_dropped"`
	AudioPlaysDropped     int64 `json:"audio_plays_dropped"`
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
	// the stream, measured at the start), "wasapi" (the WASAPI stream's
	// clock, on Windows), "alsa" (ALSA's delay of the mixer's own PCM, on
	// Linux with no PulseAudio server) or "model" (the buffer asked for:
	// oto gives no delay, where those did not open); whether the
	// sound's clock anchored before the first tick, and how long the
	// device's start took to anchor it (a run whose clock did not anchor
	// starts its first sounds late; "" and 0 when silent).
	AudioDeviceLatencyMs float64 `json:"audio_device_latency_ms"`
	AudioLatencySource   string  `json:"audio_latency_source"`
	AudioAnchored        bool    `json:"audio_anchored"`
	AudioAnchorMs        float64 `json:"audio_anchor_ms"`
}

// NoSound is the Sound of a run with no sounds measured.
func NoSound() Sound {
	return Sound{AudioStartErrMsP1: NaN, AudioStartErrMsP50: NaN, AudioStartErrMsP99: NaN,
		AVOffsetMsP1: NaN, AVOffsetMsP50: NaN, AVOffsetMsP99: NaN, AudioServerUnderflows: NaN}
}

// Probe is -probe-check's: the measured frames whose probe was read back
// (every 8th), those skipped at the wrap, those where no probe was found;
// how far the probe's centre in the pixels was from where the frame's
// record puts it (mean and most, in px); with -probe-shape too, how much
// the label's centre moved against the square's (highest less lowest
// offset, px). All absent without -probe-check.
type Probe struct {
	ProbeChecked       *int     `json:"probe_checked_frames,omitempty"`
	ProbeSkipped       *int     `json:"probe_check_skipped,omitempty"`
	ProbeMissing       *int     `json:"probe_missing_frames,omitempty"`
	ProbeErrPxMean     *float64 `json:"probe_err_px_mean,omitempty"`
	ProbeErrPxMax      *float64 `json:"probe_err_px_max,omitempty"`
	ProbeLabelSpreadPx *float64 `json:"probe_label_spread_px,omitempty"`
}

// Host is the machine and the process: the GL driver, Go, memory, the
// garbage collector, and the host's share of the CPU.
type Host struct {
	Renderer       string `json:"gl_renderer"`
	GLVersion      string `json:"gl_version"`
	GoVersion      string `json:"go_version"`
	LPNumThreads   string `json:"lp_num_threads"`
	MaxRSSMB       Num    `json:"max_rss_mb"`
	AllocsPerFrame Num    `json:"allocs_per_frame"`
	GCCycles       uint64 `json:"gc_cycles"` // the process's, from its start
	// GCCyclesMeasured is the GC cycles of the measured window (after
	// the warm-up): null when the run ended within its warm-up.
	GCCyclesMeasured Num     `json:"gc_cycles_measured"`
	GCPauseMsTotal   float64 `json:"gc_pause_ms_total"`
	GCPauseMsP99     Num     `json:"gc_pause_ms_p99"`
	// HostStealPct is the share of the CPU the hypervisor stole in the
	// measured window (null off Linux).
	HostStealPct Num `json:"host_steal_pct"`
	// The render thread's CPU time a frame and its time a frame runnable
	// but waiting for a CPU, in ms, and the CPU time of the process's
	// other threads (the sim's, the runtime's, the driver's) in percent of
	// one CPU, over the measured window: Linux's schedstat and getrusage,
	// null elsewhere. A frame slower than its render thread's CPU time
	// waited for something: a core, the X server, the driver.
	RenderCPUMsPerFrame  Num `json:"render_cpu_ms_per_frame"`
	RenderRunqMsPerFrame Num `json:"render_runq_ms_per_frame"`
	OtherThreadsCPUPct   Num `json:"other_threads_cpu_pct"`
	// With -host-floor: the machine's unevenness at the run's frame work.
	HostFloorWorkMs     *float64 `json:"host_floor_work_ms,omitempty"`
	HostFloorMsP99      *float64 `json:"host_floor_ms_p99,omitempty"`
	HostFloorOver2msPct *float64 `json:"host_floor_over_2ms_pct,omitempty"`
	HostFloorReps       *int     `json:"host_floor_reps,omitempty"`
	// The same for work bound by the shared cache and memory.
	HostFloorCacheMsP99      *float64 `json:"host_floor_cache_ms_p99,omitempty"`
	HostFloorCacheOver2msPct *float64 `json:"host_floor_cache_over_2ms_pct,omitempty"`
}

// Figure is a figure of a [Summary] as the reports read it: its JSON name,
// which heads its column, and the typed field it reads.
type Figure struct {
	Name string
	Of   func(*Summary) Num
}

// Value returns f's value in s and whether s measured it.
func (f Figure) Value(s *Summary) (float64, bool) { return f.Of(s).Value() }

func count(n int) Num { return Num(float64(n)) }

// above0 is n when it is set (above 0), else not measured.
func above0(n int) Num {
	if n <= 0 {
		return NaN
	}
	return count(n)
}

func opt(p *float64) Num {
	if p == nil {
		return NaN
	}
	return Num(*p)
}

// The figures the reports, the verdict and the charts read.
var (
	FigFPSMean           = Figure{"fps_mean", func(s *Summary) Num { return s.FPSMean }}
	FigFrameMsP50        = Figure{"frame_ms_p50", func(s *Summary) Num { return s.FrameMsP50 }}
	FigFrameMsP99        = Figure{"frame_ms_p99", func(s *Summary) Num { return s.FrameMsP99 }}
	FigHitches           = Figure{"hitches", func(s *Summary) Num { return count(s.Hitches) }}
	FigTPS               = Figure{"tps", func(s *Summary) Num { return s.TPS }}
	FigHz                = Figure{"hz", func(s *Summary) Num { return above0(s.Hz) }}
	FigTickJitterMsP99   = Figure{"tick_jitter_ms_p99", func(s *Summary) Num { return s.TickJitterMsP99 }}
	FigAnimErrMsP99      = Figure{"anim_err_ms_p99", func(s *Summary) Num { return s.AnimErrMsP99 }}
	FigAnimErrMsRMS      = Figure{"anim_err_ms_rms", func(s *Summary) Num { return s.AnimErrMsRMS }}
	FigAnimErrOver2ms    = Figure{"frames_anim_err_over_2ms", func(s *Summary) Num { return count(s.AnimErrOver2ms) }}
	FigJudder            = Figure{"judder", func(s *Summary) Num { return s.Judder }}
	FigOnTimePct         = Figure{"on_time_pct", func(s *Summary) Num { return s.OnTimePct }}
	FigLatencyMsP50      = Figure{"latency_ms_p50", func(s *Summary) Num { return s.LatencyMsP50 }}
	FigInputLatencyP50   = Figure{"input_latency_ms_p50", func(s *Summary) Num { return s.InputLatencyMsP50 }}
	FigInterpDelayP50    = Figure{"interp_delay_ms_p50", func(s *Summary) Num { return s.DelayMsP50 }}
	FigPresentHoldP50    = Figure{"present_hold_ms_p50", func(s *Summary) Num { return s.HoldMsP50 }}
	FigOverdueFrames     = Figure{"frames_snapshot_overdue", func(s *Summary) Num { return count(s.OverdueFrames) }}
	FigSimBackwards      = Figure{"frames_sim_backwards", func(s *Summary) Num { return count(s.SimBackwardsFrames) }}
	FigAllocsPerFrame    = Figure{"allocs_per_frame", func(s *Summary) Num { return s.AllocsPerFrame }}
	FigHostStealPct      = Figure{"host_steal_pct", func(s *Summary) Num { return s.HostStealPct }}
	FigHostFloorP99      = Figure{"host_floor_ms_p99", func(s *Summary) Num { return opt(s.HostFloorMsP99) }}
	FigHostFloorCacheP99 = Figure{"host_floor_cache_ms_p99", func(s *Summary) Num { return opt(s.HostFloorCacheMsP99) }}
)

// reportFigures are every Figure above (a test checks that each reads
// the field its name is the JSON name of).
var reportFigures = []Figure{FigFPSMean, FigFrameMsP50, FigFrameMsP99, FigHitches, FigTPS, FigHz, FigTickJitterMsP99,
	FigAnimErrMsP99, FigAnimErrMsRMS, FigAnimErrOver2ms, FigJudder, FigOnTimePct, FigLatencyMsP50, FigInputLatencyP50,
	FigInterpDelayP50, FigPresentHoldP50, FigOverdueFrames, FigSimBackwards, FigAllocsPerFrame, FigHostStealPct,
	FigHostFloorP99, FigHostFloorCacheP99}

// ReadSummary decodes a JSON summary line. A figure the line does not
// hold (an older line, a field added since) is not measured, as a null
// one is: the sections start with every [Num] NaN. The game's own
// counters in the line are left out.
func ReadSummary(line []byte) (Summary, error) {
	var s Summary
	unmeasured(reflect.ValueOf(&s).Elem())
	if err := json.Unmarshal(line, &s); err != nil {
		return Summary{}, err
	}
	return s, nil
}

// unmeasured sets every Num in the struct v, embedded ones included, to
// NaN.
func unmeasured(v reflect.Value) {
	for i := range v.NumField() {
		f := v.Field(i)
		switch {
		case f.Type() == reflect.TypeFor[Num]():
			f.SetFloat(math.NaN())
		case f.Kind() == reflect.Struct && v.Type().Field(i).Anonymous:
			unmeasured(f)
		}
	}
}
