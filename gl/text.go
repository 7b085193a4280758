package gl

import (
	"fmt"
	"image"
	"math"
	"unicode/utf8"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"github.com/tandem-engine/tandem/snapshot"
)

// GlyphCache rasterises the glyphs of a game's fonts into one atlas
// texture as text first needs them, at any size: a glyph is drawn once
// per font and size, then laid out from the cache. Its texture holds
// coverage in its red channel.
//
// A rune the run's font lacks is taken from the other fonts, in the
// order they were given, font 0 last; a rune no font has is drawn as the run's font's
// .notdef glyph (index 0: usually an empty box). Kerning applies between
// two glyphs of the same font.
//
// When the atlas is full it is emptied and the text of the snapshot being
// laid out is rasterised again; a snapshot whose glyphs alone do not fit
// draws the ones past the atlas as nothing.
//
// GL thread only.
type GlyphCache struct {
	fonts []*sfnt.Font
	faces map[faceKey]*face
	glyph map[glyphKey]glyphEntry
	buf   sfnt.Buffer

	tex        uint32
	size       int // the atlas's width and height in texels
	x, y, row  int // the shelf packer's pen and the current shelf's height
	full       bool
	rasterised int // glyphs rasterised since the start (a test counts them)
}

type faceKey struct {
	font uint8
	size uint32 // float32 bits
}

type face struct {
	f              *opentype.Face
	ascent, height float32
}

type glyphKey struct {
	font uint8
	size uint32
	r    rune
}

// glyphEntry is a rasterised glyph: its texels in the atlas, its offset
// from the pen (top-left, y down) and its advance, in pixels.
type glyphEntry struct {
	x, y, w, h uint16
	offX, offY float32
	advance    float32
	font       uint8 // the font it was taken from (a fallback's, maybe)
	ok         bool  // it is in the atlas (false: it has no ink, or did not fit)
}

// glyphPad is the empty texels kept around each glyph, so that linear
// filtering never reads a neighbour.
const glyphPad = 1

// NewGlyphCache parses the fonts (TrueType or OpenType data) and makes an
// empty atlas of size x size texels.
//
// GL thread only.
func NewGlyphCache(fonts []*sfnt.Font, size int) (*GlyphCache, error) {
	if len(fonts) == 0 || len(fonts) > 256 {
		return nil, fmt.Errorf("gl: glyph cache: %d fonts; 1 to 256", len(fonts))
	}
	c := &GlyphCache{fonts: fonts, faces: map[faceKey]*face{}, glyph: map[glyphKey]glyphEntry{}, size: size}
	c.tex = genTexture(gl.LINEAR)
	zero := make([]byte, size*size)
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 1)
	check("glPixelStorei")
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.R8, int32(size), int32(size), 0, gl.RED, gl.UNSIGNED_BYTE, unsafe.Pointer(&zero[0]))
	err := gl.GetError()
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 4)
	check("glPixelStorei")
	if err != gl.NO_ERROR {
		c.Delete()
		return nil, fmt.Errorf("gl: glyph cache: a %dx%d atlas: GL error 0x%x", size, size, err)
	}
	return c, nil
}

// face returns the face of font at size, made the first time.
func (c *GlyphCache) face(font uint8, size float32) *face {
	k := faceKey{font, math.Float32bits(size)}
	if f := c.faces[k]; f != nil {
		return f
	}
	of, err := opentype.NewFace(c.fonts[font], &opentype.FaceOptions{Size: float64(size), DPI: 72, Hinting: fontHinting})
	if err != nil {
		return nil
	}
	m := of.Metrics()
	f := &face{f: of.(*opentype.Face), ascent: fix(m.Ascent), height: max(fix(m.Height), fix(m.Ascent)+fix(m.Descent))}
	c.faces[k] = f
	return f
}

// fontHinting is none: glyphs land on fractional pens and scale with the
// camera's zoom, where hinting's pixel grid would not hold.
const fontHinting = font.HintingNone

func fix(v fixed.Int26_6) float32 { return float32(v) / 64 }

// pick returns the font that draws r for a run in font: font itself,
// else the first of the others that has r (fonts 1, 2, ... then 0, the
// default), else font (its .notdef).
func (c *GlyphCache) pick(font uint8, r rune) uint8 {
	if c.has(font, r) {
		return font
	}
	for i := 1; i <= len(c.fonts); i++ {
		f := uint8(i % len(c.fonts))
		if f != font && c.has(f, r) {
			return f
		}
	}
	return font
}

func (c *GlyphCache) has(font uint8, r rune) bool {
	x, err := c.fonts[font].GlyphIndex(&c.buf, r)
	return err == nil && x != 0
}

// get returns r's glyph in font at size, rasterising it into the atlas
// the first time.
func (c *GlyphCache) get(font uint8, size float32, r rune) glyphEntry {
	k := glyphKey{font, math.Float32bits(size), r}
	if g, ok := c.glyph[k]; ok {
		return g
	}
	g := glyphEntry{font: c.pick(font, r)}
	f, own := c.face(g.font, size), c.face(font, size)
	if f == nil || own == nil {
		return g
	}
	dr, mask, maskp, adv, _ := f.f.Glyph(fixed.Point26_6{}, r)
	g.advance = fix(adv)
	// On the run's font's baseline, whichever font drew it.
	g.offX, g.offY = float32(dr.Min.X), float32(dr.Min.Y)+own.ascent
	if a, ok := mask.(*image.Alpha); ok && !dr.Empty() {
		g.ok = c.place(&g, dr.Dx(), dr.Dy(), a, maskp)
	}
	c.glyph[k] = g
	c.rasterised++
	return g
}

// place packs a w x h glyph on the shelves and uploads it, or reports
// false when the atlas is full.
func (c *GlyphCache) place(g *glyphEntry, w, h int, a *image.Alpha, p image.Point) bool {
	cw, ch := w+2*glyphPad, h+2*glyphPad
	if c.x+cw > c.size {
		c.x, c.y, c.row = 0, c.y+c.row, 0
	}
	if c.y+ch > c.size || cw > c.size {
		c.full = true
		return false
	}
	g.x, g.y, g.w, g.h = uint16(c.x+glyphPad), uint16(c.y+glyphPad), uint16(w), uint16(h)
	c.x += cw
	c.row = max(c.row, ch)
	gl.BindTexture(gl.TEXTURE_2D, c.tex)
	check("glBindTexture")
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 1)
	check("glPixelStorei")
	gl.PixelStorei(gl.UNPACK_ROW_LENGTH, int32(a.Stride))
	check("glPixelStorei")
	gl.TexSubImage2D(gl.TEXTURE_2D, 0, int32(g.x), int32(g.y), int32(w), int32(h), gl.RED, gl.UNSIGNED_BYTE,
		unsafe.Pointer(&a.Pix[a.PixOffset(p.X, p.Y)]))
	check("glTexSubImage2D")
	gl.PixelStorei(gl.UNPACK_ROW_LENGTH, 0)
	check("glPixelStorei")
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 4)
	check("glPixelStorei")
	return true
}

// reset empties the atlas: every glyph is rasterised again when next
// needed. The texels stay; the packer overwrites them.
func (c *GlyphCache) reset() {
	clear(c.glyph)
	c.x, c.y, c.row, c.full = 0, 0, 0, false
}

// GlyphPlace is one glyph of a laid-out run: its top-left corner relative
// to the run's X, Y and its texels in the atlas, in pixels.
type GlyphPlace struct {
	X, Y           float32
	U0, V0, U1, V1 float32
	Scale          float32 // pixels per texel
}

// Layout appends to dst the glyphs of run (its bytes are chars[run.From:
// run.To]), each line aligned on the run's X by run.Align, '\n' starting
// a line a line-height lower, and returns the extended slice. It does
// not allocate once every glyph of the text is in the cache and dst has
// room. Invalid UTF-8 is drawn as U+FFFD, through the missing-glyph rule.
//
// zoom is how many framebuffer pixels one of the run's pixels covers (the
// camera's zoom for text in the world, 1 on screen): the glyphs are
// rasterised at that many times the run's size, rounded to a half pixel,
// so that zoomed text stays sharp.
//
// GL thread only.
func (c *GlyphCache) Layout(dst []GlyphPlace, run *snapshot.TextRun, chars []byte, zoom float32) []GlyphPlace {
	if !(zoom > 0) || zoom > 64 {
		zoom = 1
	}
	size := float32(math.Round(float64(run.Size*zoom)*2) / 2)
	if int(run.Font) >= len(c.fonts) || !(size > 0) || size > maxTextPx || run.From < 0 || run.To > int32(len(chars)) || run.From > run.To {
		return dst
	}
	scale := run.Size / size // the run's pixels per raster pixel
	f := c.face(run.Font, size)
	if f == nil {
		return dst
	}
	s := chars[run.From:run.To]
	y := float32(0)
	for len(s) > 0 {
		line := s
		if i := indexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = nil
		}
		x := float32(0)
		switch run.Align {
		case snapshot.AlignCenter:
			x = -c.width(run, size, f, line) / 2
		case snapshot.AlignRight:
			x = -c.width(run, size, f, line)
		}
		prev, prevFont := rune(-1), uint8(0)
		for len(line) > 0 {
			r, n := utf8.DecodeRune(line)
			line = line[n:]
			g := c.get(run.Font, size, r)
			if prev >= 0 && prevFont == g.font && g.font == run.Font {
				x += fix(f.f.Kern(prev, r))
			}
			if g.ok {
				dst = append(dst, GlyphPlace{X: (x + g.offX) * scale, Y: (y + g.offY) * scale,
					U0: float32(g.x), V0: float32(g.y), U1: float32(g.x + g.w), V1: float32(g.y + g.h), Scale: scale})
			}
			x += g.advance
			prev, prevFont = r, g.font
		}
		y += f.height
	}
	return dst
}

// maxTextPx is the largest text size drawn: a glyph larger than a 4096
// atlas could not be cached.
const maxTextPx = 1024

// width is line's advance width, kerning included.
func (c *GlyphCache) width(run *snapshot.TextRun, size float32, f *face, line []byte) float32 {
	w := float32(0)
	prev, prevFont := rune(-1), uint8(0)
	for len(line) > 0 {
		r, n := utf8.DecodeRune(line)
		line = line[n:]
		g := c.get(run.Font, size, r)
		if prev >= 0 && prevFont == g.font && g.font == run.Font {
			w += fix(f.f.Kern(prev, r))
		}
		w += g.advance
		prev, prevFont = r, g.font
	}
	return w
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// Full reports whether the atlas ran out of room since the last reset.
func (c *GlyphCache) Full() bool { return c.full }

// Delete frees the atlas and the faces. The cache must not be used
// afterwards.
//
// GL thread only.
func (c *GlyphCache) Delete() {
	if c.tex != 0 {
		gl.DeleteTextures(1, &c.tex)
		check("glDeleteTextures")
		c.tex = 0
	}
	for _, f := range c.faces {
		f.f.Close()
	}
	c.faces, c.glyph = nil, nil
}
