package art

// The coin spins by narrowing: full face, three-quarter, edge, three-quarter.
var coinPalette = palette{
	'o': rgb(0x7a3f1d), // outline
	'y': yellow,
	'Y': rgb(0xe89a3c), // shade
	'd': rgb(0xc0702a), // engraving
	'w': white,
}

var coinFrames = [3][]string{
	{
		"....oooo....",
		"..ooyyyyoo..",
		".oywwyyyyYo.",
		".owyyddyyYo.",
		"oywyydYyyyYo",
		"oyyyydYyyyYo",
		"oyyyydYyyyYo",
		"oyyyydYyyyYo",
		".oyyyYYyyYo.",
		".oYyyyyyYYo.",
		"..ooYYYYoo..",
		"....oooo....",
	},
	{
		"....oooo....",
		"...oyyyyo...",
		"..oywyyyYo..",
		"..owyddyYo..",
		"..owydYyYo..",
		"..oyydYyYo..",
		"..oyydYyYo..",
		"..oyydYyYo..",
		"..oyyYYyYo..",
		"..oYyyyYYo..",
		"...oYYYYo...",
		"....oooo....",
	},
	{
		".....oo.....",
		"....oyYo....",
		"....owYo....",
		"....owYo....",
		"....oyYo....",
		"....oyYo....",
		"....oyYo....",
		"....oyYo....",
		"....oyYo....",
		"....oyYo....",
		"....oYYo....",
		".....oo.....",
	},
}

// coins returns coin0..coin3; coin3 is coin1 seen from the other side.
func coins() []Sprite {
	var s []Sprite
	for i, f := range coinFrames {
		s = append(s, Sprite{"coin" + string(rune('0'+i)), grid(coinPalette, f...)})
	}
	return append(s, Sprite{"coin3", mirror(grid(coinPalette, coinFrames[1]...))})
}
