//go:build cgo

package app

import (
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/internal/hoststat"
)

// drain reads the records written since the last drain into a.figures,
// when drainFrames frames wait or drainEvery has passed. It never
// allocates. Render thread only.
func (a *app) drain(now int64) {
	if a.frames.Written()-a.figures.FramesRead() < drainFrames && now-a.drainedAt < drainEvery {
		return
	}
	a.drainedAt = now
	a.figures.Drain(a.frames, a.log)
}

// records returns the records the rings kept, with the measured window
// from a.from to end.
func (a *app) records(end int64) *bench.Records {
	frames, _ := a.frames.Records()
	ticks, _ := a.log.Ticks()
	inputs, _ := a.log.Inputs()
	return &bench.Records{Hz: a.opts.World.Hz, From: a.from, To: end, Frames: frames, Ticks: ticks, Inputs: inputs}
}

func (a *app) summarize(run *bench.Records) *Summary {
	st := a.stats
	sim := a.runner.Stats()
	ver, rend := gl.Driver()
	st.readGC()
	// The sim has stopped: the figures read the rest, over [a.from, end).
	f := a.figures.End(a.frames, a.log, run.To)
	kept, _ := run.Window()
	interp := "on"
	if !a.opts.Pacing.Interp {
		interp = "off"
	}
	var hitches []string
	for _, h := range a.opts.Load.Hitches {
		hitches = append(hitches, h.String())
	}
	s := &Summary{
		Engine:            "tandem",
		StoppedBy:         a.stoppedBy,
		Scene:             a.opts.Scene,
		Loop:              string(a.opts.Loop),
		Interp:            interp,
		Seconds:           Round(float64(run.To-run.From)/1e9, 3),
		WarmupSeconds:     a.opts.Measure.Warmup,
		Frames:            f.Frames,
		FPSMean:           Round(f.FPSMean, 1),
		FrameMsP50:        Round(f.FrameMsP50, 2),
		FrameMsP99:        Round(f.FrameMsP99, 2),
		FrameMsMax:        Round(f.FrameMsMax, 2),
		Hitches:           f.Hitches,
		TPS:               Round(f.TPS, 1),
		Ticks:             sim.Ticks,
		TickJitterMsP99:   Round(f.TickJitterMsP99, 3),
		AnimErrMsP99:      Round(f.AnimErrMsP99, 3),
		AnimErrMsRMS:      Round(f.AnimErrMsRMS, 3),
		AnimErrMsP95:      Round(f.AnimErrMsP95, 3),
		AnimErrOver2ms:    f.AnimErrOver2ms,
		Judder:            Round(f.Judder, 4),
		JudderPixels:      Round(f.JudderPixels, 4),
		OnTimePct:         Round(f.OnTimePct, 2),
		LatencyMsP50:      Round(f.LatencyMsP50, 2),
		LatencyMsP99:      Round(f.LatencyMsP99, 2),
		InputLatencyMsP50: Round(f.InputLatencyMsP50, 2),
		InputLatencyMsP99: Round(f.InputLatencyMsP99, 2),
		Inputs:            f.Inputs,
		InputLate:         sim.InputLate,
		SimBackwards:      f.SimBackwardsFrames,
		SimHeld:           f.SimHeldFrames,
		Hz:                a.opts.World.Hz,
		Sprites:           a.game.Entities(),
		SpriteSlots:       a.info.sprites,
		SpriteSize:        a.opts.World.SpriteSize,
		VSync:             a.opts.Window.VSync,
		SimCost:           a.opts.Load.SimCost.String(),
		RenderCost:        a.opts.Load.RenderCost.String(),
		Hitch:             strings.Join(hitches, ","),
		GCLoad:            a.opts.Load.GCLoad,
		StateHash:         fmt.Sprintf("%016x", a.game.Hash()),
		AllocsPerFrame:    Round(st.allocsPerFrame(), 3),
		OverdueFrames:     f.OverdueFrames,
		Extrapolated:      f.ExtrapolatedFrames,
		Eased:             a.interp.Eased,
		InterpDelayMsP50:  Round(f.DelayMsP50, 3),
		InterpDelay:       delayName(a.opts),
		PresentHoldMsP50:  Round(f.HoldMsP50, 3),
		FPSCap:            a.opts.Pacing.FPSCap,
		EmulatedVSyncHz:   a.opts.Pacing.EmulateHz,
		SnapshotAgeP50:    Round(f.SnapshotAgeMsP50, 2),
		SnapshotAgeP99:    Round(f.SnapshotAgeMsP99, 2),
		TimeScale:         Round(sim.Scale, 3),
		DroppedMs:         Round(float64(sim.Dropped)/1e6, 1),
		LateMaxMs:         Round(float64(sim.LateMax)/1e6, 2),
		GCCycles:          st.gcCycles,
		GCPauseMsTotal:    Round(st.gcPauseTotal*1e3, 3),
		GCPauseMsP99:      Round(st.gcPauseP99(), 3),
		Renderer:          rend,
		GLVersion:         ver,
		GoVersion:         runtime.Version(),
		LPNumThreads:      os.Getenv("LP_NUM_THREADS"),
		MaxRSSMB:          maxRSSMB(),
		HostStealPct:      Round(hoststat.StealPct(a.hostFrom, a.hostTo), 2),
		RecordsFrames:     len(kept),
		RecordsLost:       f.FramesLost + f.TicksLost + f.InputsLost,
		Record:            a.opts.Record,
		run:               run,
		work:              ptr(f.FrameWorkMsP50),
	}
	s.counts = a.game.Counters()
	return s
}
