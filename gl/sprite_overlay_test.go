package gl

import (
	"fmt"
	"image"
	"testing"

	"github.com/tandem-engine/tandem/snapshot"
)

// TestSpriteOverlay checks that a batch's overlay lights exactly the
// pixels of its rectangle, at every column, over the sprites, whatever
// the camera, in both layouts and in each of the batch's three programs
// (tinted, untinted, cut-out art without blending); that every other
// pixel is the sprites' own; that it is drawn by one Draw only; and that
// an empty batch draws it too.
func TestSpriteOverlay(t *testing.T) {
	withGL(t, fbW, fbH)
	cam := snapshot.Camera{X: 40, Y: 20, Zoom: 2} // not the screen's pixels: the overlay ignores it
	// Sprites of 8x8 world px, 16x16 on screen, over the whole screen.
	scene := func(frame uint16, tint uint32) *snapshot.Snapshot {
		s := &snapshot.Snapshot{Camera: cam}
		s.Sprites.Resize(40)
		for i := range 40 {
			s.Sprites.Set(i, uint32(i), 1, float32(i%10*8), float32(i/10*8), 0, frame, tint)
		}
		return s
	}
	for _, l := range []layout{instanced, expanded} {
		for _, tc := range []struct {
			name    string
			scene   *snapshot.Snapshot
			noCut   bool   // draw the untinted batch with blending (no cut program)
			program string // the program the batch must have drawn with
		}{
			{"tinted", scene(frameWhite8, 0xFF00FF00), false, "tinted"},
			{"white", scene(frameBlue, snapshot.White), true, "white"},
			{"cut", scene(frameBlue, snapshot.White), false, "cut"},
			{"empty", &snapshot.Snapshot{Camera: cam}, false, "cut"},
		} {
			t.Run(fmt.Sprintf("%s/%s", l, tc.name), func(t *testing.T) {
				base, over, after, used := drawOverlays(t, l, tc.scene, tc.noCut)
				if used != tc.program {
					t.Fatalf("drew with the %s program, want %s", used, tc.program)
				}
				if bounds(base, isLit).Empty() != (tc.name == "empty") {
					t.Fatalf("the sprites lit %v", bounds(base, isLit))
				}
				for x, img := range over {
					checkOverlay(t, base, img, image.Rect(x, 4, x+8, 12))
				}
				if !samePixels(base, after) {
					t.Error("the draw after the overlay's drew it again")
				}
			})
		}
	}
}

// drawOverlays draws s with a batch of layout l: once without the
// overlay, then with a red 8x8 overlay at each column, then once more
// without setting it. It returns the pictures and the program the last
// overlay's draw used.
func drawOverlays(t *testing.T, l layout, s *snapshot.Snapshot, noCut bool) (base *image.RGBA, over []*image.RGBA, after *image.RGBA, used string) {
	t.Helper()
	withTestAtlas(t, func(atlas *Texture, frames []UVRect) error {
		b, err := newSpriteBatch(4, atlas, frames, l, defaultUpload) // grows to the sprites
		if err != nil {
			return err
		}
		defer b.Delete()
		if noCut {
			b.cut.p.Delete()
			b.cut = nil
		}
		vp := CameraMatrix(s.Camera, fbW, fbH)
		b.Upload(s, s)
		draw := func() *image.RGBA {
			Clear(0, 0, 0, 1)
			b.Draw(vp, 0.5)
			return ReadPixels(0, 0, fbW, fbH)
		}
		base = draw()
		for x := 0; x+8 <= fbW; x++ {
			b.SetOverlay(Overlay{X: float32(x), Y: 4, W: 8, H: 8, Frame: frameRed}, fbW, fbH)
			switch {
			case b.allCut && b.cut != nil:
				used = "cut"
			case b.allWhite:
				used = "white"
			default:
				used = "tinted"
			}
			over = append(over, draw())
		}
		after = draw()
		return nil
	})
	return base, over, after, used
}

// checkOverlay checks that img is base with the pixels of r red.
func checkOverlay(t *testing.T, base, img *image.RGBA, r image.Rectangle) {
	t.Helper()
	for y := range fbH {
		for x := range fbW {
			got, want := img.RGBAAt(x, y), base.RGBAAt(x, y)
			if image.Pt(x, y).In(r) {
				want = red
			}
			if got != want {
				t.Fatalf("overlay %v: pixel (%d, %d) is %v, want %v", r, x, y, got, want)
			}
		}
	}
}

func samePixels(a, b *image.RGBA) bool { return string(a.Pix) == string(b.Pix) }
