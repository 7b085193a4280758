package gl

// This file is pure Go: no GL calls, so it builds and tests without a context.

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// GlyphSet holds the metrics of the printable ASCII glyphs (32..126) of the Go
// Mono font at one pixel size, for laying out text drawn from an atlas.
//
// All distances are whole pixels; y grows downwards. A GlyphSet is not
// changed after NewGlyphSet, so its methods may be called from any goroutine.
type GlyphSet struct {
	Size       float64 // font size in pixels
	Ascent     int     // from the top of a line to the baseline
	Descent    int     // from the baseline to the lowest descender
	LineHeight int     // from one line's top to the next line's top
	Glyphs     [128]GlyphInfo
}

// GlyphInfo is the placement of one glyph relative to the pen, which sits on
// the baseline at the glyph's left edge.
type GlyphInfo struct {
	Name    string // atlas region name, like "glyph:65@14"; "" when there is no image
	OffX    int    // bitmap left edge, relative to the pen
	OffY    int    // bitmap top edge, relative to the pen (negative above the baseline)
	W, H    int    // bitmap size; 0 for glyphs without ink, like the space
	Advance int    // how far the pen moves right after the glyph
	Ok      bool   // whether the font has this glyph
}

// GlyphQuad is one glyph placed by Layout: the rectangle in pixels where the
// atlas region of Glyphs[Rune] is drawn.
type GlyphQuad struct {
	Rune       rune
	X, Y, W, H int
}

// glyphFallback replaces runes the set has no glyph for.
const glyphFallback = '?'

// NewGlyphSet rasterizes the printable ASCII glyphs of Go Mono at size pixels
// (72 DPI, full hinting).
//
// It returns the metrics and one image per glyph with ink, named as in
// GlyphInfo.Name, for PackAtlas. The images are white with the coverage in
// alpha, not premultiplied (image.NRGBA with RGB 255). The space and other
// glyphs without ink get a GlyphInfo with Ok set but no image.
// It may be called from any goroutine.
func NewGlyphSet(size float64) (*GlyphSet, []Image, error) {
	if !(size > 0) || math.IsInf(size, 0) {
		return nil, nil, fmt.Errorf("gl: glyph set: invalid size %v", size)
	}
	f, err := opentype.Parse(gomono.TTF)
	if err != nil {
		return nil, nil, fmt.Errorf("gl: glyph set: parse go mono: %w", err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, nil, fmt.Errorf("gl: glyph set: size %v: %w", size, err)
	}
	defer face.Close()

	m := face.Metrics()
	g := &GlyphSet{
		Size:       size,
		Ascent:     m.Ascent.Ceil(),
		Descent:    m.Descent.Ceil(),
		LineHeight: m.Height.Ceil(),
	}
	g.LineHeight = max(g.LineHeight, g.Ascent+g.Descent)
	suffix := "@" + strconv.FormatFloat(size, 'g', -1, 64)
	var imgs []Image
	for r := rune(32); r < 127; r++ {
		dr, mask, maskp, adv, ok := face.Glyph(fixed.Point26_6{}, r)
		if !ok {
			return nil, nil, fmt.Errorf("gl: glyph set: go mono has no glyph for %q", r)
		}
		info := GlyphInfo{Advance: adv.Round(), Ok: true}
		if img := glyphImage(dr, mask, maskp); img != nil {
			info.Name = "glyph:" + strconv.Itoa(int(r)) + suffix
			info.OffX, info.OffY = dr.Min.X, dr.Min.Y
			info.W, info.H = dr.Dx(), dr.Dy()
			imgs = append(imgs, Image{Name: info.Name, Img: img})
		}
		g.Glyphs[r] = info
	}
	return g, imgs, nil
}

// glyphImage copies the coverage of the glyph at dr into a new white image
// with the coverage as straight alpha, or returns nil if it has no ink. It
// copies because the face reuses its mask for the next glyph.
func glyphImage(dr image.Rectangle, mask image.Image, maskp image.Point) *image.NRGBA {
	if dr.Empty() || mask == nil {
		return nil
	}
	img := image.NewNRGBA(image.Rect(0, 0, dr.Dx(), dr.Dy()))
	ink := false
	for y := 0; y < dr.Dy(); y++ {
		for x := 0; x < dr.Dx(); x++ {
			_, _, _, a := mask.At(maskp.X+x, maskp.Y+y).RGBA()
			if a == 0 {
				continue
			}
			ink = true
			img.SetNRGBA(x, y, color.NRGBA{255, 255, 255, uint8(a >> 8)})
		}
	}
	if !ink {
		return nil
	}
	return img
}

// glyph returns r and its info, or '?' and its info if the set has no glyph
// for r.
func (g *GlyphSet) glyph(r rune) (rune, *GlyphInfo) {
	if r < 0 || r >= 128 || !g.Glyphs[r].Ok {
		r = glyphFallback
	}
	return r, &g.Glyphs[r]
}

// Measure returns the size of s laid out by Layout: the advance width of its
// widest line and LineHeight times its number of lines ('\n' starts a line).
// Measure("") is 0, 0.
func (g *GlyphSet) Measure(s string) (w, h int) {
	if s == "" {
		return 0, 0
	}
	lines, line := 1, 0
	for _, r := range s {
		if r == '\n' {
			lines++
			line = 0
			continue
		}
		_, gi := g.glyph(r)
		line += gi.Advance
		w = max(w, line)
	}
	return w, lines * g.LineHeight
}

// Layout appends to dst one quad per glyph of s with ink, with the top-left of
// the first line at (x, y), and returns the extended slice. '\n' moves the pen
// to the start of the next line, LineHeight lower; runes the set has no glyph
// for are drawn as '?'. Layout does not allocate when dst has room for the
// quads.
func (g *GlyphSet) Layout(dst []GlyphQuad, s string, x, y int) []GlyphQuad {
	penX, baseline := x, y+g.Ascent
	for _, r := range s {
		if r == '\n' {
			penX, baseline = x, baseline+g.LineHeight
			continue
		}
		r, gi := g.glyph(r)
		if gi.W > 0 && gi.H > 0 {
			dst = append(dst, GlyphQuad{Rune: r, X: penX + gi.OffX, Y: baseline + gi.OffY, W: gi.W, H: gi.H})
		}
		penX += gi.Advance
	}
	return dst
}
