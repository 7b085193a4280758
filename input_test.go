//go:build cgo

package tandem

import (
	"testing"

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
	a := &app{runner: r, keys: newBindings(nil)}
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
	want := simthread.TickInput{Down: Jump.bit(), Pressed: Jump.bit(), PointerX: 7, PointerY: 8, HasPointer: true}
	want.Axes[window.AxisLeftX] = -0.5
	if in != want {
		t.Fatalf("tick saw %+v, want %+v", in, want)
	}
	// Once a frame is on screen, the cursor is where it points in the
	// world: that frame's camera centre, offset by the cursor's distance
	// from the framebuffer's centre over the zoom.
	a.shown, a.shownW, a.shownH = snapshot.Camera{X: 100, Y: 50, Zoom: 2}, 200, 100
	a.onEvent(window.Input{Time: 20_000_000, Kind: window.KindPointer, X: 7, Y: 8})
	a.pushPointer()
	r.RunDue(40_000_000)
	in = sim.seen[len(sim.seen)-1]
	if in.PointerX != 53.5 || in.PointerY != 29 {
		t.Fatalf("the cursor at (7, 8) of a 200x100 framebuffer showing (100, 50) at 2x reached the sim at (%v, %v), want (53.5, 29)", in.PointerX, in.PointerY)
	}
}

func TestBindNames(t *testing.T) {
	// Every name Setup.Bind takes (bind.go, no cgo) resolves to the input
	// it names (input.go), and the engine's own keys are the ones the app
	// acts on.
	if len(inputNames) != len(bindable) {
		t.Fatalf("%d names resolve, %d are bindable", len(inputNames), len(bindable))
	}
	for n := range bindable {
		if _, ok := inputNames[n]; !ok {
			t.Errorf("%q is bindable but resolves to nothing", n)
		}
	}
	key := func(k window.Key) binding { return binding{kind: window.KindKey, key: k} }
	for name, want := range map[string]binding{
		"A": key(window.KeyA), "Z": key(window.KeyZ), "0": key(window.Key0), "9": key(window.Key9),
		"F1": key(window.KeyF1), "F12": key(window.KeyF12), "Space": key(window.KeySpace),
		"Equal": key(window.KeyEqual), "Escape": key(window.KeyEscape), "Period": key(window.KeyPeriod),
		"P":           key(window.KeyP),
		"MouseMiddle": {kind: window.KindMouse, mouse: window.MouseMiddle},
		"PadA":        {kind: window.KindGamepad, button: window.ButtonA},
		"StickRight":  {kind: window.KindGamepad, button: window.StickRight},
	} {
		if got := inputNames[name]; got != want {
			t.Errorf("%q resolves to %+v, want %+v", name, got, want)
		}
	}
	engine := map[window.Key]bool{window.KeyEscape: true, window.KeyP: true, window.KeyPeriod: true,
		window.KeyF3: true, window.KeyF11: true, window.KeyF12: true}
	for n := range bindable {
		b := inputNames[n]
		if isEngine := b.kind == window.KindKey && engine[b.key]; isEngine != engineInputs[n] {
			t.Errorf("%q: the engine's key %v, but engineInputs says %v", n, isEngine, engineInputs[n])
		}
	}
}
