//go:build cgo

package app

import (
	"testing"

	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
	"github.com/tandem-engine/tandem/window"
)

// inputSim keeps what each tick saw.
type inputSim struct{ seen []simthread.TickInput }

func (s *inputSim) Step(in simthread.TickInput)    { s.seen = append(s.seen, in) }
func (s *inputSim) Publish(dst *snapshot.Snapshot) { dst.Sprites.Resize(0) }
func (s *inputSim) Hash() uint64                   { return 0 }

func TestDeviceInputReachesTheSim(t *testing.T) {
	// What the window reports becomes the sim's input: the mouse's left
	// button is the game's jump (the shooter's fire), the cursor's last
	// move of a poll is the pointer, a stick's axis is an axis.
	sim := &inputSim{}
	r, err := simthread.New(sim, simthread.Config{Hz: 100, Clock: simthread.NewFakeClock(0)})
	if err != nil {
		t.Fatal(err)
	}
	a := &session{runner: r, in: inputState{keys: newBindings(nil)}}
	r.RunDue(0)
	a.onEvent(window.Input{Time: 1_000_000, Kind: window.KindPointer, X: 5, Y: 6})
	a.onEvent(window.Input{Time: 2_000_000, Kind: window.KindPointer, X: 7, Y: 8})
	a.onEvent(window.Input{Time: 3_000_000, Kind: window.KindMouse, Mouse: window.MouseLeft, Down: true})
	a.onEvent(window.Input{Time: 4_000_000, Kind: window.KindAxis, Axis: window.AxisLeftX, Value: -0.5})
	a.onEvent(window.Input{Time: 4_000_000, Kind: window.KindMouse, Mouse: window.MouseRight, Down: true}) // unbound
	a.pushPointer()
	a.pushPointer() // nothing new: nothing pushed
	if q := r.Queued(); q != 3 {
		t.Fatalf("%d events queued, want 3 (one pointer move, the button, the axis)", q)
	}
	r.RunDue(10_000_000)
	in := sim.seen[len(sim.seen)-1]
	want := simthread.TickInput{Down: engine.ButtonOf(engine.ActionJump), Pressed: engine.ButtonOf(engine.ActionJump), PointerX: 7, PointerY: 8, HasPointer: true}
	want.Axes[window.AxisLeftX] = -0.5
	if in != want {
		t.Fatalf("tick saw %+v, want %+v", in, want)
	}
	// Once a frame is on screen, the cursor is where it points in the
	// world: that frame's camera centre, offset by the cursor's distance
	// from the framebuffer's centre over the zoom.
	a.shown = shownView{cam: snapshot.Camera{X: 100, Y: 50, Zoom: 2}, w: 200, h: 100}
	a.onEvent(window.Input{Time: 20_000_000, Kind: window.KindPointer, X: 7, Y: 8})
	a.pushPointer()
	r.RunDue(40_000_000)
	in = sim.seen[len(sim.seen)-1]
	if in.PointerX != 53.5 || in.PointerY != 29 {
		t.Fatalf("the cursor at (7, 8) of a 200x100 framebuffer showing (100, 50) at 2x reached the sim at (%v, %v), want (53.5, 29)", in.PointerX, in.PointerY)
	}
}

func TestBindNames(t *testing.T) {
	// Every name Setup.Bind takes (internal/engine, no cgo) resolves to the input
	// it names (input.go), and the engine's own keys are the ones the app
	// acts on.
	var bindable []string
	for r, n := range engine.KeyRunLen {
		for i := range n {
			bindable = append(bindable, engine.KeyRunName(r, i))
		}
	}
	bindable = append(append(append(bindable, engine.NamedKeys[:]...), engine.MouseNames[:]...), engine.PadNames[:]...)
	if len(inputNames) != len(bindable) {
		t.Fatalf("%d names resolve, %d are bindable", len(inputNames), len(bindable))
	}
	for _, n := range bindable {
		if got, ok := engine.Bindable(n); !ok || got != n {
			t.Errorf("engine.Bindable(%q) = %q, %v", n, got, ok)
		}
		if _, ok := inputNames[n]; !ok {
			t.Errorf("%q is bindable but resolves to nothing", n)
		}
	}
	key := func(k window.Key) binding { return binding{kind: window.KindKey, key: k} }
	pad := func(b window.GamepadButton) binding { return binding{kind: window.KindGamepad, button: b} }
	mouse := func(b window.MouseButton) binding { return binding{kind: window.KindMouse, mouse: b} }
	// Every name spelled out but the runs A-Z, 0-9 and F1-F12 (their ends
	// checked), so that a slip in the engine's names' or bindings.go's order shows.
	for name, want := range map[string]binding{
		"A": key(window.KeyA), "Z": key(window.KeyZ), "0": key(window.Key0), "9": key(window.Key9),
		"F1": key(window.KeyF1), "F12": key(window.KeyF12), "P": key(window.KeyP),
		"Space": key(window.KeySpace), "Enter": key(window.KeyEnter), "Tab": key(window.KeyTab),
		"Backspace": key(window.KeyBackspace), "Escape": key(window.KeyEscape),
		"Left": key(window.KeyLeft), "Right": key(window.KeyRight), "Up": key(window.KeyUp), "Down": key(window.KeyDown),
		"LeftShift": key(window.KeyLeftShift), "RightShift": key(window.KeyRightShift),
		"LeftControl": key(window.KeyLeftControl), "RightControl": key(window.KeyRightControl),
		"LeftAlt": key(window.KeyLeftAlt), "RightAlt": key(window.KeyRightAlt),
		"Comma": key(window.KeyComma), "Period": key(window.KeyPeriod), "Slash": key(window.KeySlash),
		"Minus": key(window.KeyMinus), "Equal": key(window.KeyEqual),
		"MouseLeft": mouse(window.MouseLeft), "MouseRight": mouse(window.MouseRight), "MouseMiddle": mouse(window.MouseMiddle),
		"PadA": pad(window.ButtonA), "PadB": pad(window.ButtonB), "PadX": pad(window.ButtonX), "PadY": pad(window.ButtonY),
		"PadLeftBumper": pad(window.ButtonLeftBumper), "PadRightBumper": pad(window.ButtonRightBumper),
		"PadBack": pad(window.ButtonBack), "PadStart": pad(window.ButtonStart),
		"PadLeft": pad(window.ButtonDpadLeft), "PadRight": pad(window.ButtonDpadRight),
		"PadUp": pad(window.ButtonDpadUp), "PadDown": pad(window.ButtonDpadDown),
		"StickLeft": pad(window.StickLeft), "StickRight": pad(window.StickRight),
	} {
		if got := inputNames[name]; got != want {
			t.Errorf("%q resolves to %+v, want %+v", name, got, want)
		}
	}
	own := map[window.Key]bool{window.KeyEscape: true, window.KeyP: true, window.KeyPeriod: true,
		window.KeyF3: true, window.KeyF11: true, window.KeyF12: true}
	for _, n := range bindable {
		b := inputNames[n]
		if isEngine := b.kind == window.KindKey && own[b.key]; isEngine != engine.EngineKeys[n] {
			t.Errorf("%q: the engine's key %v, but EngineKeys says %v", n, isEngine, engine.EngineKeys[n])
		}
	}
}

func TestBindings(t *testing.T) {
	// A game's own binding replaces that action's defaults and leaves the
	// other actions' defaults alone.
	b := newBindings(map[uint8][]string{engine.ActionJump: {"X", "PadY"}, 5: {"MouseRight"}})
	for _, tc := range []struct {
		in   window.Input
		want simthread.Buttons
	}{
		{window.Input{Kind: window.KindKey, Key: window.KeyX}, engine.ButtonOf(engine.ActionJump)},
		{window.Input{Kind: window.KindKey, Key: window.KeySpace}, 0},
		{window.Input{Kind: window.KindGamepad, Button: window.ButtonY}, engine.ButtonOf(engine.ActionJump)},
		{window.Input{Kind: window.KindMouse, Mouse: window.MouseRight}, engine.ButtonOf(5)},
		{window.Input{Kind: window.KindKey, Key: window.KeyA}, engine.ButtonOf(engine.ActionLeft)},
		{window.Input{Kind: window.KindGamepad, Button: window.StickRight}, engine.ButtonOf(engine.ActionRight)},
	} {
		if got := b.of(tc.in); got != tc.want {
			t.Errorf("%+v: buttons %b, want %b", tc.in, got, tc.want)
		}
	}
}

func TestBindingClaimsDefaults(t *testing.T) {
	// Binding "A" to an action of the game's takes it from Left's
	// defaults; Left keeps its other keys.
	b := newBindings(map[uint8][]string{4: {"A"}})
	if got := b.of(window.Input{Kind: window.KindKey, Key: window.KeyA}); got != engine.ButtonOf(4) {
		t.Errorf("A: buttons %b, want only action 4", got)
	}
	if got := b.of(window.Input{Kind: window.KindKey, Key: window.KeyLeft}); got != engine.ButtonOf(engine.ActionLeft) {
		t.Errorf("Left arrow: buttons %b, want Left", got)
	}
}

// TestAddonKeys: the keys the add-ons set act on a key's press (F3 the
// HUD, F12 a screenshot), not on its repeat or release; a game that binds
// such a key gets it as its own button instead.
func TestAddonKeys(t *testing.T) {
	r, err := simthread.New(&inputSim{}, simthread.Config{Hz: 100, Clock: simthread.NewFakeClock(0)})
	if err != nil {
		t.Fatal(err)
	}
	for _, gameF3 := range []bool{false, true} {
		var game map[uint8][]string
		if gameF3 {
			game = map[uint8][]string{engine.ActionJump: {"F3"}}
		}
		a := &session{runner: r, in: inputState{keys: newBindings(game)}}
		hud := newHUDOverlay(Options{}, nil, nil, nil, nil, nil, nil, nil, nil, &a.in.keys)
		sh := newShots(t.TempDir(), &a.in.keys)
		queued := r.Queued()
		a.onEvent(window.Input{Kind: window.KindKey, Key: window.KeyF3, Down: true})
		a.onEvent(window.Input{Kind: window.KindKey, Key: window.KeyF3, Down: true, Repeat: true})
		a.onEvent(window.Input{Kind: window.KindKey, Key: window.KeyF3})
		a.onEvent(window.Input{Kind: window.KindKey, Key: window.KeyF12, Down: true})
		if hud.on.Load() == gameF3 {
			t.Errorf("game binds F3 %v: after one press the HUD is on %v", gameF3, hud.on.Load())
		}
		if !sh.pending.Load() {
			t.Errorf("game binds F3 %v: F12's press asked for no screenshot", gameF3)
		}
		if pushed, want := r.Queued()-queued, map[bool]int{false: 0, true: 3}[gameF3]; pushed != want {
			t.Errorf("game binds F3 %v: %d events reached the sim, want %d (the press, its repeat and the release, when bound)", gameF3, pushed, want)
		}
	}
}
