package gl

import (
	"image"
	"image/color"
	"testing"

	"github.com/tandem-engine/tandem/gl/internal/gltest"
)

// GLFW and GL calls must run on the main thread: the tests run on another
// goroutine and hand their GL work to it with gltest.Do.
func TestMain(m *testing.M) { gltest.Main(m) }

// withGL gives the test a current w x h OpenGL 4.1 core context with the
// functions loaded (skipping without a display, failing when CI=true).
func withGL(tb testing.TB, w, h int) {
	tb.Helper()
	gltest.Window(tb, w, h)
	var err error
	gltest.Do(func() {
		err = Init()
		Viewport(w, h)
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// The test atlas, 32x16, nearest-filtered, and its frame table.
var (
	red   = color.RGBA{255, 0, 0, 255}
	green = color.RGBA{0, 255, 0, 255}
	blue  = color.RGBA{0, 0, 255, 255}
	white = color.RGBA{255, 255, 255, 255}
)

const (
	frameRed      = iota // 8x8 red
	frameRedGreen        // 16x4: left half red, right half green
	frameWhite           // 1x1 white, for solid quads
	frameBlue            // 8x8 blue
	frameFlipped         // frameRedGreen flipped horizontally
	frameWhite8          // the white texel drawn 8x8
)

// withTestAtlas runs f on the GL thread with testAtlas as a texture and
// its frame table, deletes the texture after it, and fails the test with
// the texture's error or f's.
func withTestAtlas(t testing.TB, f func(atlas *Texture, frames []UVRect) error) {
	t.Helper()
	var err error
	gltest.Do(func() {
		img, frames := testAtlas()
		var atlas *Texture
		if atlas, err = NewTexture(img, true); err != nil {
			return
		}
		defer atlas.Delete()
		err = f(atlas, frames)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func testAtlas() (*image.RGBA, []UVRect) {
	img := image.NewRGBA(image.Rect(0, 0, 32, 16))
	fill := func(x0, y0, x1, y1 int, c color.RGBA) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				img.SetRGBA(x, y, c)
			}
		}
	}
	fill(0, 0, 8, 8, red)
	fill(8, 0, 16, 4, red)
	fill(16, 0, 24, 4, green)
	fill(0, 8, 1, 9, white)
	fill(16, 8, 24, 16, blue)
	uv := func(x0, y0, x1, y1 int) UVRect {
		return UVRect{
			U0: float32(x0) / 32, V0: float32(y0) / 16, U1: float32(x1) / 32, V1: float32(y1) / 16,
			W: float32(x1 - x0), H: float32(y1 - y0),
		}
	}
	flipped := uv(8, 0, 24, 4)
	flipped.U0, flipped.U1 = flipped.U1, flipped.U0
	return img, []UVRect{
		frameRed:      uv(0, 0, 8, 8),
		frameRedGreen: uv(8, 0, 24, 4),
		frameWhite:    uv(0, 8, 1, 9),
		frameBlue:     uv(16, 8, 24, 16),
		frameFlipped:  flipped,
		frameWhite8:   {U0: 0, V0: 0.5, U1: 1.0 / 32, V1: 9.0 / 16, W: 8, H: 8},
	}
}

// bounds returns the smallest rectangle holding every pixel of img for
// which is is true (empty if none).
func bounds(img *image.RGBA, is func(color.RGBA) bool) image.Rectangle {
	var r image.Rectangle
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if is(img.RGBAAt(x, y)) {
				r = r.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return r
}

func isRed(c color.RGBA) bool   { return c.R > 128 && c.G < 64 && c.B < 64 }
func isGreen(c color.RGBA) bool { return c.G > 128 && c.R < 64 && c.B < 64 }
func isBlue(c color.RGBA) bool  { return c.B > 128 && c.R < 64 && c.G < 64 }
func isLit(c color.RGBA) bool   { return c.R > 0 || c.G > 0 || c.B > 0 }

// near reports whether every edge of got is within tol pixels of want's.
func near(got, want image.Rectangle, tol int) bool {
	d := func(a, b int) bool { return a-b <= tol && b-a <= tol }
	return d(got.Min.X, want.Min.X) && d(got.Min.Y, want.Min.Y) && d(got.Max.X, want.Max.X) && d(got.Max.Y, want.Max.Y)
}
