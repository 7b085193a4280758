package gl

import (
	"fmt"
	"image"
	"image/color"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/gl/internal/gltest"
	"github.com/tandem-engine/tandem/internal/hoststat"
	"github.com/tandem-engine/tandem/snapshot"
)

// The benchmarks draw under Mesa's llvmpipe on Xvfb, as the app does on a
// machine without a GPU:
//
//	LP_NUM_THREADS=2 xvfb-run -a -s "-screen 0 1280x720x24" \
//	    go test -run '^$' -bench . -benchmem ./gl
//
// LP_NUM_THREADS sets llvmpipe's rasterizer threads; the Makefile's tests
// export 2, for the project's 2-core machine, and docs/results holds each
// run's figures with the value it used.

// benchScene returns a pair of snapshots of n paired sprites of 16x16
// pixels spread over a w x h screen, each moved and turned a little from
// prev to curr, and the frame table (one 8x8 atlas region drawn 16x16).
func benchScene(n, w, h int) (prev, curr *snapshot.Snapshot, frames []UVRect) {
	rng := rand.New(rand.NewPCG(1, 2))
	prev, curr = &snapshot.Snapshot{}, &snapshot.Snapshot{}
	prev.Sprites.Resize(n)
	curr.Sprites.Resize(n)
	for i := range n {
		x, y, a := rng.Float32()*float32(w), rng.Float32()*float32(h), rng.Float32()*6
		tint := 0xFF000000 | rng.Uint32()&0xFFFFFF
		prev.Sprites.Set(i, uint32(i), 1, x, y, a, 0, tint)
		curr.Sprites.Set(i, uint32(i), 1, x+2, y+1, a+0.1, 0, tint)
	}
	return prev, curr, []UVRect{{U0: 0, V0: 0, U1: 0.5, V1: 0.5, W: 16, H: 16}}
}

func benchAtlas() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for i := range img.Pix {
		img.Pix[i] = 0xFF
	}
	img.SetRGBA(3, 3, color.RGBA{0, 0, 0, 0xFF})
	return img
}

// BenchmarkSpriteBatch compares the two layouts and the two upload
// strategies. "upload" is a frame that brings a new snapshot pair
// (Upload+Draw), in each uploadMode: glBufferSubData alone ("subdata"),
// after re-specifying the buffer ("orphan"), or written into the mapped
// buffer ("map"); "draw" is a frame that only draws
// at a new alpha. Every
// iteration clears a 1280x720 framebuffer and ends with glFinish, so it
// measures the whole frame's GL work, swap excluded.
func BenchmarkSpriteBatch(b *testing.B) {
	const w, h = 1280, 720
	gltest.Window(b, w, h)
	var err error
	gltest.Do(func() { err = Init(); Viewport(w, h) })
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{5000, 50000} {
		for _, l := range []layout{instanced, expanded} {
			prefix := fmt.Sprintf("%s/n=%d/", l, n)
			b.Run(prefix+"draw", func(b *testing.B) { benchSpriteBatch(b, n, w, h, l, defaultUpload, false) })
			for _, m := range []uploadMode{subData, orphan, mapped} {
				b.Run(prefix+"upload/"+m.String(), func(b *testing.B) { benchSpriteBatch(b, n, w, h, l, m, true) })
			}
		}
	}
}

func benchSpriteBatch(b *testing.B, n, w, h int, l layout, m uploadMode, upload bool) {
	prev, curr, frames := benchScene(n, w, h)
	var msg string
	gltest.Do(func() {
		atlas, err := NewTexture(benchAtlas(), true)
		if err != nil {
			msg = err.Error()
			return
		}
		defer atlas.Delete()
		batch, err := newSpriteBatch(n, atlas, frames, l, m)
		if err != nil {
			msg = err.Error()
			return
		}
		defer batch.Delete()
		vp := CameraMatrix(snapshot.Camera{X: float32(w) / 2, Y: float32(h) / 2, Zoom: 1}, w, h)
		batch.Upload(prev, curr)
		Finish()
		b.ReportAllocs()
		cpu := cpuTime()
		b.ResetTimer()
		for i := range b.N {
			Clear(0, 0, 0, 1)
			if upload {
				batch.Upload(prev, curr)
			}
			batch.Draw(vp, float32(i%16)/16)
			Finish()
		}
		b.StopTimer()
		reportCPU(b, cpu)
	})
	if msg != "" {
		b.Fatal(msg)
	}
}

// BenchmarkFrameLoop is the app's frame, 5000 or 50,000 sprites: a new pair uploaded
// and drawn, swapped to a shown 1280x720 window on Xvfb. Its faults/op
// are the minor page faults of a frame, which the sprite batch's
// uploads into a fresh store (uploadMode) keep near 0.
func BenchmarkFrameLoop(b *testing.B) {
	for _, n := range []int{5000, 50000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchFrameLoop(b, n) })
	}
}

func benchFrameLoop(b *testing.B, n int) {
	const w, h = 1280, 720
	win := gltest.ShownWindow(b, w, h)
	prev, curr, frames := benchScene(n, w, h)
	var msg string
	gltest.Do(func() {
		fw, fh := win.GetFramebufferSize()
		batch, vp, done, err := benchSetup(n, w, h, fw, fh, frames)
		if err != nil {
			msg = err.Error()
			return
		}
		defer done()
		for range 10 { // warm up: let the heap reach its steady size
			batch.Upload(prev, curr)
			batch.Draw(vp, 0.5)
			win.SwapBuffers()
		}
		b.ReportAllocs()
		cpu := cpuTime()
		b.ResetTimer()
		for i := range b.N {
			Clear(0, 0, 0, 1)
			batch.Upload(prev, curr)
			batch.Draw(vp, float32(i%16)/16)
			win.SwapBuffers()
		}
		Finish()
		b.StopTimer()
		reportCPU(b, cpu)
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
	})
	if msg != "" {
		b.Fatal(msg)
	}
}

// benchSetup does a frame benchmark's GL setup, on the main thread: Init,
// a viewport of fw x fh pixels, the atlas, a batch of n sprites and the
// camera over a w x h world. done deletes the batch and the atlas.
func benchSetup(n, w, h, fw, fh int, frames []UVRect) (batch *SpriteBatch, vp mgl32.Mat4, done func(), err error) {
	if err := Init(); err != nil {
		return nil, vp, nil, err
	}
	Viewport(fw, fh)
	atlas, err := NewTexture(benchAtlas(), true)
	if err != nil {
		return nil, vp, nil, err
	}
	batch, err = NewSpriteBatch(n, atlas, frames)
	if err != nil {
		atlas.Delete()
		return nil, vp, nil, err
	}
	vp = CameraMatrix(snapshot.Camera{X: float32(w) / 2, Y: float32(h) / 2, Zoom: 1}, fw, fh)
	return batch, vp, func() { batch.Delete(); atlas.Delete() }, nil
}

// reportCPU reports the CPU time per frame since start. The machine the
// numbers come from is shared: CPU time varies much less than wall time
// when other processes compete for the cores.
func reportCPU(b *testing.B, start cpuStat) {
	end := cpuTime()
	if !end.ok {
		return // no rusage here
	}
	b.ReportMetric(float64(end.user-start.user)/float64(b.N)/1e6, "user-ms/op")
	b.ReportMetric(float64(end.sys-start.sys)/float64(b.N)/1e6, "sys-ms/op")
	b.ReportMetric(float64(end.faults-start.faults)/float64(b.N), "faults/op")
}

// BenchmarkTileLayer draws a dense tile grid of 32 px cells (16 px tiles
// at 2x) under a camera scrolling one pixel a frame, so that the range in
// view changes every few frames: the demo level's size against the
// largest a level may be. Both should cost the same: only the cells in
// view are uploaded and drawn.
func BenchmarkTileLayer(b *testing.B) {
	const w, h = 1280, 720
	gltest.Window(b, w, h)
	var err error
	gltest.Do(func() { err = Init(); Viewport(w, h) })
	if err != nil {
		b.Fatal(err)
	}
	for _, side := range [][2]int{{200, 60}, {4096, 4096}} {
		b.Run(fmt.Sprintf("%dx%d", side[0], side[1]), func(b *testing.B) { benchTileLayer(b, side[0], side[1], w, h) })
	}
}

func benchTileLayer(b *testing.B, cw, ch, w, h int) {
	rng := rand.New(rand.NewPCG(3, 4))
	grid := TileGrid{W: cw, H: ch, Size: 16, Frames: make([]uint16, cw*ch)}
	for i := range grid.Frames {
		grid.Frames[i] = NoTile
		if rng.IntN(4) != 0 {
			grid.Frames[i] = 0
		}
	}
	frames := []UVRect{{U0: 0, V0: 0, U1: 0.5, V1: 0.5, W: 16, H: 16}}
	var msg string
	gltest.Do(func() {
		atlas, err := NewTexture(benchAtlas(), true)
		if err != nil {
			msg = err.Error()
			return
		}
		defer atlas.Delete()
		layer, err := NewTileLayer(grid, atlas, frames)
		if err != nil {
			msg = err.Error()
			return
		}
		defer layer.Delete()
		cam := snapshot.Camera{X: float32(w) / 4, Y: float32(h) / 4, Zoom: 2}
		b.ReportAllocs()
		cpu := cpuTime()
		b.ResetTimer()
		for i := range b.N {
			c := cam
			c.X += float32(i % 1024) // scroll right, then jump back
			Clear(0, 0, 0, 1)
			hw, hh := float32(w)/c.Zoom/2, float32(h)/c.Zoom/2
			layer.Draw(CameraMatrix(c, w, h), ViewRect{MinX: c.X - hw, MinY: c.Y - hh, MaxX: c.X + hw, MaxY: c.Y + hh})
			Finish()
		}
		b.StopTimer()
		reportCPU(b, cpu)
	})
	if msg != "" {
		b.Fatal(msg)
	}
}

// BenchmarkFrameEvenness times each of b.N frames of the same 5000
// sprites (upload, draw at a new alpha, glFinish; no swap) and reports how
// much each frame's time differs from the one before: the 99th percentile
// of |t_i - t_i-1| (unevenness-p99-ms) and the share over 2 ms
// (over-2ms-%). That difference is the animation error an uncapped frame
// aimed at its predicted present shows (the picture moves as the last
// frame's work, the present as this one's).
//
// After every frame, on the same thread, one run of each of two kinds of
// fixed work as long as the frames (hoststat.FloorRunner, 20 ms): arithmetic
// (cpu-floor-*) and a walk through 4 MiB bound by the shared cache and
// memory (cache-floor-*), with the same figures: the machine's own
// unevenness. frame~cpu-corr and frame~cache-corr are the correlations of
// the frames' times with the floors' runs beside them: near 1 if the
// frames are slow when the machine is, near 0 if their swings are their
// own. Percentiles want a few hundred frames:
//
//	LP_NUM_THREADS=0 xvfb-run -a -s "-screen 0 1280x720x24" \
//	    go test -run '^$' -bench FrameEvenness -benchtime 300x ./gl
func BenchmarkFrameEvenness(b *testing.B) {
	const w, h, n = 1280, 720, 5000
	gltest.Window(b, w, h)
	prev, curr, frames := benchScene(n, w, h)
	times, cpu, cache := make([]int64, 0, b.N), make([]int64, 0, b.N), make([]int64, 0, b.N)
	var msg string
	gltest.Do(func() {
		batch, vp, done, err := benchSetup(n, w, h, w, h, frames)
		if err != nil {
			msg = err.Error()
			return
		}
		defer done()
		for range 10 { // warm up
			batch.Upload(prev, curr)
			batch.Draw(vp, 0.5)
			Finish()
		}
		// The floors' runs are about as long as a frame of this scene
		// under llvmpipe on the project's machine.
		cpuFloor := hoststat.NewFloorRunner(hoststat.FloorCPU, 20*time.Millisecond)
		cacheFloor := hoststat.NewFloorRunner(hoststat.FloorCache, 20*time.Millisecond)
		b.ResetTimer()
		for i := range b.N {
			t := snapshot.Now()
			Clear(0, 0, 0, 1)
			batch.Upload(prev, curr)
			batch.Draw(vp, float32(i%16)/16)
			Finish()
			times = append(times, snapshot.Now()-t)
			b.StopTimer()
			c, _ := cpuFloor.Run(nil)
			m, _ := cacheFloor.Run(nil)
			cpu, cache = append(cpu, c), append(cache, m)
			b.StartTimer()
		}
		b.StopTimer()
	})
	if msg != "" {
		b.Fatal(msg)
	}
	b.ReportMetric(bench.Percentile(nsToMs(times), 0.5), "frame-ms-p50")
	reportUnevenness(b, "", times)
	reportUnevenness(b, "cpu-floor-", cpu)
	reportUnevenness(b, "cache-floor-", cache)
	if len(times) > 2 {
		b.ReportMetric(bench.Correlation(nsToMs(times), nsToMs(cpu)), "frame~cpu-corr")
		b.ReportMetric(bench.Correlation(nsToMs(times), nsToMs(cache)), "frame~cache-corr")
	}
}

// nsToMs returns durations in ns as ms.
func nsToMs(ns []int64) []float64 {
	out := make([]float64, len(ns))
	for i, t := range ns {
		out[i] = float64(t) / 1e6
	}
	return out
}

// reportUnevenness reports the 99th percentile of how much each of times
// (ns) differs from the one before, and the share of those over 2 ms.
func reportUnevenness(b *testing.B, prefix string, times []int64) {
	if p99, over, ok := bench.UnevennessFigures(times); ok {
		b.ReportMetric(p99, prefix+"unevenness-p99-ms")
		b.ReportMetric(over, prefix+"over-2ms-%")
	}
}
