//go:build cgo

package app

import (
	"github.com/tandem-engine/tandem/internal/engine"
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
// engine.NamedKeys, engine.MouseNames and engine.PadNames (internal/engine), in their order.
var (
	namedKeyCodes = [len(engine.NamedKeys)]window.Key{
		window.KeySpace, window.KeyEnter, window.KeyTab, window.KeyBackspace, window.KeyEscape,
		window.KeyLeft, window.KeyRight, window.KeyUp, window.KeyDown,
		window.KeyLeftShift, window.KeyRightShift, window.KeyLeftControl, window.KeyRightControl,
		window.KeyLeftAlt, window.KeyRightAlt,
		window.KeyComma, window.KeyPeriod, window.KeySlash, window.KeyMinus, window.KeyEqual,
	}
	mouseCodes = [len(engine.MouseNames)]window.MouseButton{window.MouseLeft, window.MouseRight, window.MouseMiddle}
	padCodes   = [len(engine.PadNames)]window.GamepadButton{
		window.ButtonA, window.ButtonB, window.ButtonX, window.ButtonY,
		window.ButtonLeftBumper, window.ButtonRightBumper, window.ButtonBack, window.ButtonStart,
		window.ButtonDpadLeft, window.ButtonDpadRight, window.ButtonDpadUp, window.ButtonDpadDown,
		window.StickLeft, window.StickRight,
	}
)

// inputNames resolves every name Setup.Bind takes to its input.
var inputNames = func() map[string]binding {
	m := map[string]binding{}
	first := [engine.KeyRunCount]window.Key{engine.RunLetters: window.KeyA, engine.RunDigits: window.Key0, engine.RunF: window.KeyF1}
	for r, n := range engine.KeyRunLen {
		for i := range n {
			m[engine.KeyRunName(r, i)] = binding{kind: window.KindKey, key: first[r] + window.Key(i)}
		}
	}
	for i, n := range engine.NamedKeys {
		m[n] = binding{kind: window.KindKey, key: namedKeyCodes[i]}
	}
	for i, n := range engine.MouseNames {
		m[n] = binding{kind: window.KindMouse, mouse: mouseCodes[i]}
	}
	for i, n := range engine.PadNames {
		m[n] = binding{kind: window.KindGamepad, button: padCodes[i]}
	}
	return m
}()

// bindings maps device inputs to the game's buttons. It is built once,
// before the loop, and read on the main thread by every input event.
type bindings struct {
	keys    map[window.Key]simthread.Buttons
	mouse   map[window.MouseButton]simthread.Buttons
	buttons map[window.GamepadButton]simthread.Buttons
	// actions are the engine's keys the add-ons set (F3 the HUD, F12 a
	// screenshot): each runs on the input thread when its key goes down,
	// unless the game bound the key.
	actions map[window.Key]func()
}

// act sets key k to run f when it goes down. Before the loop starts.
func (b *bindings) act(k window.Key, f func()) {
	if b.actions == nil {
		b.actions = map[window.Key]func(){}
	}
	b.actions[k] = f
}

// newBindings merges a game's bindings (by name, as Setup.Bind took them)
// over the defaults: an action the game binds loses its defaults, and an
// input the game binds leaves every action it was a default of.
func newBindings(game map[uint8][]string) bindings {
	b := bindings{keys: map[window.Key]simthread.Buttons{}, mouse: map[window.MouseButton]simthread.Buttons{},
		buttons: map[window.GamepadButton]simthread.Buttons{}}
	add := func(a uint8, in binding) {
		switch in.kind {
		case window.KindKey:
			b.keys[in.key] |= engine.ButtonOf(a)
		case window.KindMouse:
			b.mouse[in.mouse] |= engine.ButtonOf(a)
		case window.KindGamepad:
			b.buttons[in.button] |= engine.ButtonOf(a)
		}
	}
	claimed := map[binding]bool{}
	for _, names := range game {
		for _, n := range names {
			claimed[inputNames[n]] = true
		}
	}
	for a, names := range engine.DefaultBindings {
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
