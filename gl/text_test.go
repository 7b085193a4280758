package gl

import (
	"image"
	"image/color"
	"os"
	"testing"

	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"

	"github.com/tandem-engine/tandem/gl/internal/gltest"
	"github.com/tandem-engine/tandem/snapshot"
)

// testFonts are Go Regular (font 0: Latin, Greek, Cyrillic) and the
// CJK subset of Droid Sans Fallback in testdata (font 1).
func testFonts(t *testing.T) []*sfnt.Font {
	t.Helper()
	reg, err := opentype.Parse(goregular.TTF)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/droid-cjk-subset.ttf")
	if err != nil {
		t.Fatal(err)
	}
	cjk, err := opentype.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return []*sfnt.Font{reg, cjk}
}

func newGlyphs(t *testing.T) *GlyphCache {
	t.Helper()
	fonts := testFonts(t)
	var g *GlyphCache
	var err error
	gltest.Do(func() { g, err = NewGlyphCache(fonts, 512) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gltest.Do(g.Delete) })
	return g
}

// texts makes a snapshot of runs.
func texts(runs ...struct {
	x, y, size  float32
	font, align uint8
	s           string
}) *snapshot.Snapshot {
	s := &snapshot.Snapshot{Camera: shapeCam}
	for _, r := range runs {
		from := int32(len(s.Draw.Chars))
		s.Draw.Chars = append(s.Draw.Chars, r.s...)
		s.Draw.Texts = append(s.Draw.Texts, snapshot.TextRun{X: r.x, Y: r.y, Size: r.size, Font: r.font, Align: r.align,
			Tint: tWhite, From: from, To: int32(len(s.Draw.Chars))})
	}
	return s
}

type run = struct {
	x, y, size  float32
	font, align uint8
	s           string
}

// TestTextGolden draws each script, the alignments and a missing glyph.
func TestTextGolden(t *testing.T) {
	b := newShapeBatch(t)
	g := newGlyphs(t)
	for _, tc := range []struct {
		name string
		runs []run
	}{
		{"text-latin", []run{{4, 4, 20, 0, 0, "Ça été l'œuvre"}, {4, 40, 32, 0, 0, "AVATAR Wave"}, {4, 90, 12, 0, 0, "naïve façade, ñandú"}}},
		{"text-greek", []run{{4, 4, 24, 0, 0, "Καλημέρα κόσμε"}, {4, 50, 16, 0, 0, "ΑΒΓΔ αβγδ ώ"}}},
		{"text-cyrillic", []run{{4, 4, 24, 0, 0, "Привет, мир"}, {4, 50, 16, 0, 0, "Съешь же ещё"}}},
		// The CJK runs are in font 0, which has no CJK: the glyphs come
		// from font 1, the fallback; the Latin ones from font 0.
		{"text-cjk", []run{{4, 4, 32, 0, 0, "你好世界"}, {4, 50, 24, 1, 0, "日本語 漢字"}, {4, 90, 20, 0, 0, "Score 得分 42"}}},
		{"text-align", []run{{128, 4, 20, 0, snapshot.AlignLeft, "left"}, {128, 40, 20, 0, snapshot.AlignCenter, "centre\nand two"}, {128, 100, 20, 0, snapshot.AlignRight, "right"}}},
		// U+2603 is in neither font: drawn as font 0's .notdef.
		{"text-missing", []run{{4, 4, 32, 0, 0, "a\u2603b"}}},
	} {
		s := texts(tc.runs...)
		if tc.name == "text-align" {
			s.Draw.Shapes = []snapshot.Shape{{Kind: snapshot.ShapeLine, X: 128, Y: 0, B: 128, Width: 1, Tint: tRed}}
		}
		golden(t, tc.name, drawShapes(b, g, s, s, 1, 1))
	}
}

// TestTextAlign checks the alignments against each other: the centred
// run's ink is centred on x, the right one ends there.
func TestTextAlign(t *testing.T) {
	b := newShapeBatch(t)
	g := newGlyphs(t)
	lit := func(c color.RGBA) bool { return c.G > 100 }
	for _, tc := range []struct {
		align uint8
		check func(r image.Rectangle) bool
	}{
		{snapshot.AlignLeft, func(r image.Rectangle) bool { return r.Min.X >= 128 && r.Min.X <= 131 }},
		{snapshot.AlignCenter, func(r image.Rectangle) bool { d := r.Min.X + r.Max.X - 256; return d >= -3 && d <= 3 }},
		{snapshot.AlignRight, func(r image.Rectangle) bool { return r.Max.X <= 128 && r.Max.X >= 125 }},
	} {
		s := texts(run{128, 40, 24, 0, tc.align, "HHHH"})
		r := bounds(drawShapes(b, g, s, s, 1, 1), lit)
		if !tc.check(r) {
			t.Errorf("align %d: ink in %v around x 128", tc.align, r)
		}
	}
}

// TestTextInterpolates checks that a keyed run slides between snapshots.
func TestTextInterpolates(t *testing.T) {
	b := newShapeBatch(t)
	g := newGlyphs(t)
	prev, curr := texts(run{20, 40, 24, 0, 0, "I"}), texts(run{120, 40, 24, 0, 0, "I"})
	prev.Draw.Texts[0].Key, curr.Draw.Texts[0].Key = 9, 9
	lit := func(c color.RGBA) bool { return c.G > 100 }
	r0 := bounds(drawShapes(b, g, prev, curr, 0, 1), lit)
	r5 := bounds(drawShapes(b, g, prev, curr, 0.5, 1), lit)
	r1 := bounds(drawShapes(b, g, prev, curr, 1, 1), lit)
	if r5.Min.X-r0.Min.X != 50 || r1.Min.X-r0.Min.X != 100 {
		t.Errorf("ink starts at %d, %d, %d for alpha 0, 0.5, 1; want steps of 50", r0.Min.X, r5.Min.X, r1.Min.X)
	}
}

// TestTextAllocs checks that 2000 glyphs of text that changes every
// snapshot (digits) lay out, upload and draw without allocating once the
// digits are in the atlas.
func TestTextAllocs(t *testing.T) {
	b := newShapeBatch(t)
	g := newGlyphs(t)
	s := &snapshot.Snapshot{Camera: shapeCam}
	line := []byte("0123456789012345678901234567890123456789")
	for i := range 50 {
		from := int32(len(s.Draw.Chars))
		s.Draw.Chars = append(s.Draw.Chars, line...)
		s.Draw.Texts = append(s.Draw.Texts, snapshot.TextRun{X: 0, Y: float32(i * 2), Size: 14, Tint: tWhite, From: from, To: int32(len(s.Draw.Chars))})
	}
	vp := CameraMatrix(shapeCam, shW, shH)
	step := 0
	var allocs float64
	var warm int
	gltest.Do(func() {
		b.Upload(s, s, g) // warm: every digit rasterised
		warm = g.rasterised
		allocs = testing.AllocsPerRun(20, func() {
			step++
			for i := range s.Draw.Chars {
				s.Draw.Chars[i] = '0' + byte((i+step)%10)
			}
			b.Upload(s, s, g)
			b.Draw(0, false, vp, 1, 1)
		})
	})
	if b.Len() != 2000 {
		t.Fatalf("%d glyphs uploaded, want 2000", b.Len())
	}
	if allocs != 0 {
		t.Errorf("%v allocations per frame of changing text, want 0", allocs)
	}
	if warm != 10 || g.rasterised != warm {
		t.Errorf("%d glyphs rasterised to warm up, %d after 20 more frames: want the 10 digits, once", warm, g.rasterised)
	}
}

// TestGlyphAtlasFull checks that an atlas too small for two texts in
// turn is emptied when the second does not fit, and the second is drawn
// whole.
func TestGlyphAtlasFull(t *testing.T) {
	b := newShapeBatch(t)
	fonts := testFonts(t)
	var g *GlyphCache
	var err error
	gltest.Do(func() { g, err = NewGlyphCache(fonts, 96) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gltest.Do(g.Delete) })
	a := texts(run{4, 4, 24, 0, 0, "ABCDEFGHIJKLM"})
	z := texts(run{4, 4, 24, 0, 0, "NOPQRSTUVWXYZ"})
	for _, s := range []*snapshot.Snapshot{a, z, a} {
		gltest.Do(func() { b.Upload(s, s, g) })
		if b.Len() != 13 {
			t.Fatalf("%d of 13 glyphs uploaded", b.Len())
		}
	}
	if g.Full() {
		t.Error("the atlas is still full after its reset")
	}
	// 39 glyphs drawn from 26 runes: some were rasterised again after a
	// reset.
	if g.rasterised <= 26 {
		t.Errorf("%d glyphs rasterised: the atlas was never emptied", g.rasterised)
	}
}

// TestTextZoomed checks that text in the world at zoom 2 is rasterised
// at twice its size: as sharp as text twice the size at zoom 1 (the same
// pixels, within the golden tolerance), not a blurred copy.
func TestTextZoomed(t *testing.T) {
	b := newShapeBatch(t)
	g := newGlyphs(t)
	// Zoom 2 about the framebuffer's centre (128, 64): world (x, y)
	// lands at (2x-128, 2y-64).
	zoomed := texts(run{68, 34, 12, 0, 0, "Sharp"})
	big := texts(run{8, 4, 24, 0, 0, "Sharp"})
	a := drawShapes(b, g, zoomed, zoomed, 1, 2)
	c := drawShapes(b, g, big, big, 1, 1)
	diff := 0
	for i := range a.Pix {
		d := int(a.Pix[i]) - int(c.Pix[i])
		diff = max(diff, d, -d)
	}
	if diff > goldenMax {
		t.Errorf("12 px text at zoom 2 differs from 24 px text by up to %d levels (max %d)", diff, goldenMax)
	}
}

// TestTextKerning checks that a kerned pair is laid out closer than its
// glyphs' advances: "AV" in DejaVu Sans, whose GPOS table kerns it (Go
// Regular kerns no pair).
func TestTextKerning(t *testing.T) {
	withGL(t, 16, 16)
	data, err := os.ReadFile("testdata/dejavu-sans-kern-subset.ttf")
	if err != nil {
		t.Fatal(err)
	}
	f, err := opentype.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	var g *GlyphCache
	gltest.Do(func() { g, err = NewGlyphCache([]*sfnt.Font{f}, 256) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gltest.Do(g.Delete) })
	var av, a, v float32
	gltest.Do(func() {
		s := texts(run{0, 0, 40, 0, 0, "AV"}, run{0, 0, 40, 0, 0, "A"}, run{0, 0, 40, 0, 0, "V"})
		face := g.face(0, 40)
		d := &s.Draw
		w := func(i int) float32 { return g.width(&d.Texts[i], 40, face, d.Chars[d.Texts[i].From:d.Texts[i].To]) }
		av, a, v = w(0), w(1), w(2)
	})
	if !(av < a+v-1) {
		t.Errorf("AV is %.2f px wide, A and V %.2f and %.2f: not kerned", av, a, v)
	}
	t.Logf("AV %.2f px, A + V %.2f px", av, a+v)
}
