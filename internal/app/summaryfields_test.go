package app

import (
	"bytes"
	"encoding/json"
	"github.com/tandem-engine/tandem/bench"
	"maps"
	"slices"
	"testing"

	"github.com/tandem-engine/tandem/internal/engine"
)

// summaryFields26 are the summary's JSON field names on 2026-11-26 (at
// fc2c6e1), a contract scripts read: a field may be added (then here
// too), never renamed or dropped.
var summaryFields26 = []string{
	"engine", "stopped_by", "scene", "loop", "interp", "seconds", "warmup_seconds", "frames", "fps_mean",
	"frame_ms_p50", "frame_ms_p99", "frame_ms_max", "hitches", "tps", "ticks", "tick_jitter_ms_p99",
	"anim_err_ms_p99", "anim_err_ms_rms", "anim_err_ms_p95", "frames_anim_err_over_2ms", "judder",
	"judder_pixels", "on_time_pct", "latency_ms_p50", "latency_ms_p99", "input_latency_ms_p50",
	"input_latency_ms_p99", "inputs", "input_source", "input_stamp_err_ms_p50", "input_stamp_err_ms_p99",
	"input_server_ms_p99", "input_wait_tick_ms_p50", "input_shown_ms_p50", "input_frame_ms_p50",
	"input_unpaired", "input_late", "frames_sim_backwards", "frames_sim_held", "hz", "sprites", "sprite_slots",
	"sprite_size", "vsync", "simcost", "rendercost", "hitch", "gcload_mb_s", "state_hash", "allocs_per_frame",
	"frames_snapshot_overdue", "frames_extrapolated", "frames_eased", "interp_delay_ms_p50", "interp_delay",
	"present_hold_ms_p50", "fps_cap", "emulated_vsync_hz", "snapshot_age_ms_p50", "snapshot_age_ms_p99",
	"time_scale", "dropped_ms", "tick_late_ms_max", "gc_cycles", "gc_pause_ms_total", "gc_pause_ms_p99",
	"gl_renderer", "gl_version", "go_version", "lp_num_threads", "max_rss_mb", "host_steal_pct", "record",
	"record_error", "replay", "error", "sim_stuck_at_tick", "audio", "audio_latency_ms", "audio_timing",
	"audio_start_err_ms_p1", "audio_start_err_ms_p50", "audio_start_err_ms_p99", "av_offset_ms_p1",
	"av_offset_ms_p50", "av_offset_ms_p99", "audio_underruns", "audio_voices_dropped", "audio_plays_dropped",
	"av_lock", "records_frames", "records_lost", "host_floor_work_ms", "host_floor_ms_p99",
	"host_floor_over_2ms_pct", "host_floor_reps", "host_floor_cache_ms_p99", "host_floor_cache_over_2ms_pct",
	"profiling",
}

// summaryKeysMain are the names of every field a bench run's JSON line
// can hold, as main wrote them before the summary was built from bench's
// sections: a Summary with every omitempty field set, written by
// WriteJSON, its keys sorted: 107 at 2994abf, and -probe-check's 7 that
// main added by 8a4813e (114), and audio_server_underflows (115), and
// the render thread's and the other threads' CPU (118).
var summaryKeysMain = []string{
	"allocs_per_frame", "anim_err_ms_p95", "anim_err_ms_p99", "anim_err_ms_rms", "audio", "audio_anchor_ms",
	"audio_anchored", "audio_device_latency_ms", "audio_events_dropped", "audio_latency_ms",
	"audio_latency_source", "audio_plays_dropped", "audio_server_underflows", "audio_start_err_ms_p1", "audio_start_err_ms_p50",
	"audio_start_err_ms_p99", "audio_stream_error", "audio_stream_errors", "audio_stream_starved", "audio_timing",
	"audio_underruns", "audio_voices_dropped", "av_lock", "av_offset_ms_p1", "av_offset_ms_p50",
	"av_offset_ms_p99", "dropped_ms", "emulated_vsync_hz", "engine", "error", "fps_cap", "fps_mean",
	"frame_ms_max", "frame_ms_p50", "frame_ms_p99", "frames", "frames_anim_err_over_2ms", "frames_eased",
	"frames_extrapolated", "frames_sim_backwards", "frames_sim_held", "frames_snapshot_overdue", "gc_cycles",
	"gc_cycles_measured", "gc_pause_ms_p99", "gc_pause_ms_total", "gcload_mb_s", "gl_renderer", "gl_version", "go_version", "hitch",
	"hitches", "host_floor_cache_ms_p99", "host_floor_cache_over_2ms_pct", "host_floor_ms_p99",
	"host_floor_over_2ms_pct", "host_floor_reps", "host_floor_work_ms", "host_steal_pct", "hz",
	"input_frame_ms_p50", "input_late", "input_latency_ms_p50", "input_latency_ms_p99", "input_server_ms_p99",
	"input_shown_ms_p50", "input_source", "input_stamp_err_ms_p50", "input_stamp_err_ms_p99", "input_unpaired",
	"input_wait_tick_ms_p50", "inputs", "interp", "interp_delay", "interp_delay_ms_p50", "judder",
	"judder_pixels", "latency_ms_p50", "latency_ms_p99", "loop", "lp_num_threads", "max_rss_mb", "on_time_pct",
	"other_threads_cpu_pct", "present_hold_ms_p50", "probe_check_skipped", "probe_checked_frames", "probe_err_px_max", "probe_err_px_mean",
	"probe_label_spread_px", "probe_missing_frames", "probe_shape", "profiling", "record", "record_error",
	"records_frames", "records_lost", "render_cpu_ms_per_frame", "render_runq_ms_per_frame", "rendercost", "replay", "scene", "seconds", "sim_stuck_at_tick", "simcost",
	"snapshot_age_ms_p50", "snapshot_age_ms_p99", "sprite_size", "sprite_slots", "sprites", "state_hash",
	"stopped_by", "tick_jitter_ms_p99", "tick_late_ms_max", "ticks", "time_scale", "tps", "vsync",
	"warmup_seconds",
}

// TestSummaryKeysSinceMain checks that the JSON line has exactly the
// field names it had before its sections: none renamed, none lost, none
// added unnoticed (a new one is added here too). And that a figure not
// measured is written null, not -1, and read back as not measured.
func TestSummaryKeysSinceMain(t *testing.T) {
	one, reps := 1.0, 1
	var tick uint64 = 1
	s := &Summary{Replay: &replayReport{}}
	s.Sound = bench.NoSound()
	s.Input = bench.NoInput("synthetic")
	s.InputSource, s.InputUnpaired, s.Hitch, s.Record, s.RecordError, s.Error = "xtest", 1, "x", "x", "x", "x"
	s.SimStuckAt, s.AudioStreamError, s.AVLock, s.Profiling = &tick, "x", true, "none"
	s.HostFloorWorkMs, s.HostFloorMsP99, s.HostFloorOver2msPct, s.HostFloorReps = &one, &one, &one, &reps
	s.HostFloorCacheMsP99, s.HostFloorCacheOver2msPct = &one, &one
	s.ProbeShape, s.ProbeChecked, s.ProbeSkipped, s.ProbeMissing = true, &reps, &reps, &reps
	s.ProbeErrPxMean, s.ProbeErrPxMax, s.ProbeLabelSpreadPx = &one, &one, &one
	s.InputLatencyMsP50, s.FPSMean, s.AVOffsetMsP50 = bench.NaN, 59.9, -3.5
	var b bytes.Buffer
	if err := s.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	m := map[string]any{}
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	keys := slices.Sorted(maps.Keys(m))
	if !slices.Equal(keys, summaryKeysMain) {
		for _, k := range keys {
			if !slices.Contains(summaryKeysMain, k) {
				t.Errorf("a field %q that main's line did not have", k)
			}
		}
		for _, k := range summaryKeysMain {
			if !slices.Contains(keys, k) {
				t.Errorf("main's field %q is gone: a script reading it would break", k)
			}
		}
	}
	for _, k := range []string{"input_latency_ms_p50", "input_stamp_err_ms_p50", "audio_start_err_ms_p1", "av_offset_ms_p99"} {
		if v, ok := m[k]; !ok || v != nil {
			t.Errorf("%s = %v, want null (not measured)", k, v)
		}
	}
	if m["fps_mean"] != 59.9 || m["av_offset_ms_p50"] != -3.5 {
		t.Errorf("fps_mean %v, av_offset_ms_p50 %v: want 59.9 and -3.5 (a negative figure is measured)", m["fps_mean"], m["av_offset_ms_p50"])
	}
	// The names a game's counter may not take are the same set, read
	// from the typed fields.
	if names := slices.Sorted(slices.Values(SummaryFields())); !slices.Equal(names, summaryKeysMain) {
		t.Errorf("SummaryFields: %d names %q, want main's %d", len(names), names, len(summaryKeysMain))
	}
	back, err := bench.ReadSummary(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := back.InputLatencyMsP50.Value(); ok || back.AVOffsetMsP50 != -3.5 || back.FPSMean != 59.9 {
		t.Errorf("read back: input latency %v, av offset %v, fps %v", back.InputLatencyMsP50, back.AVOffsetMsP50, back.FPSMean)
	}
}

// TestSummaryFields checks that every name of the contract is still a
// field of the summary, spelled the same.
func TestSummaryFields(t *testing.T) {
	have := SummaryFields()
	for _, name := range summaryFields26 {
		if !slices.Contains(have, name) {
			t.Errorf("the summary has no field %q: a script reading it would break", name)
		}
	}
	seen := map[string]bool{}
	for _, name := range have {
		if seen[name] {
			t.Errorf("two fields named %q", name)
		}
		seen[name] = true
	}
}

// TestCounterNames checks that a game counter named like a summary field
// is renamed game_NAME whether or not this run prints that field (error
// and record_error are omitted when empty), and others keep their name.
func TestCounterNames(t *testing.T) {
	s := &Summary{counts: []engine.Count{{Name: "error", Value: 1}, {Name: "record_error", Value: 2}, {Name: "fps_mean", Value: 3}, {Name: "hits", Value: 4}}}
	var b bytes.Buffer
	if err := s.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	m := map[string]any{}
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]float64{"game_error": 1, "game_record_error": 2, "game_fps_mean": 3, "hits": 4} {
		if m[name] != want {
			t.Errorf("%s = %v, want %v in %s", name, m[name], want, b.String())
		}
	}
	if _, ok := m["error"]; ok {
		t.Errorf("a counter took the name error: %s", b.String())
	}
}
