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

// Summary is the one JSON line -json prints at exit: bench.Summary's
// sections, each filled by the part that measures it (the run and the
// frames by the meter, the input by the bench's presses, the sound by
// the sound, the host floor by -host-floor), then a replay's report and
// the game's own counters. Field names are a contract: scripts read
// them. The frame, tick, pacing and latency figures are computed by
// package bench from the run's records over the whole measured window
// (after -warmup in the bench; the whole run in run), so they are what
// an outside tool would compute from the same timestamps: a bench.Stream
// reads every record from the rings as they fill, its percentiles within
// bench.HistRelErr (0.4%) of the exact ones. The rings keep the newest
// records for -out (RecordsFrames of the window's frames). A figure not
// measured is null.
type Summary struct {
	bench.Summary
	Replay *replayReport `json:"replay,omitempty"`

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
// (or is not known).
func StealWarning(pct bench.Num) string {
	if v, ok := pct.Value(); !ok || v < hoststat.Notable {
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

// Round rounds v to d decimals, for a figure of the run's settings or
// the host's; NaN stays NaN.
func Round(v float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(v*p) / p
}

// WriteText writes the figures a person reads first, a line a subject,
// for tandem bench without -json: what ran, the frames, the sim, the
// pacing, the latency and the host. -json has every figure.
func (s *Summary) WriteText(w io.Writer) error {
	ms := func(n bench.Num) string {
		v, ok := n.Value()
		if !ok {
			return "–"
		}
		return strconv.FormatFloat(v, 'f', 2, 64) + " ms"
	}
	rate := func(n bench.Num) string {
		if v, ok := n.Value(); ok {
			return strconv.FormatFloat(v, 'f', 1, 64)
		}
		return "–"
	}
	judder := "–" // the probe did not move
	if v, ok := s.Judder.Value(); ok {
		judder = strconv.FormatFloat(v, 'f', 3, 64)
	}
	ran := fmt.Sprintf("%s, %d sprites, %s loop", s.Scene, s.Sprites, s.Loop)
	if s.FPSCap > 0 {
		ran += fmt.Sprintf(", -fps-cap %d", s.FPSCap)
	}
	if s.VSync || s.EmulatedVSyncHz > 0 {
		ran += ", vsync"
	}
	allocs := "– allocs a frame" // a run shorter than its warm-up
	if v, ok := s.AllocsPerFrame.Value(); ok {
		allocs = fmt.Sprintf("%.3g allocs a frame", v)
	}
	if s.Profiling != "" && s.Profiling != "none" {
		// The profilers allocate in the process too, and the count is the
		// whole process's.
		allocs += " (with " + s.Profiling + " on, theirs counted)"
	}
	lines := []string{
		fmt.Sprintf("tandem bench: %s; %.1f s measured after %.1f s of warm-up", ran, s.Seconds, s.WarmupSeconds),
		fmt.Sprintf("  frames   %d at %s FPS; frame time p50 %s, p99 %s; %d hitches; %s",
			s.Frames, rate(s.FPSMean), ms(s.FrameMsP50), ms(s.FrameMsP99), s.Hitches, allocs),
		fmt.Sprintf("  sim      %s ticks a second; ticks start late by %s at p99", rate(s.TPS), ms(s.TickJitterMsP99)),
		fmt.Sprintf("  pacing   animation error p99 %s, %d frames over 2 ms; judder %s; delay %s (%s); %d frames overdue, %d backwards",
			ms(s.AnimErrMsP99), s.AnimErrOver2ms, judder, ms(s.DelayMsP50), s.InterpDelay, s.OverdueFrames, s.SimBackwardsFrames),
		fmt.Sprintf("  latency  p50 %s, p99 %s; input p50 %s", ms(s.LatencyMsP50), ms(s.LatencyMsP99), ms(s.InputLatencyMsP50)),
	}
	host := "  host     steal –"
	if v, ok := s.HostStealPct.Value(); ok {
		host = "  host     steal " + strconv.FormatFloat(v, 'f', 1, 64) + "%"
	}
	if s.HostFloorMsP99 != nil && s.HostFloorCacheMsP99 != nil && s.HostFloorWorkMs != nil {
		host += fmt.Sprintf("; the same %s of work again and again differs by %s (arithmetic) and %s (cache-bound) at p99",
			ms(bench.Num(*s.HostFloorWorkMs)), ms(bench.Num(*s.HostFloorMsP99)), ms(bench.Num(*s.HostFloorCacheMsP99)))
	}
	if _, ok := s.RenderCPUMsPerFrame.Value(); ok {
		host += fmt.Sprintf("; render thread %s of CPU a frame, %s waiting for a core; other threads %s%% of a core",
			ms(s.RenderCPUMsPerFrame), ms(s.RenderRunqMsPerFrame), rate(s.OtherThreadsCPUPct))
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
