package gl

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/tandem-engine/tandem/gl/internal/gltest"
	"github.com/tandem-engine/tandem/snapshot"
)

// The shape tests draw on a 256x128 framebuffer, world pixels 1:1.
const shW, shH = 256, 128

var shapeCam = snapshot.Camera{X: shW / 2, Y: shH / 2, Zoom: 1}

func newShapeBatch(t *testing.T) *ShapeBatch {
	t.Helper()
	withGL(t, shW, shH)
	var b *ShapeBatch
	var err error
	gltest.Do(func() { b, err = NewShapeBatch(4) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gltest.Do(b.Delete) })
	return b
}

// drawShapes uploads the pair and draws every layer, world then screen,
// at alpha on black, and reads the framebuffer back.
func drawShapes(b *ShapeBatch, g *GlyphCache, prev, curr *snapshot.Snapshot, alpha float32, zoom float32) *image.RGBA {
	var img *image.RGBA
	gltest.Do(func() {
		Clear(0, 0, 0, 1)
		b.SetZoom(zoom)
		b.Upload(prev, curr, g)
		cam := shapeCam
		cam.Zoom = zoom
		vp := CameraMatrix(cam, shW, shH)
		for k := range snapshot.Layers {
			b.Draw(k, false, vp, 1/zoom, alpha)
		}
		for k := range snapshot.Layers {
			b.Draw(k, true, ScreenMatrix(shW, shH), 1, alpha)
		}
		img = ReadPixels(0, 0, shW, shH)
	})
	return img
}

func shapes(ss ...snapshot.Shape) *snapshot.Snapshot {
	s := &snapshot.Snapshot{Camera: shapeCam}
	s.Draw.Shapes = ss
	return s
}

const (
	tRed   = 0xFF0000FF
	tGreen = 0xFF00FF00
	tBlue  = 0xFFFF0000
	tWhite = 0xFFFFFFFF
)

// everyShape is one of each kind, filled and outlined.
func everyShape() *snapshot.Snapshot {
	s := shapes(
		snapshot.Shape{Kind: snapshot.ShapeCircle, X: 20, Y: 20, A: 14, Tint: tRed},
		snapshot.Shape{Kind: snapshot.ShapeCircle, X: 20, Y: 60, A: 14, Width: 3, Tint: tRed},
		snapshot.Shape{Kind: snapshot.ShapeEllipse, X: 60, Y: 20, A: 18, B: 10, Tint: tGreen},
		snapshot.Shape{Kind: snapshot.ShapeEllipse, X: 60, Y: 60, A: 18, B: 10, Width: 2, Tint: tGreen},
		snapshot.Shape{Kind: snapshot.ShapeRect, X: 84, Y: 8, A: 30, B: 22, Tint: tBlue},
		snapshot.Shape{Kind: snapshot.ShapeRect, X: 84, Y: 48, A: 30, B: 22, Width: 2, Tint: tBlue},
		snapshot.Shape{Kind: snapshot.ShapeRect, X: 122, Y: 8, A: 30, B: 22, C: 8, Tint: tWhite},
		snapshot.Shape{Kind: snapshot.ShapeRect, X: 122, Y: 48, A: 30, B: 22, C: 8, Width: 2, Tint: tWhite},
		snapshot.Shape{Kind: snapshot.ShapeLine, X: 160, Y: 8, A: 30, B: 20, Width: 1, Tint: tWhite},
		snapshot.Shape{Kind: snapshot.ShapeLine, X: 160, Y: 48, A: 30, B: 0, Width: 6, Tint: tRed},
		snapshot.Shape{Kind: snapshot.ShapeArc, X: 215, Y: 22, A: 16, C: 0, D: math.Pi, Width: 4, Tint: tGreen},
		snapshot.Shape{Kind: snapshot.ShapeArc, X: 215, Y: 62, A: 16, C: -math.Pi / 2, D: math.Pi / 4, Tint: tGreen},
		// A pentagon and a triangle (wound the other way) on layer 2.
		snapshot.Shape{Kind: snapshot.ShapePolygon, X: 40, Y: 100, Layer: 2, C: -16, D: -16, E: 16, F: 16, Data: 0<<8 | 5, Tint: tBlue},
		snapshot.Shape{Kind: snapshot.ShapePolygon, X: 90, Y: 100, Layer: 2, C: -14, D: -14, E: 14, F: 14, Data: 5<<8 | 3, Width: 2, Tint: tWhite},
		// On screen, over the world: a half-transparent bar.
		snapshot.Shape{Kind: snapshot.ShapeRect, Flags: snapshot.ShapeScreen, X: 130, Y: 90, A: 110, B: 12, C: 6, Tint: 0x80FFFFFF},
	)
	for i := range 5 {
		a := -math.Pi/2 + float64(i)*2*math.Pi/5
		s.Draw.Points = append(s.Draw.Points, float32(16*math.Cos(a)), float32(16*math.Sin(a)))
	}
	s.Draw.Points = append(s.Draw.Points, -14, 14, 14, 14, 0, -14)
	return s
}

func TestShapesGolden(t *testing.T) {
	b := newShapeBatch(t)
	s := everyShape()
	golden(t, "shapes", drawShapes(b, nil, s, s, 1, 1))
}

// coverage sums the red channel over r, in pixels of full red.
func coverage(img *image.RGBA, r image.Rectangle) float64 {
	sum := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			sum += int(img.RGBAAt(x, y).R)
		}
	}
	return float64(sum) / 255
}

// TestShapeAreas checks the anti-aliased coverage against the exact
// area: a filled circle, a ring, a line, a rectangle at zoom 2.
func TestShapeAreas(t *testing.T) {
	b := newShapeBatch(t)
	for _, tc := range []struct {
		name string
		s    snapshot.Shape
		zoom float32
		area float64
	}{
		{"circle", snapshot.Shape{Kind: snapshot.ShapeCircle, X: 128, Y: 64, A: 30.3, Tint: tRed}, 1, math.Pi * 30.3 * 30.3},
		{"ring", snapshot.Shape{Kind: snapshot.ShapeCircle, X: 128, Y: 64, A: 30, Width: 4, Tint: tRed}, 1, math.Pi * (30*30 - 26*26)},
		{"line", snapshot.Shape{Kind: snapshot.ShapeLine, X: 100, Y: 40, A: 60, B: 45, Width: 3, Tint: tRed}, 1, 75*3 + math.Pi*1.5*1.5},
		{"ellipse", snapshot.Shape{Kind: snapshot.ShapeEllipse, X: 128, Y: 64, A: 50, B: 20, Tint: tRed}, 1, math.Pi * 50 * 20},
		{"rect zoom 2", snapshot.Shape{Kind: snapshot.ShapeRect, X: 110.25, Y: 50, A: 20, B: 10, Tint: tRed}, 2, 4 * 20 * 10},
		{"half pie", snapshot.Shape{Kind: snapshot.ShapeArc, X: 128, Y: 64, A: 40, C: 0, D: math.Pi, Tint: tRed}, 1, math.Pi * 40 * 40 / 2},
	} {
		s := shapes(tc.s)
		got := coverage(drawShapes(b, nil, s, s, 1, tc.zoom), image.Rect(0, 0, shW, shH))
		if math.Abs(got-tc.area) > 0.01*tc.area+2 {
			t.Errorf("%s: coverage %.1f px, want %.1f (within 1%%)", tc.name, got, tc.area)
		}
	}
}

// TestShapeInterpolates checks that a keyed shape is blended between the
// snapshots, position and size, and that one with a new Gen, no key or
// no partner snaps to curr.
func TestShapeInterpolates(t *testing.T) {
	b := newShapeBatch(t)
	circle := func(key uint64, gen uint32, x, r float32) snapshot.Shape {
		return snapshot.Shape{Key: key, Gen: gen, Kind: snapshot.ShapeCircle, X: x, Y: 64, A: r, Tint: tRed}
	}
	red := func(c color.RGBA) bool { return c.R > 127 }
	for _, tc := range []struct {
		name       string
		prev, curr *snapshot.Snapshot
		alpha      float32
		want       image.Rectangle
	}{
		{"blended", shapes(circle(7, 0, 40, 10)), shapes(circle(7, 0, 200, 20)), 0.5, image.Rect(120-15, 64-15, 120+15, 64+15)},
		{"moved in the list", shapes(circle(3, 0, 0, 5), circle(7, 0, 40, 10)), shapes(circle(7, 0, 200, 20)), 0.25, image.Rect(80-12, 64-12, 80+13, 64+13)},
		{"new gen", shapes(circle(7, 0, 40, 10)), shapes(circle(7, 1, 200, 20)), 0.5, image.Rect(180, 44, 220, 84)},
		{"no key", shapes(circle(0, 0, 40, 10)), shapes(circle(0, 0, 200, 20)), 0.5, image.Rect(180, 44, 220, 84)},
		{"no partner", shapes(circle(8, 0, 40, 10)), shapes(circle(7, 0, 200, 20)), 0.5, image.Rect(180, 44, 220, 84)},
	} {
		got := bounds(drawShapes(b, nil, tc.prev, tc.curr, tc.alpha, 1), red)
		if !near(got, tc.want, 1) {
			t.Errorf("%s: drawn in %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestShapeUploadAllocs checks that a warm batch uploads and draws a
// pair of 1000 keyed shapes, some out of order, without allocating.
func TestShapeUploadAllocs(t *testing.T) {
	b := newShapeBatch(t)
	prev, curr := shapes(), shapes()
	for i := range 1000 {
		prev.Draw.Shapes = append(prev.Draw.Shapes, snapshot.Shape{Key: uint64(i + 1), Kind: snapshot.ShapeCircle, X: float32(i % 256), Y: 10, A: 3, Tint: tRed, Layer: uint8(i % 8)})
	}
	for i := range 1000 {
		s := prev.Draw.Shapes[(i+7)%1000]
		s.X++
		curr.Draw.Shapes = append(curr.Draw.Shapes, s)
	}
	vp := CameraMatrix(shapeCam, shW, shH)
	var allocs float64
	gltest.Do(func() {
		allocs = testing.AllocsPerRun(20, func() {
			b.Upload(prev, curr, nil)
			for k := range snapshot.Layers {
				b.Draw(k, false, vp, 1, 0.5)
			}
		})
	})
	if allocs != 0 {
		t.Errorf("%v allocations per upload and draw, want 0", allocs)
	}
}
