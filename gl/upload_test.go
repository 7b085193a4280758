package gl

import (
	"bytes"
	"fmt"
	"image"
	"slices"
	"testing"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"

	"github.com/tandem-engine/tandem/gl/internal/gltest"
	"github.com/tandem-engine/tandem/snapshot"
)

// TestStreamModes writes two uploads through each mode, the second
// shorter, and reads the buffer back: what the driver holds is what was
// written, through the mapping and through staging (begin's staged, the
// path taken when a mapping is lost).
func TestStreamModes(t *testing.T) {
	withGL(t, 64, 64)
	for _, m := range []uploadMode{subData, orphan, mapped} {
		for _, staged := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/staged=%v", m, staged), func(t *testing.T) {
				gltest.Do(func() {
					s := stream{mode: m}
					gl.GenBuffers(1, &s.vbo)
					defer gl.DeleteBuffers(1, &s.vbo)
					s.resize(16)
					if w := s.begin(0, staged); len(w) != 0 || !s.end(0) {
						t.Errorf("an empty upload: begin gave %d words, or end failed", len(w))
					}
					if m == mapped && s.staging != nil {
						t.Error("an empty upload made the mapped mode's staging slice")
					}
					for _, u := range []struct{ words, from uint32 }{{16, 100}, {8, 200}} {
						w := s.begin(int(u.words), staged)
						if len(w) != int(u.words) {
							t.Errorf("begin(%d) gave %d words", u.words, len(w))
							return
						}
						for i := range w {
							w[i] = u.from + uint32(i)
						}
						want := slices.Clone(w)
						if !s.end(int(u.words)) {
							t.Errorf("%d words: the mapping was lost", u.words)
						}
						if got := readBuffer(s.vbo, int(u.words)); !slices.Equal(got, want) {
							t.Errorf("%d words: buffer holds %v, want %v", u.words, got, want)
						}
					}
				})
			})
		}
	}
}

// readBuffer returns the first n words of buffer vbo.
func readBuffer(vbo uint32, n int) []uint32 {
	out := make([]uint32, n)
	gl.BindBuffer(gl.ARRAY_BUFFER, vbo)
	gl.GetBufferSubData(gl.ARRAY_BUFFER, 0, 4*n, unsafe.Pointer(&out[0]))
	return out
}

// TestUploadModesDraw draws the same sprites through every upload mode in
// both layouts, after a larger upload that grew the batch, and wants the
// pixels subData draws.
func TestUploadModesDraw(t *testing.T) {
	withGL(t, fbW, fbH)
	var many, few []sprite
	for i := range 96 {
		s := sprite{id: uint32(i), gen: 1, x: float32(4 + 8*(i%16)), y: float32(4 + 8*(i/16)), frame: frameRed}
		many = append(many, s)
		if i%5 == 0 {
			s.frame, s.angle, s.tint = frameBlue, 0.3, 0xFFFF00FF // blue, turned, tinted magenta (still blue)
			few = append(few, s)
		}
	}
	for _, l := range []layout{instanced, expanded} {
		var want []byte
		for _, m := range []uploadMode{subData, orphan, mapped} {
			var img *image.RGBA
			withTestAtlas(t, func(atlas *Texture, frames []UVRect) error {
				b, err := newSpriteBatch(4, atlas, frames, l, m)
				if err != nil {
					return err
				}
				defer b.Delete()
				vp := CameraMatrix(snapshot.Camera{X: fbW / 2, Y: fbH / 2, Zoom: 1}, fbW, fbH)
				b.Upload(snap(many...), snap(many...))
				b.Draw(vp, 1)
				Clear(0, 0, 0, 1)
				b.Upload(snap(few...), snap(few...))
				b.Draw(vp, 0.5)
				img = ReadPixels(0, 0, fbW, fbH)
				return nil
			})
			if bounds(img, isBlue).Empty() || !bounds(img, isRed).Empty() {
				t.Fatalf("%s, %s: blue in %v, red in %v: want the second upload's blue sprites alone", l, m, bounds(img, isBlue), bounds(img, isRed))
			}
			if m == subData {
				want = img.Pix
			} else if !bytes.Equal(img.Pix, want) {
				t.Errorf("%s, %s: pixels differ from subdata's", l, m)
			}
		}
	}
}
