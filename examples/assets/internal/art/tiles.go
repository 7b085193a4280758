package art

import (
	"image"
	"image/color"
)

// Stone colours, cool greys that sit well under grass and against a blue sky.
var (
	stoneMortar  = charcoal
	stoneDark    = rgb(0x45546b)
	stoneFace    = slate
	stoneLight   = rgb(0x7d93a8)
	stoneSpeck   = rgb(0x4d5d75)
	stoneFaceAlt = rgb(0x5f7590)
)

// tiles returns the 16x16 tiles. They repeat seamlessly in both directions.
func tiles() []Sprite {
	return []Sprite{
		{"tile_solid", stone()},
		{"tile_grass", grass(stone())},
		{"tile_oneway", plank()},
	}
}

// stone draws two courses of bricks, 8 px tall, the lower one offset by half a
// brick, each brick lit from the top left.
func stone() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 16, 16))
	for y := 0; y < 16; y++ {
		by := y % 8 // row inside the course; 7 is mortar
		shift := 0
		if y >= 8 {
			shift = 4
		}
		for x := 0; x < 16; x++ {
			bx := (x + 16 - shift) % 8 // column inside the brick; 7 is mortar
			brick := y/8*2 + (x+16-shift)%16/8
			var c color.NRGBA
			switch {
			case by == 7 || bx == 7:
				c = stoneMortar
			case by == 0 || bx == 0:
				c = stoneLight
			case by == 6 || bx == 6:
				c = stoneDark
			case hash(x, y, 1) < 24:
				c = stoneSpeck
			case brick == 1 || brick == 2:
				c = stoneFaceAlt
			default:
				c = stoneFace
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// grassDepth is how many rows of grass cover each column of tile_grass.
var grassDepth = [16]int{5, 4, 4, 5, 6, 5, 4, 4, 5, 6, 7, 6, 5, 4, 4, 5}

// grass covers the top of img with a ragged layer of grass.
func grass(img *image.NRGBA) *image.NRGBA {
	for x := 0; x < 16; x++ {
		d := grassDepth[x]
		for y := 0; y <= d; y++ {
			var c color.NRGBA
			switch {
			case y == d:
				c = stoneMortar // shadow under the turf
			case y == d-1:
				c = teal
			case y == 0:
				c = lime
			case y == 1 && x%3 == 0:
				c = lime
			case hash(x, y, 3) < 50:
				c = lime
			default:
				c = green
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// Wood colours for the one-way platform.
var (
	woodLight = rgb(0xd08a52)
	wood      = rgb(0xa7623a)
	woodGrain = rgb(0x86492b)
)

// plank draws a 5 px thick wooden plank on the top of the tile; the rest is
// transparent. The right end of each tile shows a joint between planks.
func plank() *image.NRGBA {
	return grid(palette{'k': darkBrown, 'l': woodLight, 'w': wood, 'g': woodGrain, 'n': silver},
		"llllllllllllllwk",
		"wnwwwwggwwwwnwgk",
		"wwwggwwwwwwwwwwk",
		"gwwwwwwwwggwwwgk",
		"kkkkkkkkkkkkkkkk",
		"..k..........k..",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
	)
}
