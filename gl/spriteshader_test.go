package gl

import (
	"bytes"
	"image"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/gl/internal/gltest"
	"github.com/tandem-engine/tandem/shaders"
	"github.com/tandem-engine/tandem/snapshot"
)

// TestSpriteShaderSamePicture checks that the sprites' flat tint and
// texture coordinate without perspective (shaders/sprite.frag) draw the
// very pixels the smooth ones drew (sprite.vert's outputs without their
// qualifiers, through shaders/tinted.frag, as before): w is 1 at every
// corner and the tint the same at the four, so the values are the same.
// Many sprites, turned, scaled, tinted with alpha, at fractional
// positions, over each other, at several blend factors.
func TestSpriteShaderSamePicture(t *testing.T) {
	f := newFixture(t)
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 300
	prev, curr := &snapshot.Snapshot{Camera: identityCam}, &snapshot.Snapshot{Camera: identityCam}
	prev.Sprites.Resize(n)
	curr.Sprites.Resize(n)
	frames := []uint16{frameRed, frameRedGreen, frameBlue, frameFlipped, frameWhite8}
	for i := range n {
		x, y, a := rng.Float32()*fbW, rng.Float32()*fbH, rng.Float32()*6-3
		tint := rng.Uint32() | 0x20000000
		fr := frames[rng.IntN(len(frames))]
		prev.Sprites.Set(i, uint32(i), 1, x, y, a, fr, tint)
		curr.Sprites.Set(i, uint32(i), 1, x+rng.Float32()*6-3, y+rng.Float32()*6-3, a+rng.Float32()*0.4-0.2, fr, tint)
		if i%3 == 0 {
			prev.Sprites.Scale[i], curr.Sprites.Scale[i] = 1+rng.Float32(), 1+rng.Float32()
		}
	}
	smoothVert := strings.NewReplacer("noperspective out", "out", "flat out", "out").Replace(shaders.Sprite.Vert)
	var err error
	var got, want [][]byte
	gltest.Do(func() {
		var smooth *Program
		if smooth, err = NewProgram("sprite, smooth", smoothVert, shaders.Quad.Frag); err != nil {
			return
		}
		defer smooth.Delete()
		b := f.batch
		for _, alpha := range []float32{0, 0.25, 0.5, 0.9, 1} {
			for _, p := range []*spriteProg{b.prog, spriteProgOf(smooth)} {
				shipped := b.prog
				b.prog = p
				Clear(0, 0, 0, 1)
				b.Upload(prev, curr)
				b.Draw(CameraMatrix(curr.Camera, fbW, fbH), alpha)
				pix := ReadPixels(0, 0, fbW, fbH).Pix
				if p.p == smooth {
					want = append(want, pix)
				} else {
					got = append(got, pix)
				}
				b.prog = shipped
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	lit := 0
	for i := range got {
		if !bytes.Equal(got[i], want[i]) {
			diff := 0
			for j := range got[i] {
				if got[i][j] != want[i][j] {
					diff++
				}
			}
			t.Errorf("blend %d: %d of %d bytes differ from the smooth shaders'", i, diff, len(got[i]))
		}
		for _, c := range got[i] {
			if c != 0 && c != 255 {
				lit++
			}
		}
	}
	if lit == 0 {
		t.Fatal("no blended pixels drawn: the test compares nothing")
	}
}

// TestSpriteWhiteSamePicture checks that a batch of untinted sprites,
// drawn with the tint left out (shaders.SpriteWhite), gives the very
// bytes the tinted shader gives, and that one tinted sprite among them
// brings the tinted shader back.
func TestSpriteWhiteSamePicture(t *testing.T) {
	f := newFixture(t)
	rng := rand.New(rand.NewPCG(9, 10))
	const n = 200
	prev, curr := &snapshot.Snapshot{Camera: identityCam}, &snapshot.Snapshot{Camera: identityCam}
	prev.Sprites.Resize(n)
	curr.Sprites.Resize(n)
	for i := range n {
		x, y, a := rng.Float32()*fbW, rng.Float32()*fbH, rng.Float32()*6-3
		fr := []uint16{frameRed, frameRedGreen, frameBlue, frameFlipped}[rng.IntN(4)]
		prev.Sprites.Set(i, uint32(i), 1, x, y, a, fr, snapshot.White)
		curr.Sprites.Set(i, uint32(i), 1, x+2, y-1, a+0.1, fr, snapshot.White)
	}
	var whiteUsed, tintedUsed bool
	var got, want []byte
	gltest.Do(func() {
		b := f.batch
		draw := func() []byte {
			Clear(0, 0, 0, 1)
			b.Draw(CameraMatrix(curr.Camera, fbW, fbH), 0.5)
			return ReadPixels(0, 0, fbW, fbH).Pix
		}
		b.Upload(prev, curr)
		whiteUsed = b.allWhite
		got = draw()
		b.allWhite = false // the tinted shader, on the same upload
		want = draw()
		curr.Sprites.Tint[n/2] = 0xFF00FFFF
		b.Upload(prev, curr)
		tintedUsed = !b.allWhite
	})
	if !whiteUsed || !tintedUsed {
		t.Fatalf("untinted batch drawn white: %v; with one tinted sprite, tinted: %v; want both", whiteUsed, tintedUsed)
	}
	if !bytes.Equal(got, want) {
		t.Error("untinted sprites drawn without the tint differ from the tinted shader's pixels")
	}
	if bounds(&image.RGBA{Pix: got, Stride: 4 * fbW, Rect: image.Rect(0, 0, fbW, fbH)}, isLit).Empty() {
		t.Fatal("nothing drawn: the test compares nothing")
	}
}
