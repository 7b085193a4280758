//go:build cgo

package tandem

import (
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

// namedKeyCodes, mouseCodes and padCodes are the keys and buttons of
// namedKeys, mouseNames and padNames (bind.go), in their order.
var (
	namedKeyCodes = [len(namedKeys)]window.Key{
		window.KeySpace, window.KeyEnter, window.KeyTab, window.KeyBackspace, window.KeyEscape,
		window.KeyLeft, window.KeyRight, window.KeyUp, window.KeyDown,
		window.KeyLeftShift, window.KeyRightShift, window.KeyLeftControl, window.KeyRightControl,
		window.KeyLeftAlt, window.KeyRightAlt,
		window.KeyComma, window.KeyPeriod, window.KeySlash, window.KeyMinus, window.KeyEqual,
	}
	mouseCodes = [len(mouseNames)]window.MouseButton{window.MouseLeft, window.MouseRight, window.MouseMiddle}
	padCodes   = [len(padNames)]window.GamepadButton{
		window.ButtonA, window.ButtonB, window.ButtonX, window.ButtonY,
		window.ButtonLeftBumper, window.ButtonRightBumper, window.ButtonBack, window.ButtonStart,
		window.ButtonDpadLeft, window.ButtonDpadRight, window.ButtonDpadUp, window.ButtonDpadDown,
		window.StickLeft, window.StickRight,
	}
)

// inputNames resolves every name Setup.Bind takes to its input.
var inputNames = func() map[string]binding {
	m := map[string]binding{}
	first := [keyRunCount]window.Key{runLetters: window.KeyA, runDigits: window.Key0, runF: window.KeyF1}
	for r, n := range keyRunLen {
		for i := range n {
			m[keyRunName(r, i)] = binding{kind: window.KindKey, key: first[r] + window.Key(i)}
		}
	}
	for i, n := range namedKeys {
		m[n] = binding{kind: window.KindKey, key: namedKeyCodes[i]}
	}
	for i, n := range mouseNames {
		m[n] = binding{kind: window.KindMouse, mouse: mouseCodes[i]}
	}
	for i, n := range padNames {
		m[n] = binding{kind: window.KindGamepad, button: padCodes[i]}
	}
	return m
}()

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

// newBindings merges a game's bindings (by name, as Setup.Bind took them)
// over the defaults: an action the game binds loses its defaults, and an
// input the game binds leaves every action it was a default of.
func newBindings(game map[Action][]string) bindings {
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
	for _, names := range game {
		for _, n := range names {
			claimed[inputNames[n]] = true
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
	for a, names := range game {
		for _, n := range names {
			add(a, inputNames[n])
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
