//go:build cgo

package app

import (
	"fmt"
	"image"

	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/internal/engine"
)

// hudFontPx is the HUD's font size in pixels.
const hudFontPx = 14

// art is everything drawn from the atlas: the packed image, the frame
// table the GPU reads, and the HUD's glyph frames. It is built once at
// start, before any GL call, so it needs no context. The frame table's
// first entries are the game's frames, numbered as Setup gave them out
// (frame 0 the engine's white pixel); the glyphs come after them.
type art struct {
	atlas  *gl.Atlas
	frames []gl.UVRect
	glyphs *gl.GlyphSet
	// glyph maps an ASCII rune to its frame; 0 (the white frame) for
	// runes without ink.
	glyph [128]uint16
	white uint16
	// probe is the bench's probe's colours, 1x1 px frames as white is:
	// magenta, then cyan (held). The sprite batch draws the probe from
	// them, untinted (gl.Overlay).
	probe [2]uint16
}

// probeNames are the atlas names of the probe's frames: the colours of
// probeColor and probeHeldColor.
var probeNames = [2]string{"\x00probe", "\x00probe held"}

// whiteName is the atlas name of frame 0.
const whiteName = "\x00white"

// buildArt packs the game's images and the HUD's glyphs into one atlas and
// makes the frame table, in the order of s's frames.
func buildArt(l *engine.Look) (*art, error) {
	glyphs, glyphImgs, err := gl.NewGlyphSet(hudFontPx)
	if err != nil {
		return nil, err
	}
	imgs := []gl.Image{{Name: whiteName, Img: solid(0xFFFFFFFF)},
		{Name: probeNames[0], Img: solid(probeColor)}, {Name: probeNames[1], Img: solid(probeHeldColor)}}
	for k, f := range l.Frames {
		if f.Img != nil {
			imgs = append(imgs, gl.Image{Name: frameKey(k, f.Name), Img: f.Img})
		}
	}
	imgs = append(imgs, glyphImgs...)
	atlas, err := gl.PackAtlas(imgs, 2)
	if err != nil {
		return nil, fmt.Errorf("tandem: packing the game's images: %w", err)
	}
	a := &art{atlas: atlas, glyphs: glyphs}
	region := make(map[string]gl.UVRect, len(atlas.Regions))
	for _, r := range atlas.Regions {
		u0, v0, u1, v1 := atlas.UV(r)
		fr := gl.UVRect{U0: u0, V0: v0, U1: u1, V1: v1, W: float32(r.W), H: float32(r.H)}
		if r.Name == whiteName || r.Name == probeNames[0] || r.Name == probeNames[1] {
			// Sampled at its centre: a 1x1 px frame of one colour.
			fr.U0, fr.U1 = (u0+u1)/2, (u0+u1)/2
			fr.V0, fr.V1 = (v0+v1)/2, (v0+v1)/2
			fr.W, fr.H = 1, 1
		}
		region[r.Name] = fr
	}
	a.frames = append(a.frames, region[whiteName])
	for k, f := range l.Frames {
		var fr gl.UVRect
		switch {
		case f.Img != nil:
			fr = region[frameKey(k, f.Name)]
		case int(f.Of) >= len(a.frames):
			return nil, fmt.Errorf("tandem: frame %d is derived from frame %d, which is not defined before it", k+1, f.Of)
		default:
			fr = a.frames[f.Of]
			if f.Mirror {
				fr.U0, fr.U1 = fr.U1, fr.U0
			}
			if f.Px > 0 {
				sc := f.Px / max(fr.W, fr.H)
				fr.W, fr.H = fr.W*sc, fr.H*sc
			}
		}
		a.frames = append(a.frames, fr)
	}
	for r := range a.glyph {
		if g := glyphs.Glyphs[r]; g.Name != "" {
			a.glyph[r] = uint16(len(a.frames))
			a.frames = append(a.frames, region[g.Name])
		}
	}
	for i, name := range probeNames {
		a.probe[i] = uint16(len(a.frames))
		a.frames = append(a.frames, region[name])
	}
	if len(a.frames) > int(gl.NoTile) {
		return nil, fmt.Errorf("tandem: %d frames; at most %d", len(a.frames), gl.NoTile)
	}
	return a, nil
}

// solid returns a 4x4 image of one opaque colour, RGBA8 with R in the
// low byte (as a tint is).
func solid(rgba uint32) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = byte(rgba), byte(rgba>>8), byte(rgba>>16), byte(rgba>>24)
	}
	return img
}

// frameKey is frame k+1's name in the atlas: its number makes it unique,
// and its name says which image an error of the packing is about.
func frameKey(k int, name string) string { return fmt.Sprintf("frame %d (%s)", k+1, name) }
