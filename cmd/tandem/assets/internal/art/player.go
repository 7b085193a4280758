package art

// The player is 16x24, facing right: red cap, yellow scarf whose end flies
// behind, green tunic, navy trousers, brown boots.
var playerPalette = palette{
	'k': black,
	'r': red,
	'R': rgb(0x7d2a44), // cap shadow and brim
	'l': orange,        // cap highlight
	'h': darkBrown,     // hair
	's': skin,
	'S': skinShade,
	'e': black, // eyes
	'y': yellow,
	'Y': orange, // scarf shade
	'g': green,
	'G': teal, // tunic shade
	'b': brown,
	'B': darkBrown,
	'p': navy,
	'P': charcoal,
	'w': white,
}

var (
	playerHead = []string{
		"................",
		"....kkkkkkk.....",
		"...krrrrrrllk...",
		"..krrrrrrrrrlk..",
		"..krrrrrrrrrrk..",
		"..kRRRRRRRRRRRRk",
		"..khhhsssssskkk.",
		"..khhsssssesek..",
		"..khssssssesesk.",
		"..kkSsssssssssk.",
		"...kSSssssssk...",
	}
	playerHeadBlink = []string{
		"................",
		"....kkkkkkk.....",
		"...krrrrrrllk...",
		"..krrrrrrrrrlk..",
		"..krrrrrrrrrrk..",
		"..kRRRRRRRRRRRRk",
		"..khhhsssssskkk.",
		"..khhsssssssssk.",
		"..khssssssesesk.",
		"..kkSsssssssssk.",
		"...kSSssssssk...",
	}
	playerScarf = []string{
		"...kyyyyyyyyk...",
		".kkyyyyyyyyyyk..",
	}
	playerScarfFly = []string{
		"...kyyyyyyyyk...",
		"kkkyyyyyyyyyyk..",
	}

	playerBodyIdle = []string{
		"kyyYkYYYYYYYYk..",
		"kYkkGgggggggk...",
		".k.kGgggsgggk...",
		"...kGggksSgggk..",
		"...kGgggkkgggk..",
		"...kkBBBBBBBkk..",
	}
	playerLegsIdle = []string{
		"....kppPkppPk...",
		"....kppPkppPk...",
		"....kPPkkPPPk...",
		"...kbbbkbbbbbk..",
		"...kkkkkkkkkkk..",
	}
	playerLegsRun = [4][]string{
		{ // contact: front leg forward, back leg behind
			"....kppPkppppk..",
			"...kppPkkkpppPk.",
			"..kbPPk...kPPPk.",
			"..kbbk....kbbbbk",
			"..kkk.....kkkkkk",
		},
		{ // passing: back leg lifted
			"....kppPppPk....",
			"....kpPkkpPk....",
			"...kbbbkkPPk....",
			"...kkkkkbbbbk...",
			"........kkkkk...",
		},
		{ // contact, the other leg forward
			"....kpppkppPk...",
			"...kPppkkkpPPk..",
			"..kPPPk...kPbk..",
			".kbbbbk...kbbbk.",
			".kkkkkk...kkkkk.",
		},
		{ // passing: front leg lifted
			"....kppPppPk....",
			"....kpPkpPPkk...",
			"....kPPkkkbbbk..",
			"...kbbbbkkkkkk..",
			"...kkkkkk.......",
		},
	}
	playerBodyRun = [2][]string{
		{ // arm forward
			"kyyYkYYYYYYYYk..",
			"kYkkGggggggkkk..",
			".k.kGgggggksssk.",
			"...kGggggggkkk..",
			"...kGgggggggk...",
			"...kkBBBBBBBk...",
		},
		{ // arm back
			"kyyYkYYYYYYYYk..",
			"kYkkGgggggggk...",
			".kkkGgggggggk...",
			".ksskGgggggggk..",
			"..kkkGgggggggk..",
			"...kkBBBBBBBk...",
		},
	}
	playerBodyJump = []string{
		"kyyYkYYYYYYYYkks",
		"kYkkGgggggggkkSk",
		".k.kGgggggggkGk.",
		"...kGgggggggkk..",
		"...kGgggggggk...",
		"...kkBBBBBBBk...",
	}
	playerLegsJump = []string{
		"....kppPkpppk...",
		"...kppPkkpPPk...",
		"...kPPk.kbbbk...",
		"...kbbbk.kkkk...",
		"....kkkk........",
	}
	playerBodyFall = []string{
		"kyyYkYYYYYYYYk.k",
		"kYkkGgggggggk.ks",
		"kk.kGgggggggkkGk",
		"...kGgggggggGk..",
		"...kGgggggggk...",
		"...kkBBBBBBBk...",
	}
	playerLegsFall = []string{
		"....kppPkppPk...",
		"....kppPkppPk...",
		"...kpPPkkpPPk...",
		"...kbbbk.kbbbk..",
		"...kkkkk.kkkkk..",
	}
)

func player() []Sprite {
	frame := func(name string, parts ...[]string) Sprite {
		return Sprite{name, grid(playerPalette, stack(parts...)...)}
	}
	return []Sprite{
		frame("player_idle0", playerHead, playerScarf, playerBodyIdle, playerLegsIdle),
		frame("player_idle1", playerHeadBlink, playerScarf, playerBodyIdle, playerLegsIdle),
		frame("player_run0", playerHead, playerScarfFly, playerBodyRun[0], playerLegsRun[0]),
		frame("player_run1", playerHead, playerScarfFly, playerBodyRun[0], playerLegsRun[1]),
		frame("player_run2", playerHead, playerScarfFly, playerBodyRun[1], playerLegsRun[2]),
		frame("player_run3", playerHead, playerScarfFly, playerBodyRun[1], playerLegsRun[3]),
		frame("player_jump", playerHead, playerScarfFly, playerBodyJump, playerLegsJump),
		frame("player_fall", playerHead, playerScarfFly, playerBodyFall, playerLegsFall),
	}
}
