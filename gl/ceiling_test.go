package gl

import (
	"flag"
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tandem-engine/tandem/gl/internal/gltest"
	"github.com/tandem-engine/tandem/snapshot"
)

// quadSize is BenchmarkCeiling's sprite edge: 1 px leaves the vertex path
// and the swap alone, with next to no fill.
var quadSize = flag.Int("gl.quadsize", 16, "the edge in px of BenchmarkCeiling's sprites and quads")

// TestCeilingQuads draws quads from their corners and checks where they
// land, that an upload beyond the capacity draws the capacity, and that a
// quad that turns turns about its centre, in both layouts.
func TestCeilingQuads(t *testing.T) {
	for _, l := range []layout{instanced, expanded} {
		t.Run(l.String(), func(t *testing.T) { testCeilingQuads(t, l, false) })
		t.Run(l.String()+"/turning", func(t *testing.T) { testCeilingQuads(t, l, true) })
	}
}

func testCeilingQuads(t *testing.T, l layout, turn bool) {
	withGL(t, fbW, fbH)
	// Four quads of 8 px, the fourth past the capacity. Turning, the third
	// is turned an eighth of a turn about its centre (104, 34) and the
	// others not at all.
	xy := []float32{10, 12, 60, 30, 100, 30, 80, 40}
	var angles []float32
	if turn {
		angles = []float32{0, 0, math.Pi / 4, 0}
	}
	var img *image.RGBA
	var n int
	withTestAtlas(t, func(atlas *Texture, frames []UVRect) error {
		q, err := newCeilingQuads(3, atlas, frames[frameRed], turn, l)
		if err != nil {
			return err
		}
		defer q.Delete()
		Clear(0, 0, 0, 1)
		q.Upload(xy, angles)
		n = q.Len()
		q.Draw(CameraMatrix(identityCam, fbW, fbH))
		img = ReadPixels(0, 0, fbW, fbH)
		return nil
	})
	if n != 3 {
		t.Errorf("Len after uploading 4 quads into room for 3 = %d, want 3", n)
	}
	third := image.Rect(100, 30, 108, 38)
	if turn {
		// Turned, the 8 px square reaches 4√2 ≈ 5.66 px from its centre
		// along each axis, and leaves its upright corner.
		third = image.Rect(104-6, 34-6, 104+6, 34+6)
		if c := img.RGBAAt(100, 30); isRed(c) {
			t.Errorf("the turned quad's upright corner (100, 30) is red: %v; it did not turn", c)
		}
	}
	for _, want := range []image.Rectangle{image.Rect(10, 12, 18, 20), image.Rect(60, 30, 68, 38), third} {
		area := want.Inset(-4)
		if got := bounds(img.SubImage(area).(*image.RGBA), isRed); !near(got, want, 1) {
			t.Errorf("quad at %v: red pixels in %v", want.Min, got)
		}
	}
	if lit := bounds(img.SubImage(image.Rect(76, 38, 92, fbH)).(*image.RGBA), isLit); !lit.Empty() {
		t.Errorf("pixels drawn at %v, where only the quad past the capacity would be", lit)
	}
}

func TestCeilingQuadsCapacity(t *testing.T) {
	withGL(t, fbW, fbH)
	var err error
	gltest.Do(func() {
		var q *CeilingQuads
		if q, err = NewCeilingQuads(0, nil, UVRect{}, false); err == nil {
			q.Delete()
		}
	})
	if err == nil {
		t.Error("NewCeilingQuads(0, ...) = nil error, want one")
	}
}

// bunnyScene returns a pair of snapshots of n upright, untinted 16 px
// sprites over a w x h screen, each moved a few pixels from prev to curr,
// as the bunnymark's are, and the top-left corners of curr for the
// ceiling's quads.
func bunnyScene(n, w, h int) (prev, curr *snapshot.Snapshot, xy []float32) {
	rng := rand.New(rand.NewPCG(5, 6))
	prev, curr = &snapshot.Snapshot{}, &snapshot.Snapshot{}
	prev.Sprites.Resize(n)
	curr.Sprites.Resize(n)
	xy = make([]float32, 0, 2*n)
	for i := range n {
		x, y := rng.Float32()*float32(w-16), rng.Float32()*float32(h-16)
		prev.Sprites.Set(i, uint32(i), 1, x, y, 0, 0, 0xFFFFFFFF)
		curr.Sprites.Set(i, uint32(i), 1, x+3, y+2, 0, 0, 0xFFFFFFFF)
		xy = append(xy, x+3, y+2)
	}
	return prev, curr, xy
}

// BenchmarkCeiling draws the bunnymark's frame (16 px upright sprites, a
// new snapshot pair every fourth frame, swapped to a shown 1280x720
// window) with the sprite batch and with the ceiling's bare quads, at
// each count: the engine's draw against the same fill with nothing else.
// Compare user-ms/op (CPU time a frame, all threads), which a shared
// machine disturbs less than wall time.
func BenchmarkCeiling(b *testing.B) {
	for _, n := range []int{1000, 5000, 20000, 50000, 100000} {
		b.Run(fmt.Sprintf("sprites/n=%d", n), func(b *testing.B) { benchBunnyFrames(b, n, false) })
		b.Run(fmt.Sprintf("ceiling/n=%d", n), func(b *testing.B) { benchBunnyFrames(b, n, true) })
	}
}

func benchBunnyFrames(b *testing.B, n int, ceiling bool) {
	const w, h = 1280, 720
	win := gltest.ShownWindow(b, w, h)
	prev, curr, xy := bunnyScene(n, w, h)
	size := float32(*quadSize)
	frames := []UVRect{{U0: 0, V0: 0, U1: 1, V1: 1, W: size, H: size}}
	var msg string
	gltest.Do(func() {
		fw, fh := win.GetFramebufferSize()
		batch, vp, done, err := benchSetup(n, w, h, fw, fh, frames)
		if err != nil {
			msg = err.Error()
			return
		}
		defer done()
		q, err := NewCeilingQuads(n, batch.atlas, frames[0], false)
		if err != nil {
			msg = err.Error()
			return
		}
		defer q.Delete()
		frame := func(i int) {
			Clear(0, 0, 0, 1)
			if ceiling {
				q.Upload(xy, nil)
				q.Draw(vp)
			} else {
				if i%4 == 0 {
					batch.Upload(prev, curr)
				}
				batch.Draw(vp, float32(i%4)/4)
			}
			win.SwapBuffers()
		}
		for i := range 10 {
			frame(i)
		}
		b.ReportAllocs()
		cpu := cpuTime()
		b.ResetTimer()
		for i := range b.N {
			frame(i)
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

// BenchmarkCeilingUpload is what a new snapshot pair costs beyond the
// fill: the bunnymark's upright, untinted sprites uploaded in each
// uploadMode and drawn with the camera far from them, so that the vertex
// stage runs and no pixel is filled; and the ceiling's bare quads, the
// same way. The driver's layout; each op ends with glFinish.
func BenchmarkCeilingUpload(b *testing.B) {
	const w, h = 1280, 720
	withGL(b, w, h)
	for _, n := range []int{5000, 50000} {
		b.Run(fmt.Sprintf("n=%d/ceiling", n), func(b *testing.B) { benchUpload(b, n, -1) })
		for _, m := range []uploadMode{subData, orphan, mapped} {
			b.Run(fmt.Sprintf("n=%d/sprites/%s", n, m), func(b *testing.B) { benchUpload(b, n, m) })
		}
	}
}

// benchUpload runs BenchmarkCeilingUpload's case: the ceiling for m < 0.
func benchUpload(b *testing.B, n int, m uploadMode) {
	const w, h = 1280, 720
	prev, curr, xy := bunnyScene(n, w, h)
	size := float32(*quadSize)
	frame := UVRect{U0: 0, V0: 0, U1: 1, V1: 1, W: size, H: size}
	var err error
	gltest.Do(func() {
		var atlas *Texture
		if atlas, err = NewTexture(benchAtlas(), true); err != nil {
			return
		}
		defer atlas.Delete()
		vp := CameraMatrix(snapshot.Camera{X: -1e6, Y: -1e6, Zoom: 1}, w, h) // every quad off-screen
		step := func() {}
		if m < 0 {
			var q *CeilingQuads
			if q, err = NewCeilingQuads(n, atlas, frame, false); err != nil {
				return
			}
			defer q.Delete()
			step = func() { q.Upload(xy, nil); q.Draw(vp) }
		} else {
			var batch *SpriteBatch
			if batch, err = newSpriteBatch(n, atlas, []UVRect{frame}, driverLayout(), m); err != nil {
				return
			}
			defer batch.Delete()
			step = func() { batch.Upload(prev, curr); batch.Draw(vp, 0.5) }
		}
		step()
		Finish()
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			step()
			Finish()
		}
	})
	if err != nil {
		b.Fatal(err)
	}
}
