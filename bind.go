package tandem

import "fmt"

// The names Setup.Bind takes, by kind. input.go (the desktop runtime)
// gives each its key or button in arrays of the same lengths and order;
// this list needs no cgo, so a game binds its actions in a build without
// a window.
var (
	namedKeys = [...]string{
		"Space", "Enter", "Tab", "Backspace", "Escape", "Left", "Right", "Up", "Down",
		"LeftShift", "RightShift", "LeftControl", "RightControl", "LeftAlt", "RightAlt",
		"Comma", "Period", "Slash", "Minus", "Equal",
	}
	mouseNames = [...]string{"MouseLeft", "MouseRight", "MouseMiddle"}
	padNames   = [...]string{
		"PadA", "PadB", "PadX", "PadY", "PadLeftBumper", "PadRightBumper", "PadBack", "PadStart",
		"PadLeft", "PadRight", "PadUp", "PadDown", "StickLeft", "StickRight",
	}
)

// The runs of keys Setup.Bind names by pattern, A to Z, 0 to 9 and F1 to
// F12, and their lengths; input.go gives each run its first key.
const (
	runLetters = iota
	runDigits
	runF
	keyRunCount
)

var keyRunLen = [keyRunCount]int{26, 10, 12}

// keyRunName returns the name of key i of run r.
func keyRunName(r, i int) string {
	switch r {
	case runLetters:
		return string(rune('A' + i))
	case runDigits:
		return string(rune('0' + i))
	}
	return fmt.Sprintf("F%d", i+1)
}

// bindable reports whether Setup.Bind takes name.
var bindable = func() map[string]bool {
	m := map[string]bool{}
	for r, n := range keyRunLen {
		for i := range n {
			m[keyRunName(r, i)] = true
		}
	}
	for _, names := range [][]string{namedKeys[:], mouseNames[:], padNames[:]} {
		for _, n := range names {
			m[n] = true
		}
	}
	return m
}()

// engineInputs are the named keys the engine acts on itself: Escape quits,
// P pauses, Period steps, F3 toggles the HUD, F11 fullscreen, F12 takes a
// screenshot. (The brackets, which change the time scale, have no name to
// bind.)
var engineInputs = map[string]bool{"Escape": true, "P": true, "Period": true, "F3": true, "F11": true, "F12": true}
