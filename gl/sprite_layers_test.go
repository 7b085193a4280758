package gl

import (
	"image"
	"image/color"
	"testing"

	"github.com/tandem-engine/tandem/gl/internal/gltest"
	"github.com/tandem-engine/tandem/snapshot"
)

// TestSpriteLayersInterleave draws a red sprite (layer 0), a green shape
// (layer 1) and a blue sprite (layer 2), overlapping: drawn layer by
// layer, the green lies over the red and under the blue, and the sprites
// blend between snapshots as they do in one Draw; in both layouts (the
// instanced one moves its attribute pointers to a range).
func TestSpriteLayersInterleave(t *testing.T) {
	for _, l := range []layout{instanced, expanded} {
		t.Run(l.String(), func(t *testing.T) { testSpriteLayersInterleave(t, l) })
	}
}

func testSpriteLayersInterleave(t *testing.T, l layout) {
	f := newFixture(t, l)
	var layers *SpriteLayers
	var sb *ShapeBatch
	var err error
	gltest.Do(func() {
		layers = NewSpriteLayers(f.batch)
		sb, err = NewShapeBatch(4)
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gltest.Do(sb.Delete) })
	// Sprites are drawn 8x8 (frameWhite8); slot 0 is layer 0's, slot 1
	// layer 2's.
	sp := func(x float32) *snapshot.Snapshot {
		s := snap(sprite{id: 1, gen: 1, x: x, y: 32, frame: frameRed}, sprite{id: 2, gen: 1, x: x + 8, y: 32, frame: frameBlue})
		return s
	}
	prev, curr := sp(20), sp(60)
	shape := snapshot.Shape{Kind: snapshot.ShapeRect, X: 0, Y: 30, A: fbW, B: 4, Tint: tGreen, Layer: 1}
	prev.Draw.Shapes = []snapshot.Shape{shape}
	curr.Draw.Shapes = []snapshot.Shape{shape}
	var img *image.RGBA
	gltest.Do(func() {
		Clear(0, 0, 0, 1)
		f.batch.Upload(prev, curr)
		sb.Upload(prev, curr, nil)
		vp := CameraMatrix(curr.Camera, fbW, fbH)
		layers.Draw(vp, 0.5, 0, 1)
		sb.Draw(1, false, vp, 1, 0.5)
		layers.Draw(vp, 0.5, 1, 1)
		img = ReadPixels(0, 0, fbW, fbH)
	})
	// At alpha 0.5 the red sprite's centre is at 40, the blue's at 48.
	for _, tc := range []struct {
		name string
		x, y int
		is   func(c color.RGBA) bool
	}{
		{"red above the bar", 38, 29, isRed},
		{"green over the red", 38, 31, isGreen},
		{"blue over the green", 50, 31, isBlue},
		{"green beyond the sprites", 100, 31, isGreen},
	} {
		if c := img.RGBAAt(tc.x, tc.y); !tc.is(c) {
			t.Errorf("%s: (%d, %d) is %v", tc.name, tc.x, tc.y, c)
		}
	}
	// The whole-batch draw still works after ranges moved its pointers.
	gltest.Do(func() {
		Clear(0, 0, 0, 1)
		f.batch.Draw(CameraMatrix(curr.Camera, fbW, fbH), 1)
		img = ReadPixels(0, 0, fbW, fbH)
	})
	if r := bounds(img, isRed); !near(r, image.Rect(56, 28, 64, 36), 1) {
		t.Errorf("after ranges, Draw put the red sprite in %v", r)
	}
}

// TestShapeMovesAsSprite checks that a keyed shape and a sprite with the
// same two states are drawn at the same place at every blend, to the
// pixel: what the bench's probe and anim_err_ms measure of a sprite's
// motion holds for a shape's.
func TestShapeMovesAsSprite(t *testing.T) {
	f := newFixture(t)
	var sb *ShapeBatch
	var err error
	gltest.Do(func() { sb, err = NewShapeBatch(4) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gltest.Do(sb.Delete) })
	// An 8x8 white sprite centred at x, and an 8x8 rectangle whose
	// top-left corner is 4 px up and left of it, from x 20.3 to 93.7.
	state := func(x float32) *snapshot.Snapshot {
		s := snap(sprite{id: 1, gen: 1, x: x, y: 20, frame: frameWhite8})
		s.Draw.Shapes = []snapshot.Shape{{Key: 1, Kind: snapshot.ShapeRect, X: x - 4, Y: 40 - 4, A: 8, B: 8, Tint: tWhite}}
		return s
	}
	prev, curr := state(20.3), state(93.7)
	gltest.Do(func() {
		f.batch.Upload(prev, curr)
		sb.Upload(prev, curr, nil)
	})
	vp := CameraMatrix(curr.Camera, fbW, fbH)
	lit := func(c color.RGBA) bool { return c.R > 127 }
	for i := range 21 {
		alpha := float32(i) / 20
		var img *image.RGBA
		gltest.Do(func() {
			Clear(0, 0, 0, 1)
			f.batch.Draw(vp, alpha)
			sb.Draw(0, false, vp, 1, alpha)
			img = ReadPixels(0, 0, fbW, fbH)
		})
		s := bounds(img.SubImage(image.Rect(0, 0, fbW, 30)).(*image.RGBA), lit)
		r := bounds(img.SubImage(image.Rect(0, 30, fbW, fbH)).(*image.RGBA), lit)
		if s.Min.X != r.Min.X || s.Max.X != r.Max.X {
			t.Errorf("alpha %.2f: the sprite covers columns %d to %d, the shape %d to %d", alpha, s.Min.X, s.Max.X, r.Min.X, r.Max.X)
		}
	}
}
