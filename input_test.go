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
