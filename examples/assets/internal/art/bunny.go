package art

// The bunny is the bunnymark classic: a front-facing rabbit sitting up, 26x37,
// in four coats. The grid is its left half; the right half is its mirror.
var bunnyHalf = []string{
	"......kkk....",
	".....kwwwk...",
	".....kwwwk...",
	".....kwppwk..",
	".....kwppwk..",
	".....kwppwk..",
	".....kwppwk..",
	"......kwppwk.",
	"......kwppwk.",
	"......kwppwk.",
	"......kwwpwk.",
	"......kwwwwkk",
	".....kwwwwwww",
	"....kwwwwwwww",
	"...kwwwwwwwww",
	"...kwwwwwwwww",
	"..kwwwweewwww",
	"..kwwwweewwww",
	"..kwwwweewwww",
	"..kwwwwwwwwww",
	"..kwppwwwwwnn",
	"..kwwwwwwwwwk",
	"...kwwwwwwwkw",
	"....kwwwwwwww",
	"....kkwwwwwww",
	"...kwwwwwwwww",
	"..kwwwwwwwwww",
	"..kwwgwwwwwww",
	".kwwwgwwwwwww",
	".kwwwgwwwwwww",
	".kwwwwgwwwwww",
	".kwwwwwkwwwww",
	".kwwwwwkwwwww",
	".kgwwwwwwwwww",
	"..kgwwwwwwwww",
	"..kkwwwwkwwww",
	"...kkkkk.kkkk",
}

// bunnyCoats are the four colourings: white, caramel, grey and lavender.
var bunnyCoats = [4]palette{
	{'k': charcoal, 'w': white, 'g': silver, 'p': rgb(0xf59bb0), 'n': rgb(0xe0607e), 'e': black},
	{'k': darkBrown, 'w': rgb(0xe0a870), 'g': rgb(0xb07040), 'p': rgb(0xf5b8a0), 'n': rgb(0xc05050), 'e': black},
	{'k': black, 'w': silver, 'g': slate, 'p': rgb(0xf59bb0), 'n': rgb(0xe0607e), 'e': black},
	{'k': plum, 'w': rgb(0xcdb4f0), 'g': rgb(0x9a7fc8), 'p': rgb(0xf5a0c8), 'n': rgb(0xd0508a), 'e': black},
}

func bunnies() []Sprite {
	rows := make([]string, len(bunnyHalf))
	for i, half := range bunnyHalf {
		b := []byte(half)
		for j := len(half) - 1; j >= 0; j-- {
			b = append(b, half[j])
		}
		rows[i] = string(b)
	}
	s := make([]Sprite, len(bunnyCoats))
	for i, coat := range bunnyCoats {
		s[i] = Sprite{"bunny" + string(rune('0'+i)), grid(coat, rows...)}
	}
	return s
}
