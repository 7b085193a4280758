//go:build cgo

package app

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/internal/hoststat"
	"github.com/tandem-engine/tandem/internal/threadcpu"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

// meter is the add-on that measures a run for its summary: the frame
// statistics the HUD shows, the rings every frame and tick are recorded
// into (the newest kept for -out), the figures read from the rings as
// they fill, and the host's CPU accounting over the measured window.
type meter struct {
	noHooks
	hz int
	// The probe's motion, on the sim thread: the ticks stepped, and
	// whether the bench's button is down.
	ticks uint64
	held  bool
	// shape publishes the probe as shapes and text (-probe-shape),
	// wrapped at wrap px, the framebuffer's width when the sim started.
	shape  bool
	wrap   float64
	from   int64 // the measured window starts here, after the warm-up
	stats  *frameStats
	frames *bench.Frames
	log    *simthread.Log
	// figures read the rings as they fill (drain), when drainFrames
	// frames wait or drainEvery has passed since drainedAt.
	figures   *bench.Stream
	drainedAt int64
	// The host's CPU accounting at the window's start and end: how much
	// of the window the hypervisor stole (nil off Linux); and the HUD's,
	// the reading of half a second ago and when.
	host             *hoststat.Reader
	hostFrom, hostTo hoststat.Times
	hostHUD          hoststat.Times
	hostHUDAt        int64
	// The render thread's and the process's CPU time at the window's
	// start and end, with the frames counted by then (thread nil off
	// Linux), opened on the render thread at its first frame.
	thread                   *threadcpu.Reader
	threadOpened             bool
	threadFrom, threadTo     threadcpu.Times
	threadFromAt, threadToAt int64
	threadFromN, threadToN   uint64
}

// newMeter starts measuring a run of o at start. The rings keep the
// newest 131,072 frames, and the ticks of the whole bench run up to
// 262,144 (73 minutes at 60 Hz).
func newMeter(o Options, start int64) *meter {
	hz := o.World.Hz
	m := &meter{hz: hz, from: start + int64(o.Measure.Warmup)}
	m.frames = bench.NewFrames(1 << 17)
	m.log = simthread.NewLog(min(max(1<<16, int((o.Measure.Warmup+o.Seconds+2*time.Second).Seconds()*float64(hz))), 1<<18), 1<<14)
	m.figures, m.drainedAt = bench.NewStream(hz, m.from, 0), start
	m.stats = newFrameStats(start, m.from)
	if r, err := hoststat.Open(); err == nil {
		m.host = r
	}
	return m
}

func (m *meter) tick(in simthread.TickInput, _ int64) {
	m.ticks++
	m.held = in.Down&benchButton != 0
}

// publish publishes the probe, which every run's figures read (judder):
// after k ticks it is at k*240/hz px, exactly the distance 240 px/s
// covers in k ticks of sim time.
func (m *meter) publish(dst *snapshot.Snapshot) {
	dst.Probe = float64(m.ticks*probeSpeed) / float64(m.hz)
	dst.ProbeHeld = m.held
	if m.shape && m.wrap > 0 {
		publishProbeShape(&dst.Draw, dst.Probe, m.wrap, m.held)
	}
}

// frameStart reads the host's CPU accounting and the render thread's
// when the measured window begins. The first frame, on the render thread,
// opens the thread's (it allocates: before the allocations are counted,
// a second after the start at the earliest).
func (m *meter) frameStart(now int64) {
	if !m.threadOpened {
		m.threadOpened = true
		m.thread, _ = threadcpu.Open() // nil off Linux, which reads nothing
	}
	if now < m.from {
		return
	}
	if m.host != nil && m.hostFrom.Total == 0 {
		m.hostFrom, _ = m.host.Read()
	}
	if m.threadFromAt == 0 {
		if t, ok := m.thread.Read(); ok {
			m.threadFrom, m.threadFromAt, m.threadFromN = t, now, m.stats.frames
		}
	}
}

func (m *meter) frameEnd(e frameEnd) {
	if e.swapped {
		m.stats.frame(e.at, e.age)
		if e.drew {
			if e.rec.Overdue {
				m.stats.overdue++
			}
			m.frames.Add(e.rec)
		}
	}
	m.drain(e.at)
}

func (m *meter) stop(int64) {
	if m.host != nil {
		m.hostTo, _ = m.host.Read()
		m.host.Close()
		m.host = nil // the screenshot's frame after the run reads no more
	}
	if t, ok := m.thread.Read(); ok && m.threadFromAt != 0 {
		m.threadTo, m.threadToAt, m.threadToN = t, snapshot.Now(), m.stats.frames
	}
	m.thread.Close()
	m.thread = nil
}

// cpuFigures is threadcpu.Figures as a summary writes them, null when
// not read (off Linux, or a run that ended in its warm-up).
func cpuFigures(a, b threadcpu.Times, frames int, d int64) (cpu, wait, others bench.Num) {
	c, w, o, ok := threadcpu.Figures(a, b, frames, d)
	if !ok {
		return bench.NaN, bench.NaN, bench.NaN
	}
	return bench.Num(Round(c, 3)), bench.Num(Round(w, 3)), bench.Num(Round(o, 1))
}

// drain reads the records written since the last drain into the figures,
// when drainFrames frames wait or drainEvery has passed. It never
// allocates. Render thread only.
func (m *meter) drain(now int64) {
	if m.frames.Written()-m.figures.FramesRead() < drainFrames && now-m.drainedAt < drainEvery {
		return
	}
	m.drainedAt = now
	m.figures.Drain(m.frames, m.log)
}

// records returns the records the rings kept, with the measured window
// from m.from to end.
func (m *meter) records(end int64) *bench.Records {
	frames, _ := m.frames.Records()
	ticks, _ := m.log.Ticks()
	inputs, _ := m.log.Inputs()
	return &bench.Records{Hz: m.hz, From: m.from, To: end, Frames: frames, Ticks: ticks, Inputs: inputs}
}

// steal is the share of the CPU the host stole since the reading before,
// in percent, reading /proc/stat at most twice a second (no allocation);
// -1 until two readings (or off Linux). For the HUD.
func (m *meter) steal(now int64, last float64) float64 {
	if m.host == nil {
		return -1
	}
	if now-m.hostHUDAt >= 500_000_000 {
		if t, ok := m.host.Read(); ok {
			last = hoststat.StealPct(m.hostHUD, t)
			m.hostHUD, m.hostHUDAt = t, now
		}
	}
	return last
}

// runEnd is what the session knows of a run as it ends, for its summary.
type runEnd struct {
	stoppedBy string
	sim       simthread.Stats
	slots     int // the sprite slots a snapshot carries
	eased     int // the frames the interpolation eased
	// game is the game's sim, for its entities, hash, counters and
	// dropped sounds; nil when the sim is stuck inside a tick, whose
	// world is not ours to read.
	game engine.Sim
}

// summarize is the summary of a run of o that ended as end says, over
// the records run, the figures read to its end: after the sim has
// stopped. It fills the sections the meter measures (the run, the sim,
// the frames' figures, the host); the input and the sound are their
// add-ons', none measured until they fill them.
func (m *meter) summarize(o Options, end runEnd, run *bench.Records) *Summary {
	st := m.stats
	ver, rend := gl.Driver()
	st.readGC()
	// The sim has stopped: the figures read the rest, over [m.from, end).
	f := m.figures.End(m.frames, m.log, run.To)
	kept, _ := run.Window()
	interp := "on"
	if o.Pacing.Snap {
		interp = "off"
	}
	var hitches []string
	for _, h := range o.Load.Hitches {
		hitches = append(hitches, h.String())
	}
	sum := &Summary{Summary: bench.Summary{
		Run: bench.Run{
			Engine: "tandem", StoppedBy: end.stoppedBy, Scene: o.Scene, Loop: string(o.Loop), Interp: interp,
			Seconds: Round(float64(run.To-run.From)/1e9, 3), WarmupSeconds: o.Measure.Warmup.Seconds(),
			Hz: o.World.Hz, SpriteSlots: end.slots, SpriteSize: o.World.SpriteSize, VSync: o.Window.VSync,
			ProbeShape: o.Measure.ProbeShape,
			SimCost:    o.Load.SimCost.String(), RenderCost: o.Load.RenderCost.String(), Hitch: strings.Join(hitches, ","),
			GCLoad: o.Load.GCLoad, InterpDelay: delayName(o), Eased: end.eased, FPSCap: o.Pacing.FPSCap,
			EmulatedVSyncHz: o.Pacing.EmulateHz, Record: o.Record,
			RecordsFrames: len(kept), RecordsLost: f.FramesLost + f.TicksLost + f.InputsLost,
		},
		Sim: bench.Sim{
			Ticks: end.sim.Ticks, InputLate: end.sim.InputLate, TimeScale: Round(end.sim.Scale, 3),
			DroppedMs: Round(float64(end.sim.Dropped)/1e6, 1), LateMaxMs: Round(float64(end.sim.LateMax)/1e6, 2),
		},
		Figures: f,
		Input:   bench.NoInput(""),
		Sound:   bench.NoSound(),
		Host: bench.Host{
			Renderer: rend, GLVersion: ver, GoVersion: runtime.Version(), LPNumThreads: os.Getenv("LP_NUM_THREADS"),
			MaxRSSMB: maxRSSMB(), AllocsPerFrame: bench.Num(Round(st.allocsPerFrame(), 3)), GCCycles: st.gcCycles,
			GCCyclesMeasured: bench.Num(st.gcCyclesMeasured()),
			GCPauseMsTotal:   Round(st.gcPauseTotal*1e3, 3), GCPauseMsP99: bench.Num(Round(st.gcPauseP99(), 3)),
			HostStealPct: bench.NaN,
		},
	}, run: run, work: ptr(f.FrameWorkMsP50)}
	if p := hoststat.StealPct(m.hostFrom, m.hostTo); p >= 0 {
		sum.HostStealPct = bench.Num(Round(p, 2))
	}
	sum.RenderCPUMsPerFrame, sum.RenderRunqMsPerFrame, sum.OtherThreadsCPUPct = cpuFigures(m.threadFrom, m.threadTo, int(m.threadToN-m.threadFromN), m.threadToAt-m.threadFromAt)
	if end.game == nil {
		sum.SimStuckAt = ptr(end.sim.Ticks)
	} else {
		sum.Sprites, sum.StateHash, sum.counts = end.game.Entities(), fmt.Sprintf("%016x", end.game.Hash()), end.game.Counters()
		sum.AudioPlaysDropped = end.game.SoundsDropped()
	}
	return sum
}
