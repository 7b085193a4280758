package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tandem-engine/tandem/simthread"
)

// The names Setup.Bind takes, by kind. The loop (internal/app) gives each
// its key or button in arrays of the same lengths and order; this list
// needs no cgo, so a game binds its actions in a build without a window.
var (
	NamedKeys = [...]string{
		"Space", "Enter", "Tab", "Backspace", "Escape", "Left", "Right", "Up", "Down",
		"LeftShift", "RightShift", "LeftControl", "RightControl", "LeftAlt", "RightAlt",
		"Comma", "Period", "Slash", "Minus", "Equal",
	}
	MouseNames = [...]string{"MouseLeft", "MouseRight", "MouseMiddle"}
	PadNames   = [...]string{
		"PadA", "PadB", "PadX", "PadY", "PadLeftBumper", "PadRightBumper", "PadBack", "PadStart",
		"PadLeft", "PadRight", "PadUp", "PadDown", "StickLeft", "StickRight",
	}
)

// The runs of keys Setup.Bind names by pattern, A to Z, 0 to 9 and F1 to
// F12, and their lengths; the loop gives each run its first key.
const (
	RunLetters = iota
	RunDigits
	RunF
	KeyRunCount
)

// KeyRunLen is the length of each run of keys.
var KeyRunLen = [KeyRunCount]int{26, 10, 12}

// KeyRunName returns the name of key i of run r.
func KeyRunName(r, i int) string {
	switch r {
	case RunLetters:
		return string(rune('A' + i))
	case RunDigits:
		return string(rune('0' + i))
	}
	return fmt.Sprintf("F%d", i+1)
}

// names maps every bindable name, lowercased, to its spelling.
var names = func() map[string]string {
	m := map[string]string{}
	add := func(n string) { m[lower(n)] = n }
	for r, n := range KeyRunLen {
		for i := range n {
			add(KeyRunName(r, i))
		}
	}
	for _, list := range [][]string{NamedKeys[:], MouseNames[:], PadNames[:]} {
		for _, n := range list {
			add(n)
		}
	}
	return m
}()

// Bindable returns the spelling of the input Setup.Bind calls name,
// whatever its case ("space", "SPACE" and "Space" are Space), and whether
// there is one.
func Bindable(name string) (string, bool) {
	n, ok := names[lower(name)]
	return n, ok
}

// lower lowercases ASCII letters: every bindable name is ASCII.
func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// EngineKeys are the named keys the engine acts on itself: Escape quits,
// P pauses, Period steps, F3 toggles the HUD, F11 fullscreen, F12 takes a
// screenshot. (The brackets, which change the time scale, have no name to
// bind.)
var EngineKeys = map[string]bool{"Escape": true, "P": true, "Period": true, "F3": true, "F11": true, "F12": true}

// The actions bound by default, by number: tandem.Left, Right and Jump.
const (
	ActionLeft uint8 = iota
	ActionRight
	ActionJump
)

// DefaultBindings are the demo's: what an action a game does not bind is
// bound to.
var DefaultBindings = map[uint8][]string{
	ActionLeft:  {"Left", "A", "PadLeft", "StickLeft"},
	ActionRight: {"Right", "D", "PadRight", "StickRight"},
	ActionJump:  {"Space", "Up", "W", "Z", "MouseLeft", "PadA", "PadB"},
}

// ButtonOf is the sim's button bit of action a.
func ButtonOf(a uint8) simthread.Buttons { return 1 << a }

// KnownNames says which names m has, for the error of an unknown one:
// the closest first when it is a likely typo of want, then every name in
// order, up to 40 ("the images are a, b and c").
func KnownNames[V any](want string, m map[string]V, what string) string {
	if len(m) == 0 {
		return "Setup has declared no " + what + " (before this call)"
	}
	names := make([]string, 0, len(m))
	best, bestD := "", 3 // a likely typo: at most 2 edits away
	for n := range m {
		names = append(names, n)
		if d := editDistance(want, n); d < bestD || d == bestD && n < best {
			best, bestD = n, d
		}
	}
	sort.Strings(names)
	const most = 40
	list := strings.Join(names[:min(len(names), most)], ", ")
	if len(names) > most {
		list += fmt.Sprintf(" and %d more", len(names)-most)
	}
	if best != "" {
		return fmt.Sprintf("did you mean %q? the %s are %s", best, what, list)
	}
	return fmt.Sprintf("the %s are %s", what, list)
}

// editDistance is the Levenshtein distance between a and b, in bytes.
// Names are short; a long one is compared up to its first 64 bytes.
func editDistance(a, b string) int {
	a, b = a[:min(len(a), 64)], b[:min(len(b), 64)]
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
