package tandem

import (
	"fmt"

	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/window"
)

// binding is one device input an action is bound to.
type binding struct {
	kind   window.InputKind
	key    window.Key
	mouse  window.MouseButton
	button window.GamepadButton
}

// inputNames are the names Setup.Bind takes.
var inputNames = func() map[string]binding {
	m := map[string]binding{}
	key := func(name string, k window.Key) { m[name] = binding{kind: window.KindKey, key: k} }
	for c := 'A'; c <= 'Z'; c++ {
		key(string(c), window.KeyA+window.Key(c-'A'))
	}
	for c := '0'; c <= '9'; c++ {
		key(string(c), window.Key0+window.Key(c-'0'))
	}
	for i := range 12 {
		key(fmt.Sprintf("F%d", i+1), window.KeyF1+window.Key(i))
	}
	for name, k := range map[string]window.Key{
		"Space": window.KeySpace, "Enter": window.KeyEnter, "Tab": window.KeyTab, "Backspace": window.KeyBackspace,
		"Escape": window.KeyEscape, "Left": window.KeyLeft, "Right": window.KeyRight, "Up": window.KeyUp,
		"Down": window.KeyDown, "LeftShift": window.KeyLeftShift, "RightShift": window.KeyRightShift,
		"LeftControl": window.KeyLeftControl, "RightControl": window.KeyRightControl,
		"LeftAlt": window.KeyLeftAlt, "RightAlt": window.KeyRightAlt, "Comma": window.KeyComma,
		"Period": window.KeyPeriod, "Slash": window.KeySlash, "Minus": window.KeyMinus, "Equal": window.KeyEqual,
	} {
		key(name, k)
	}
	for name, b := range map[string]window.MouseButton{
		"MouseLeft": window.MouseLeft, "MouseRight": window.MouseRight, "MouseMiddle": window.MouseMiddle,
	} {
		m[name] = binding{kind: window.KindMouse, mouse: b}
	}
	for name, b := range map[string]window.GamepadButton{
		"PadA": window.ButtonA, "PadB": window.ButtonB, "PadX": window.ButtonX, "PadY": window.ButtonY,
		"PadLeftBumper": window.ButtonLeftBumper, "PadRightBumper": window.ButtonRightBumper,
		"PadBack": window.ButtonBack, "PadStart": window.ButtonStart,
		"PadLeft": window.ButtonDpadLeft, "PadRight": window.ButtonDpadRight,
		"PadUp": window.ButtonDpadUp, "PadDown": window.ButtonDpadDown,
		"StickLeft": window.StickLeft, "StickRight": window.StickRight,
	} {
		m[name] = binding{kind: window.KindGamepad, button: b}
	}
	return m
}()

// engineKey reports whether b is a key the engine acts on itself: Esc
// quits, P pauses, . steps, [ and ] change the time scale, F3 toggles the
// HUD, F11 fullscreen, F12 takes a screenshot.
func engineKey(b binding) bool {
	if b.kind != window.KindKey {
		return false
	}
	switch b.key {
	case window.KeyEscape, window.KeyP, window.KeyPeriod, window.KeyLeftBracket, window.KeyRightBracket,
		window.KeyF3, window.KeyF11, window.KeyF12:
		return true
	}
	return false
}

func bindingNamed(name string) (binding, bool) {
	b, ok := inputNames[name]
	return b, ok
}

// defaultBindings are the demo's: what an action a game does not bind is
// bound to.
var defaultBindings = map[Action][]string{
	Left:  {"Left", "A", "PadLeft", "StickLeft"},
	Right: {"Right", "D", "PadRight", "StickRight"},
	Jump:  {"Space", "Up", "W", "Z", "MouseLeft", "PadA", "PadB"},
}

// bindings maps device inputs to the game's buttons. It is built once,
// before the loop, and read on the main thread by every input event.
type bindings struct {
	keys    map[window.Key]simthread.Buttons
	mouse   map[window.MouseButton]simthread.Buttons
	buttons map[window.GamepadButton]simthread.Buttons
}

// newBindings merges a game's bindings over the defaults: an action the
// game binds loses its defaults, and an input the game binds leaves every
// action it was a default of.
func newBindings(game map[Action][]binding) bindings {
	b := bindings{keys: map[window.Key]simthread.Buttons{}, mouse: map[window.MouseButton]simthread.Buttons{},
		buttons: map[window.GamepadButton]simthread.Buttons{}}
	add := func(a Action, in binding) {
		switch in.kind {
		case window.KindKey:
			b.keys[in.key] |= a.bit()
		case window.KindMouse:
			b.mouse[in.mouse] |= a.bit()
		case window.KindGamepad:
			b.buttons[in.button] |= a.bit()
		}
	}
	claimed := map[binding]bool{}
	for _, ins := range game {
		for _, in := range ins {
			claimed[in] = true
		}
	}
	for a, names := range defaultBindings {
		if _, ok := game[a]; ok {
			continue
		}
		for _, n := range names {
			if !claimed[inputNames[n]] {
				add(a, inputNames[n])
			}
		}
	}
	for a, ins := range game {
		for _, in := range ins {
			add(a, in)
		}
	}
	return b
}

// of returns the game buttons e is bound to.
func (b bindings) of(e window.Input) simthread.Buttons {
	switch e.Kind {
	case window.KindKey:
		return b.keys[e.Key]
	case window.KindMouse:
		return b.mouse[e.Mouse]
	case window.KindGamepad:
		return b.buttons[e.Button]
	}
	return 0
}
