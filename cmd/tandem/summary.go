package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"

	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/levels"
	"github.com/tandem-engine/tandem/physics"
)

// summary is the one JSON line -json prints at exit. Field names are a
// contract: scripts read them.
type summary struct {
	Scene          string  `json:"scene"`
	Loop           string  `json:"loop"`
	Seconds        float64 `json:"seconds"`
	Frames         uint64  `json:"frames"`
	FPSMean        float64 `json:"fps_mean"`
	FrameMsP50     float64 `json:"frame_ms_p50"`
	FrameMsP99     float64 `json:"frame_ms_p99"`
	FrameMsMax     float64 `json:"frame_ms_max"`
	TPS            float64 `json:"tps"`
	Ticks          uint64  `json:"ticks"`
	Hz             int     `json:"hz"`
	Sprites        int     `json:"sprites"`
	SpriteSize     int     `json:"sprite_size"`
	VSync          bool    `json:"vsync"`
	StateHash      string  `json:"state_hash"`
	AllocsPerFrame float64 `json:"allocs_per_frame"`
	OverdueFrames  uint64  `json:"frames_snapshot_overdue"`
	SnapshotAgeP50 float64 `json:"snapshot_age_ms_p50"`
	SnapshotAgeP99 float64 `json:"snapshot_age_ms_p99"`
	TimeScale      float64 `json:"time_scale"`
	DroppedMs      float64 `json:"dropped_ms"`
	LateMaxMs      float64 `json:"tick_late_ms_max"`
	GCCycles       uint64  `json:"gc_cycles"`
	GCPauseMsTotal float64 `json:"gc_pause_ms_total"`
	CoinsLeft      int     `json:"coins_left"`
	Renderer       string  `json:"gl_renderer"`
	GLVersion      string  `json:"gl_version"`
	GoVersion      string  `json:"go_version"`
	LPNumThreads   string  `json:"lp_num_threads,omitempty"`
}

func (a *app) summary(start, end int64) *summary {
	st := a.stats
	sim := a.runner.Stats()
	el := float64(end-start) / 1e9
	ver, rend := gl.Driver()
	st.readGC()
	s := &summary{
		Scene:          string(a.opts.scene),
		Loop:           a.opts.loop,
		Seconds:        round(el, 3),
		Frames:         st.frames,
		FPSMean:        round(float64(st.frames)/el, 1),
		FrameMsP50:     round(st.frameHist.quantile(0.5), 2),
		FrameMsP99:     round(st.frameHist.quantile(0.99), 2),
		FrameMsMax:     round(st.frameHist.quantile(1), 2),
		TPS:            round(float64(sim.Ticks)/el, 1),
		Ticks:          sim.Ticks,
		Hz:             a.opts.hz,
		Sprites:        a.info.sprites,
		SpriteSize:     a.opts.spriteSize,
		VSync:          a.opts.vsync,
		StateHash:      fmt.Sprintf("%016x", a.game.Hash()),
		AllocsPerFrame: round(st.allocsPerFrame(), 3),
		OverdueFrames:  st.overdue,
		SnapshotAgeP50: round(st.ageHist.quantile(0.5), 2),
		SnapshotAgeP99: round(st.ageHist.quantile(0.99), 2),
		TimeScale:      round(sim.Scale, 3),
		DroppedMs:      round(float64(sim.Dropped)/1e6, 1),
		LateMaxMs:      round(float64(sim.LateMax)/1e6, 2),
		GCCycles:       st.gcCycles,
		GCPauseMsTotal: round(st.gcPauseTotal*1e3, 3),
		Renderer:       rend,
		GLVersion:      ver,
		GoVersion:      runtime.Version(),
		LPNumThreads:   os.Getenv("LP_NUM_THREADS"),
	}
	if a.opts.scene == "platformer" {
		s.CoinsLeft = a.game.World().CoinsLeft()
	}
	return s
}

// round rounds to d decimals; NaN (nothing measured) becomes -1, which JSON
// can carry.
func round(v float64, d int) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return -1
	}
	p := math.Pow(10, float64(d))
	return math.Round(v*p) / p
}

func (s *summary) writeJSON(w io.Writer) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// loadLevel loads the platformer's level: the demo level, embedded in the
// binary, unless a file is named.
func loadLevel(path string) (*physics.Level, error) {
	if path == "" {
		return levels.Demo()
	}
	return physics.LoadLevel(path)
}
