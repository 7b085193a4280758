package gl

import (
	"fmt"
	"image"
	"math"
	"strings"
	"testing"
)

func glyphTestSet(t testing.TB, size float64) (*GlyphSet, []Image) {
	t.Helper()
	g, imgs, err := NewGlyphSet(size)
	if err != nil {
		t.Fatal(err)
	}
	return g, imgs
}

func TestNewGlyphSet(t *testing.T) {
	for _, size := range []float64{8, 14, 14.5, 32} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			g, imgs := glyphTestSet(t, size)
			if g.Size != size || g.Ascent <= 0 || g.Descent <= 0 || g.LineHeight < g.Ascent+g.Descent {
				t.Fatalf("metrics: size %v ascent %d descent %d line height %d", g.Size, g.Ascent, g.Descent, g.LineHeight)
			}
			byName := make(map[string]image.Image, len(imgs))
			for _, im := range imgs {
				byName[im.Name] = im.Img
			}
			if len(byName) != len(imgs) {
				t.Fatalf("%d images but %d distinct names", len(imgs), len(byName))
			}
			named := 0
			for r := range rune(128) {
				gi := g.Glyphs[r]
				if printable := r >= 32 && r < 127; gi.Ok != printable {
					t.Fatalf("glyph %q: Ok = %v, want %v", r, gi.Ok, printable)
				}
				if !gi.Ok {
					continue
				}
				// Go Mono is monospaced.
				if gi.Advance != g.Glyphs['M'].Advance || gi.Advance <= 0 {
					t.Errorf("glyph %q advance %d, want %d", r, gi.Advance, g.Glyphs['M'].Advance)
				}
				if gi.Name == "" {
					if gi.W != 0 || gi.H != 0 {
						t.Errorf("glyph %q has size %dx%d but no image", r, gi.W, gi.H)
					}
					continue
				}
				named++
				if want := fmt.Sprintf("glyph:%d@%v", r, size); gi.Name != want {
					t.Errorf("glyph %q name %q, want %q", r, gi.Name, want)
				}
				img := byName[gi.Name]
				if img == nil || img.Bounds() != image.Rect(0, 0, gi.W, gi.H) {
					t.Fatalf("glyph %q (%dx%d): image %v", r, gi.W, gi.H, img)
				}
				// The ink stays within the line, so lines never overlap.
				if top, bottom := g.Ascent+gi.OffY, g.Ascent+gi.OffY+gi.H; top < 0 || bottom > g.LineHeight {
					t.Errorf("glyph %q spans rows %d..%d of a %d-pixel line", r, top, bottom, g.LineHeight)
				}
			}
			if named != len(imgs) {
				t.Errorf("%d glyphs with names, %d images", named, len(imgs))
			}
			if sp := g.Glyphs[' ']; sp.Name != "" || sp.W != 0 || sp.Advance <= 0 {
				t.Errorf("space: %+v, want no image and a positive advance", sp)
			}
			if _, err := PackAtlas(imgs, 1); err != nil {
				t.Errorf("packing the glyphs: %v", err)
			}
		})
	}
}

func TestGlyphImageA(t *testing.T) {
	g, imgs := glyphTestSet(t, 14)
	a := g.Glyphs['A']
	if a.W <= 0 || a.H <= 0 || a.OffY >= 0 {
		t.Fatalf("'A' = %+v: want ink above the baseline", a)
	}
	var img *image.NRGBA
	for _, im := range imgs {
		if im.Name == a.Name {
			img = im.Img.(*image.NRGBA)
		}
	}
	if img == nil {
		t.Fatalf("no image named %q", a.Name)
	}
	opaque, clear := 0, 0
	for y := 0; y < a.H; y++ {
		for x := 0; x < a.W; x++ {
			c := img.NRGBAAt(x, y)
			switch {
			case c.A == 255:
				opaque++
			case c.A == 0:
				clear++
			}
			if c.A != 0 && (c.R != 255 || c.G != 255 || c.B != 255) {
				t.Fatalf("pixel (%d,%d) = %v, want white with straight alpha", x, y, c)
			}
		}
	}
	if opaque == 0 || clear == 0 {
		t.Errorf("'A' has %d opaque and %d clear pixels of %d; want some of each", opaque, clear, a.W*a.H)
	}
	// The ink is narrow at the apex and wide at the feet.
	var widths []int
	for y := 0; y < a.H; y++ {
		first, last := -1, -1
		for x := 0; x < a.W; x++ {
			if img.NRGBAAt(x, y).A > 127 {
				if first < 0 {
					first = x
				}
				last = x
			}
		}
		if first >= 0 {
			widths = append(widths, last-first+1)
		}
	}
	if len(widths) < a.H/2 || widths[0] >= widths[len(widths)-1] {
		t.Errorf("'A' ink widths from top to bottom %v: not an A", widths)
	}
}

func TestNewGlyphSetInvalidSize(t *testing.T) {
	for _, size := range []float64{0, -3, math.NaN(), math.Inf(1)} {
		if _, _, err := NewGlyphSet(size); err == nil || !strings.HasPrefix(err.Error(), "gl: ") {
			t.Errorf("NewGlyphSet(%v) error = %v, want a gl: error", size, err)
		}
	}
}

func TestGlyphMeasure(t *testing.T) {
	g, _ := glyphTestSet(t, 14)
	adv := g.Glyphs['W'].Advance
	tests := []struct {
		s    string
		w, h int
	}{
		{"", 0, 0},
		{"W", adv, g.LineHeight},
		{"WW", 2 * adv, g.LineHeight},
		{" ", adv, g.LineHeight},
		{"ab\nabcd\nc", 4 * adv, 3 * g.LineHeight},
		{"é", adv, g.LineHeight}, // drawn as '?'
	}
	for _, tt := range tests {
		if w, h := g.Measure(tt.s); w != tt.w || h != tt.h {
			t.Errorf("Measure(%q) = %d, %d, want %d, %d", tt.s, w, h, tt.w, tt.h)
		}
	}
	w1, _ := g.Measure("W")
	w2, _ := g.Measure("WW")
	if w2 <= w1 {
		t.Errorf(`Measure("WW") width %d <= Measure("W") width %d`, w2, w1)
	}
}

func TestGlyphLayout(t *testing.T) {
	g, _ := glyphTestSet(t, 14)
	const s = "Hello, tandem! {x=1}"
	x0, y0 := 10, 20
	quads := g.Layout(nil, s, x0, y0)
	if want := len(s) - strings.Count(s, " "); len(quads) != want {
		t.Fatalf("Layout(%q) gave %d quads, want %d", s, len(quads), want)
	}
	i := 0
	for j, r := range s {
		if r == ' ' {
			continue
		}
		q, gi := quads[i], g.Glyphs[r]
		i++
		penX := x0 + j*gi.Advance // monospaced
		if q.Rune != r || q.X != penX+gi.OffX || q.Y != y0+g.Ascent+gi.OffY || q.W != gi.W || q.H != gi.H {
			t.Errorf("quad %d = %+v, want rune %q at (%d,%d) size %dx%d",
				i, q, r, penX+gi.OffX, y0+g.Ascent+gi.OffY, gi.W, gi.H)
		}
		if q.Y < y0 || q.Y+q.H > y0+g.LineHeight {
			t.Errorf("quad %+v outside the line %d..%d", q, y0, y0+g.LineHeight)
		}
	}
	for k := 1; k < len(quads); k++ {
		if quads[k].X <= quads[k-1].X {
			t.Errorf("quad %d at x %d does not advance past quad %d at x %d", k, quads[k].X, k-1, quads[k-1].X)
		}
	}

	// A new line starts at x0 again, one line lower; unknown runes become '?'.
	quads = g.Layout(quads[:0], "ab\n→c", x0, y0)
	if len(quads) != 4 || quads[2].Rune != '?' || quads[3].Rune != 'c' {
		t.Fatalf("Layout(\"ab\\n→c\") = %+v", quads)
	}
	if want := x0 + g.Glyphs['?'].OffX; quads[2].X != want {
		t.Errorf("first quad of line 2 at x %d, want %d", quads[2].X, want)
	}
	if dy := quads[3].Y - g.Glyphs['c'].OffY - (quads[0].Y - g.Glyphs['a'].OffY); dy != g.LineHeight {
		t.Errorf("line 2 baseline %d below line 1, want %d", dy, g.LineHeight)
	}

	// Appending keeps what dst held.
	quads = g.Layout(quads, "Z", 0, 0)
	if len(quads) != 5 || quads[4].Rune != 'Z' || quads[0].Rune != 'a' {
		t.Errorf("appending: %+v", quads)
	}
}

func TestGlyphLayoutNoAlloc(t *testing.T) {
	g, _ := glyphTestSet(t, 14)
	dst := make([]GlyphQuad, 0, 64)
	text := "fps 59.94  sprites 10000\nframe 16.6 ms ±0.2"
	allocs := testing.AllocsPerRun(100, func() {
		dst = g.Layout(dst[:0], text, 4, 4)
	})
	if allocs != 0 {
		t.Errorf("Layout allocates %v times per run, want 0", allocs)
	}
	if len(dst) == 0 {
		t.Error("Layout produced no quads")
	}
}

func BenchmarkGlyphLayout(b *testing.B) {
	g, _ := glyphTestSet(b, 14)
	dst := make([]GlyphQuad, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		dst = g.Layout(dst[:0], "fps 59.94  sprites 10000  frame 16.6 ms", 4, 4)
	}
}

func ExampleGlyphSet_Layout() {
	g, imgs, err := NewGlyphSet(14)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d glyph images, ascent %d, descent %d, line height %d\n",
		len(imgs), g.Ascent, g.Descent, g.LineHeight)
	w, h := g.Measure("Hi!")
	fmt.Printf("\"Hi!\" measures %dx%d\n", w, h)
	for _, q := range g.Layout(nil, "Hi!", 0, 0) {
		fmt.Printf("%q %q at (%d,%d) size %dx%d\n", q.Rune, g.Glyphs[q.Rune].Name, q.X, q.Y, q.W, q.H)
	}
	// Output:
	// 94 glyph images, ascent 14, descent 3, line height 17
	// "Hi!" measures 24x17
	// 'H' "glyph:72@14" at (0,3) size 8x11
	// 'i' "glyph:105@14" at (9,3) size 7x11
	// '!' "glyph:33@14" at (19,3) size 3x11
}
