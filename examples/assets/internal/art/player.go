package art

// The player is 16x24, facing right: red cap, yellow scarf whose end flies
// behind, green tunic, navy trousers, brown boots. The grids hold the fill;
// outline adds the dark edge, and 'k' marks the inner lines.
var playerPalette = palette{
	'k': black,
	'r': red,
	'R': rgb(0x7d2a44), // brim
	'l': orange,        // cap highlight
	'h': darkBrown,     // hair
	's': skin,
	'S': skinShade,
	'e': black, // eyes
	'y': yellow,
	'Y': orange, // scarf shade
	'g': green,
	'G': teal, // tunic shade and sleeve
	'b': brown,
	'B': darkBrown,
	'p': blue,
	'P': navy,
}

var (
	playerHead = []string{
		"................",
		".....rrrrrl.....",
		"....rrrrrrrll...",
		"....rrrrrrrrrl..",
		"....RRRRRRRRRRR.",
		"....hhhSSSSSS...",
		"....hhssseses...",
		"....hsSssesess..",
		"....Sssssssss...",
		".....SSsssss....",
	}
	playerHeadBlink = []string{
		"................",
		".....rrrrrl.....",
		"....rrrrrrrll...",
		"....rrrrrrrrrl..",
		"....RRRRRRRRRRR.",
		"....hhhSSSSSS...",
		"....hhssssssss..",
		"....hsSssesess..",
		"....Sssssssss...",
		".....SSsssss....",
	}

	// Standing: the scarf's end hangs down the back, the arm at the side.
	playerBodyIdle = []string{
		"....yyyyyyyyy...",
		"..YyyyyyyyyYY...",
		"..y.gggGGgggg...",
		"..Y.gggGGgggg...",
		"..y.gggGGgggg...",
		"....gggssgggg...",
		"....BBBBBBBBB...",
	}
	// Breathing out: everything above the belt one pixel lower.
	playerBodyIdleLow = []string{
		"....yyyyyyyyy...",
		"..YyyyyyyyyYY...",
		"..y.gggGGgggg...",
		"..Y.gggGGgggg...",
		"....gggssgggg...",
		"....BBBBBBBBB...",
	}
	playerLegsIdle = []string{
		"....pppppppPP...",
		".....ppPkppP....",
		".....ppPkppP....",
		".....bbb.bbbb...",
		"....bbbb.bbbbb..",
		"....BBBB.BBBBB..",
		"................",
	}

	// Running and in the air the scarf's end streams out behind.
	playerBodyArmFront = []string{
		"....yyyyyyyyy...",
		"..yyyyyyyyyYY...",
		"yyYY.gggGgggg...",
		".Y..ggggGGggg...",
		"....gggggGGGss..",
		"....ggggggggg...",
		"....BBBBBBBBB...",
	}
	playerBodyArmBack = []string{
		"....yyyyyyyyy...",
		"..yyyyyyyyyYY...",
		"yyYY.ggGGgggg...",
		".Y..gGGgggggg...",
		"..ssGGggggggg...",
		"....ggggggggg...",
		"....BBBBBBBBB...",
	}
	playerLegsRun = [4][]string{
		{ // contact: near leg forward, far leg behind
			"....pppppppPP...",
			"...PPPp.pppPp...",
			"..PPP.....ppp...",
			"..BB......bbbb..",
			".BBB......bbbbb.",
			".BB.......BBBBB.",
			"................",
		},
		{ // passing: far leg swings forward, near leg under the body
			"....pppppppPP...",
			"....ppppPPPP....",
			"...bppP.PPP.....",
			"..bbbB..bbbb....",
			"..bBB...bbbbb...",
			"........BBBBB...",
			"................",
		},
		{ // contact: far leg forward, near leg behind
			"....pppppppPP...",
			"...pppp.PPPPP...",
			"..ppp.....PPP...",
			"..bb......BBBB..",
			".bbb......BBBBB.",
			".BB.......BBBBB.",
			"................",
		},
		{ // passing: near leg swings forward, far leg under the body
			"....pppppppPP...",
			"....PPPPpppp....",
			"...BPPP.ppp.....",
			"..BBBB..bbbb....",
			"..BBB...bbbbb...",
			"........BBBBB...",
			"................",
		},
	}
	playerBodyJump = []string{
		"....yyyyyyyyy.s.",
		".yyyyyyyyyyYYsG.",
		"yyYYkggggggggG..",
		".Y..kgggggggg...",
		"....ggggggggg...",
		"....ggggggggg...",
		"....BBBBBBBBB...",
	}
	playerLegsJump = []string{
		"....pppppppPP...",
		"....pppPkpppPP..",
		"...pppP..bbbbb..",
		"...bbbb..BBBBB..",
		"...BBBB.........",
		"................",
		"................",
	}
	playerBodyFall = []string{
		"..s.yyyyyyyyy.s.",
		"..GGyyyyyyyYYsG.",
		"yyYGkggggggggG..",
		".Y..kgggggggg...",
		"....ggggggggg...",
		"....ggggggggg...",
		"....BBBBBBBBB...",
	}
	playerLegsFall = []string{
		"....pppppppPP...",
		".....ppPkppP....",
		"....ppP..ppP....",
		"....bbb..bbbb...",
		"....bbbb.bbbbb..",
		"....BBBB.BBBBB..",
		"................",
	}
)

func player() []Sprite {
	frame := func(name string, parts ...[]string) Sprite {
		return Sprite{name, outline(grid(playerPalette, stack(parts...)...), black)}
	}
	low := append([]string{"................"}, playerHeadBlink...)
	return []Sprite{
		frame("player_idle0", playerHead, playerBodyIdle, playerLegsIdle[:7]),
		frame("player_idle1", low, playerBodyIdleLow, playerLegsIdle),
		frame("player_run0", playerHead, playerBodyArmFront, playerLegsRun[0]),
		frame("player_run1", playerHead, playerBodyArmFront, playerLegsRun[1]),
		frame("player_run2", playerHead, playerBodyArmBack, playerLegsRun[2]),
		frame("player_run3", playerHead, playerBodyArmBack, playerLegsRun[3]),
		frame("player_jump", playerHead, playerBodyJump, playerLegsJump),
		frame("player_fall", playerHead, playerBodyFall, playerLegsFall),
	}
}
