package art

// The shooter's sprites: a small ship (its hitbox is the 4 x 4 px at its
// centre), a bullet, and the player's gun.
var shipPalette = palette{
	'o': black,
	'r': red,
	'R': orange,
	'w': white,
	's': slate,
}

func shooter() []Sprite {
	return []Sprite{
		{"ship", grid(shipPalette,
			"..o......o..",
			".oso....oso.",
			".osRooooRso.",
			"oosrrrrrrsoo",
			"osrrwwwwrrso",
			"osrrwwwwrrso",
			"oosrrrrrrsoo",
			".osRooooRso.",
			".oso....oso.",
			"..o......o..",
		)},
		{"bullet", fill(2, 6, yellow)},
		{"gun", grid(palette{'o': black, 'g': green, 'l': lime},
			"....oo....",
			"...olgo...",
			"...olgo...",
			".oollggoo.",
			"olllgggggo",
			"oggggggggo",
		)},
	}
}
