//go:build cgo

package app

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/internal/quantile"
	"github.com/tandem-engine/tandem/internal/threadcpu"
	"github.com/tandem-engine/tandem/snapshot"
	"github.com/tandem-engine/tandem/window"
)

// The ceiling (tandem bench -ceiling): the sprite batch's quads drawn with
// nothing else, by one thread, in the classic loop of a bare program:
// move every quad, upload their corners, one draw, swap. No sim
// thread, no snapshots, no interpolation, no frame table, no probe, no
// records. Its quads fall and bounce as the bunnymark's bunnies do, and
// turn when the bench game's do (Spin). Its frame rate is what this
// machine and its GL give for the same fill at the same count, so that the
// engine's can be read against it.

// CeilingConfig is what a ceiling run draws and for how long.
type CeilingConfig struct {
	Sprites, Size   int           // quads, and the px of their longer side
	Width, Height   int           // the window, in screen coordinates
	Warmup, Seconds time.Duration // run, then measure
	Hidden          bool          // do not show the window
	Spin            bool          // turn the quads, as -spin turns the bench game's bunnies
	// Stop, when it is closed, ends the run early (a signal).
	Stop <-chan struct{}
}

// CeilingSummary is what a ceiling run measured over its window: the
// presents (the swap's return) and the heap allocations of the process.
type CeilingSummary struct {
	Engine         string  `json:"engine"` // "ceiling"
	Sprites        int     `json:"sprites"`
	SpriteSize     int     `json:"sprite_size"`
	Spin           bool    `json:"spin"` // the quads turned (-spin)
	Seconds        float64 `json:"seconds"`
	WarmupSeconds  float64 `json:"warmup_seconds"`
	Frames         int     `json:"frames"`
	FPSMean        float64 `json:"fps_mean"`
	FrameMsP50     float64 `json:"frame_ms_p50"`
	FrameMsP99     float64 `json:"frame_ms_p99"`
	AllocsPerFrame float64 `json:"allocs_per_frame"`
	Profiling      string  `json:"profiling"` // as the game's summary: "none", or the profiles that ran (their allocations count)
	GLRenderer     string  `json:"gl_renderer"`
	LPNumThreads   string  `json:"lp_num_threads"`
	Stopped        bool    `json:"stopped_early"`
	// As the game's summary has them (bench.Host): the render thread's
	// CPU and wait a frame, the other threads' CPU; null off Linux.
	RenderCPUMsPerFrame  bench.Num `json:"render_cpu_ms_per_frame"`
	RenderRunqMsPerFrame bench.Num `json:"render_runq_ms_per_frame"`
	OtherThreadsCPUPct   bench.Num `json:"other_threads_cpu_pct"`
}

// ceilingMaxFPS bounds the frame intervals kept for the percentiles: the
// slice is made before the run, so that a frame allocates nothing.
const ceilingMaxFPS = 5000

// ceilingW and ceilingH are the quads' shape: the bunnymark's bunny, the
// classic 26x37 image, drawn c.Size px on its longer side as the bench
// game draws it (Setup.Scaled), so that a quad covers the pixels a bunny
// does.
const ceilingW, ceilingH = 26, 37

// RunCeiling opens a window and draws c.Sprites quads of the bunny's
// shape, c.Size px tall, each moving as a bunnymark's bunny does (falling,
// bouncing off the window's edges and floor, turning with c.Spin), for
// c.Warmup then c.Seconds, and returns what it measured.
//
// Main thread only (it owns the window and the GL context).
func RunCeiling(c CeilingConfig) (*CeilingSummary, error) {
	if c.Sprites < 1 || c.Size < 1 {
		return nil, fmt.Errorf("ceiling: %d quads of %d px: want at least one quad of at least 1 px (give -sprites and -sprite-size)", c.Sprites, c.Size)
	}
	if err := window.Init(); err != nil {
		return nil, err
	}
	defer window.Terminate()
	win, err := window.Open(window.Config{Title: "tandem ceiling", Width: c.Width, Height: c.Height, Hidden: c.Hidden})
	if errors.Is(err, window.ErrNoContext) {
		return nil, fmt.Errorf("%w; %s", err, gl.SoftwareHint)
	}
	if err != nil {
		return nil, err
	}
	defer win.Destroy()
	if err := gl.Init(); err != nil {
		return nil, err
	}
	atlas, err := gl.NewTexture(ceilingImage(), true)
	if err != nil {
		return nil, err
	}
	defer atlas.Delete()
	scale := float32(c.Size) / max(ceilingW, ceilingH)
	w, h := ceilingW*scale, ceilingH*scale
	q, err := gl.NewCeilingQuads(c.Sprites, atlas, gl.UVRect{U0: 0, V0: 0, U1: 1, V1: 1, W: w, H: h}, c.Spin)
	if err != nil {
		return nil, err
	}
	defer q.Delete()

	fw, fh := win.FramebufferSize()
	m := newCeilingMotion(c.Sprites, float32(fw)-w, float32(fh)-h, c.Spin)
	vp := gl.CameraMatrix(snapshot.Camera{X: float32(fw) / 2, Y: float32(fh) / 2, Zoom: 1}, fw, fh)
	gl.Viewport(fw, fh)
	intervals := make([]int64, 0, int(c.Seconds.Seconds()*ceilingMaxFPS)+1)
	var ms runtime.MemStats
	thread, _ := threadcpu.Open() // this is the render thread; nil off Linux, which reads nothing
	defer thread.Close()
	var threadFrom, threadTo threadcpu.Times

	start := snapshot.Now()
	measureFrom := start + int64(c.Warmup)
	end := measureFrom + int64(c.Seconds)
	last, first, frames := start, int64(0), 0
	var mallocs uint64
	stopped := false
	reserveThreads()      // as the engine's run does
	var resch rescheduler // as the engine's frames do
	for now := start; now < end; {
		win.Poll()
		if win.ShouldClose() || closed(c.Stop) {
			stopped = true
			break
		}
		m.step(float32(now-last) / 1e9)
		gl.Clear(0.39, 0.58, 0.93, 1)
		q.Upload(m.xy, m.a)
		q.Draw(vp)
		win.Swap()
		prev := last
		now = snapshot.Now()
		last = now
		resch.after(now)
		switch {
		case now < measureFrom:
		case first == 0:
			first = now // the first present measured: intervals start here
			runtime.ReadMemStats(&ms)
			mallocs = ms.Mallocs
			threadFrom, _ = thread.Read()
		default:
			frames++
			if len(intervals) < cap(intervals) {
				intervals = append(intervals, now-prev)
			}
		}
	}
	threadTo, _ = thread.Read()
	runtime.ReadMemStats(&ms)
	s := &CeilingSummary{Engine: "ceiling", Sprites: c.Sprites, SpriteSize: c.Size, Spin: c.Spin,
		Seconds: c.Seconds.Seconds(), WarmupSeconds: c.Warmup.Seconds(), Frames: frames,
		LPNumThreads: os.Getenv("LP_NUM_THREADS"), Stopped: stopped}
	s.RenderCPUMsPerFrame, s.RenderRunqMsPerFrame, s.OtherThreadsCPUPct = cpuFigures(threadFrom, threadTo, frames, last-first)
	_, s.GLRenderer = gl.Driver()
	if frames > 0 {
		s.FPSMean = Round(float64(frames)/(float64(last-first)/1e9), 1)
		s.AllocsPerFrame = Round(float64(ms.Mallocs-mallocs)/float64(frames), 3)
		slices.Sort(intervals)
		s.FrameMsP50 = Round(float64(intervals[quantile.Rank(len(intervals), 0.50)])/1e6, 2)
		s.FrameMsP99 = Round(float64(intervals[quantile.Rank(len(intervals), 0.99)])/1e6, 2)
	}
	return s, nil
}

func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// ceilingImage is the quads' texture: the bunny's 26x37, opaque white with
// a transparent one-texel border (what the texels hold costs the fill
// nothing: every pixel is sampled and blended alike).
func ceilingImage() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, ceilingW, ceilingH))
	for y := 1; y < ceilingH-1; y++ {
		for x := 1; x < ceilingW-1; x++ {
			img.SetRGBA(x, y, color.RGBA{0xFF, 0xFF, 0xFF, 0xFF})
		}
	}
	return img
}

// ceilingMotion moves the quads as the bunnymark moves its bunnies, one
// step a frame: gravity, walls that reflect, a floor that bounces with a
// kick, and with spin a turn. The corners live in xy, x then y, and with
// spin the angles in a, ready to upload.
type ceilingMotion struct {
	xy, v      []float32 // corners; velocities in px/s
	a, spin    []float32 // with spin: angles in [-π, π]; spins in rad/s
	maxX, maxY float32
	rng        uint64
}

// ceilingSpin is the bunnymark's fastest spin, rad/s (examples/scene):
// angles start anywhere in [-π, π) and turn at up to this either way.
const ceilingSpin = 3

func newCeilingMotion(n int, maxX, maxY float32, spin bool) *ceilingMotion {
	m := &ceilingMotion{xy: make([]float32, 2*n), v: make([]float32, 2*n), maxX: max(maxX, 0), maxY: max(maxY, 0), rng: 1}
	for i := range n {
		m.xy[2*i] = m.rand() * m.maxX
		m.xy[2*i+1] = m.rand() * m.maxY / 2
		m.v[2*i] = (m.rand()*2 - 1) * 600
		m.v[2*i+1] = (m.rand()*2 - 1) * 300
	}
	if spin {
		m.a, m.spin = make([]float32, n), make([]float32, n)
		for i := range n {
			m.a[i] = (m.rand()*2 - 1) * math.Pi
			m.spin[i] = (m.rand()*2 - 1) * ceilingSpin
		}
	}
	return m
}

// rand returns a number in [0, 1) (xorshift64*).
func (m *ceilingMotion) rand() float32 {
	m.rng ^= m.rng >> 12
	m.rng ^= m.rng << 25
	m.rng ^= m.rng >> 27
	return float32((m.rng*2685821657736338717)>>40) / (1 << 24)
}

func (m *ceilingMotion) step(dt float32) {
	const gravity = 1800 // px/s², the bunnymark's 0.5 px/frame² at 60 Hz
	dt = min(dt, 0.1)
	for i := 0; i < len(m.xy); i += 2 {
		x, y, vx, vy := m.xy[i], m.xy[i+1], m.v[i], m.v[i+1]
		vy += gravity * dt
		x += vx * dt
		y += vy * dt
		switch {
		case x < 0:
			x, vx = 0, -vx
		case x > m.maxX:
			x, vx = m.maxX, -vx
		}
		switch {
		case y > m.maxY:
			y, vy = m.maxY, -vy*0.85
			if m.rand() < 0.5 {
				vy -= m.rand() * 360
			}
		case y < 0:
			y, vy = 0, 0
		}
		m.xy[i], m.xy[i+1], m.v[i], m.v[i+1] = x, y, vx, vy
	}
	for i := range m.a {
		m.a[i] = turn(m.a[i], m.spin[i]*dt)
	}
}

// turn returns angle a turned by d (|d| at most a turn), back in [-π, π].
func turn(a, d float32) float32 {
	a += d
	switch {
	case a > math.Pi:
		a -= 2 * math.Pi
	case a < -math.Pi:
		a += 2 * math.Pi
	}
	return a
}
