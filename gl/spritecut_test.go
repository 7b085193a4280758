package gl

import (
	"bytes"
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"

	"github.com/tandem-engine/tandem/gl/internal/gltest"
	"github.com/tandem-engine/tandem/snapshot"
)

// TestSpriteCutSamePicture checks that untinted sprites of cut-out art,
// drawn with blending off (shaders.SpriteCut), give the very bytes that
// blending gives: turned, scaled, at fractional positions, over each
// other, from frames with transparent texels, over a translucent
// background, with tinted sprites blended over them afterwards (blending
// must be back on).
func TestSpriteCutSamePicture(t *testing.T) {
	withGL(t, fbW, fbH)
	rng := rand.New(rand.NewPCG(11, 12))
	const n = 300
	prev, curr := &snapshot.Snapshot{Camera: identityCam}, &snapshot.Snapshot{Camera: identityCam}
	over := &snapshot.Snapshot{Camera: identityCam}
	prev.Sprites.Resize(n)
	curr.Sprites.Resize(n)
	over.Sprites.Resize(n / 4)
	const whole = frameWhite8 + 1 // the whole atlas: more transparent texels than not
	for i := range n {
		x, y, a := rng.Float32()*fbW, rng.Float32()*fbH, rng.Float32()*6-3
		fr := []uint16{frameRed, frameRedGreen, frameBlue, frameFlipped, frameWhite8, whole}[rng.IntN(6)]
		prev.Sprites.Set(i, uint32(i), 1, x, y, a, fr, snapshot.White)
		curr.Sprites.Set(i, uint32(i), 1, x+rng.Float32()*4-2, y+rng.Float32()*4-2, a+0.1, fr, snapshot.White)
		if i%3 == 0 {
			prev.Sprites.Scale[i], curr.Sprites.Scale[i] = 1+rng.Float32(), 1+rng.Float32()
		}
	}
	for i := range n / 4 {
		over.Sprites.Set(i, uint32(i), 1, rng.Float32()*fbW, rng.Float32()*fbH, 0, frameWhite8, rng.Uint32()|0x20000000)
	}
	var err error
	var cut, cutOver, blendOn bool
	var got, want []byte
	gltest.Do(func() {
		img, frames := testAtlas()
		frames = append(frames, UVRect{U0: 0, V0: 0, U1: 1, V1: 1, W: 32, H: 16})
		var atlas *Texture
		if atlas, err = NewTexture(img, true); err != nil {
			return
		}
		defer atlas.Delete()
		var b, top *SpriteBatch
		if b, err = NewSpriteBatch(n, atlas, frames); err != nil {
			return
		}
		defer b.Delete()
		if top, err = NewSpriteBatch(n, atlas, frames); err != nil {
			return
		}
		defer top.Delete()
		vp := CameraMatrix(identityCam, fbW, fbH)
		b.Upload(prev, curr)
		top.Upload(over, over)
		cut, cutOver = b.cut != nil && b.allWhite, top.allWhite
		draw := func() []byte {
			Clear(0.2, 0.4, 0.6, 0.8)
			b.Draw(vp, 0.4)
			blendOn = gl.IsEnabled(gl.BLEND)
			top.Draw(vp, 0)
			return ReadPixels(0, 0, fbW, fbH).Pix
		}
		got = draw()
		shipped := b.cut
		b.cut = nil // the untinted shader with blending, on the same upload
		want = draw()
		b.cut = shipped
	})
	if err != nil {
		t.Fatal(err)
	}
	if !cut || cutOver {
		t.Fatalf("untinted cut-out batch drawn without blending: %v; the tinted one too: %v; want true, false", cut, cutOver)
	}
	if !blendOn {
		t.Error("blending is off after the cut-out batch's Draw")
	}
	if !bytes.Equal(got, want) {
		diff := 0
		for i := range got {
			if got[i] != want[i] {
				diff++
			}
		}
		t.Errorf("%d of %d bytes differ between the cut-out draw and the blended one", diff, len(got))
	}
	pic := &image.RGBA{Pix: got, Stride: 4 * fbW, Rect: image.Rect(0, 0, fbW, fbH)}
	bg := pic.RGBAAt(0, 0)
	red, blended := 0, 0
	for y := range fbH {
		for x := range fbW {
			switch c := pic.RGBAAt(x, y); {
			case c == color.RGBA{255, 0, 0, 255}:
				red++
			case c != bg && c.A != 255:
				blended++
			}
		}
	}
	if red == 0 || blended == 0 {
		t.Fatalf("%d opaque red pixels and %d blended ones: the test compares nothing", red, blended)
	}
}

// TestTextureCutout checks which frames count as cut-out art: opaque and
// zero texels alone, in the region and the texel around it, sampled
// nearest.
func TestTextureCutout(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 16, 8))
	for y := range 4 {
		for x := range 4 {
			img.SetRGBA(x, y, color.RGBA{10, 20, 30, 255})
		}
	}
	img.SetRGBA(12, 2, color.RGBA{10, 10, 10, 128}) // half transparent
	img.SetRGBA(2, 7, color.RGBA{10, 0, 0, 0})      // clear with colour: adds light under blending
	tex := &Texture{w: 16, h: 8, nearest: true, mixed: mixedTexels(img)}
	uv := func(x0, y0, x1, y1 int) UVRect {
		return UVRect{U0: float32(x0) / 16, V0: float32(y0) / 8, U1: float32(x1) / 16, V1: float32(y1) / 8}
	}
	for _, c := range []struct {
		name string
		f    UVRect
		want bool
	}{
		{"opaque block", uv(0, 0, 4, 4), true},
		{"opaque block, flipped", uv(4, 0, 0, 4), true},
		{"clear region", uv(5, 0, 10, 5), true},
		{"next to the half-transparent texel", uv(8, 0, 11, 4), true},
		{"touching the half-transparent texel's side", uv(8, 0, 12, 4), false},
		{"over the half-transparent texel", uv(11, 1, 14, 4), false},
		{"the rows just above the coloured clear texel", uv(0, 5, 4, 7), false},
		{"two rows above it", uv(0, 4, 4, 6), true},
		{"the whole texture", uv(0, 0, 16, 8), false},
	} {
		if got := tex.cutout(c.f); got != c.want {
			t.Errorf("%s: cutout = %v, want %v", c.name, got, c.want)
		}
	}
	if tex.nearest = false; tex.cutout(uv(0, 0, 4, 4)) {
		t.Error("a texture sampled linearly has cut-out frames")
	}
	plain := image.NewRGBA(image.Rect(0, 0, 4, 4))
	plain.SetRGBA(1, 1, color.RGBA{255, 255, 255, 255})
	if mixedTexels(plain) != nil {
		t.Error("an image of opaque and zero texels has mixed ones")
	}
	// A sub-image: only its own texels count.
	if sub := img.SubImage(image.Rect(0, 0, 8, 4)).(*image.RGBA); mixedTexels(sub) != nil {
		t.Error("a sub-image of opaque and zero texels has mixed ones")
	}
}
