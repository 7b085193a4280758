package art

import (
	"fmt"
	"image"
	"image/color"
	"sort"
)

// Sprite is one named sprite image.
type Sprite struct {
	Name string
	Img  *image.NRGBA
}

// All returns every sprite, sorted by name. Each call draws them anew.
func All() []Sprite {
	var all []Sprite
	all = append(all, player()...)
	all = append(all, tiles()...)
	all = append(all, coins()...)
	all = append(all, bunnies()...)
	all = append(all, shooter()...)
	all = append(all, Sprite{"white", fill(4, 4, rgb(0xffffff))})
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all
}

// palette maps grid characters to colours; '.' is always transparent.
type palette map[byte]color.NRGBA

// rgb returns the opaque colour 0xRRGGBB.
func rgb(c uint32) color.NRGBA {
	return color.NRGBA{uint8(c >> 16), uint8(c >> 8), uint8(c), 255}
}

// The base colours, mostly from the Sweetie 16 palette by GrafxKid, plus a
// few skin and wood tones.
var (
	black     = rgb(0x1a1c2c)
	plum      = rgb(0x5d275d)
	red       = rgb(0xb13e53)
	orange    = rgb(0xef7d57)
	yellow    = rgb(0xffcd75)
	lime      = rgb(0xa7f070)
	green     = rgb(0x38b764)
	teal      = rgb(0x257179)
	navy      = rgb(0x29366f)
	blue      = rgb(0x3b5dc9)
	sky       = rgb(0x41a6f6)
	white     = rgb(0xf4f4f4)
	silver    = rgb(0x94b0c2)
	slate     = rgb(0x566c86)
	charcoal  = rgb(0x333c57)
	skin      = rgb(0xf6c39a)
	skinShade = rgb(0xd98b66)
	brown     = rgb(0x7a4a2c)
	darkBrown = rgb(0x4a2b1f)
)

// grid draws rows of palette characters; all rows must have the same length.
// An unknown character is a bug in this package, so it panics.
func grid(pal palette, rows ...string) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, len(rows[0]), len(rows)))
	for y, row := range rows {
		if len(row) != len(rows[0]) {
			panic(fmt.Sprintf("art: row %d is %d wide, want %d: %q", y, len(row), len(rows[0]), row))
		}
		for x := 0; x < len(row); x++ {
			if row[x] == '.' {
				continue
			}
			c, ok := pal[row[x]]
			if !ok {
				panic(fmt.Sprintf("art: row %d: no colour for %q", y, row[x]))
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// fill returns a w x h image of colour c.
func fill(w, h int, c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// stack joins row groups into one grid.
func stack(parts ...[]string) []string {
	var rows []string
	for _, p := range parts {
		rows = append(rows, p...)
	}
	return rows
}

// hash is a small deterministic pixel hash for texture, in [0, 256).
func hash(x, y, seed int) int {
	h := uint32(x)*374761393 + uint32(y)*668265263 + uint32(seed)*2246822519
	h = (h ^ h>>13) * 1274126177
	return int((h ^ h>>16) & 255)
}

// outline draws c on every transparent pixel next to (left, right, above or
// below) an opaque one, giving a sprite its dark edge without writing it
// into the grid.
func outline(img *image.NRGBA, c color.NRGBA) *image.NRGBA {
	b := img.Bounds()
	out := image.NewNRGBA(b)
	copy(out.Pix, img.Pix)
	opaque := func(x, y int) bool {
		return image.Pt(x, y).In(b) && img.NRGBAAt(x, y).A != 0
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if !opaque(x, y) && (opaque(x-1, y) || opaque(x+1, y) || opaque(x, y-1) || opaque(x, y+1)) {
				out.SetNRGBA(x, y, c)
			}
		}
	}
	return out
}

// mirror returns img flipped left to right.
func mirror(img *image.NRGBA) *image.NRGBA {
	b := img.Bounds()
	out := image.NewNRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.SetNRGBA(b.Max.X-1-(x-b.Min.X), y, img.NRGBAAt(x, y))
		}
	}
	return out
}
