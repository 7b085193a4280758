package window

import (
	"math/bits"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/tandem-engine/tandem/snapshot"
)

// InputKind says which fields of an Input are meaningful.
type InputKind uint8

const (
	// KindKey is a keyboard key going down, repeating or up; Key is set.
	KindKey InputKind = iota + 1
	// KindGamepad is a gamepad button (or stick direction) going down or
	// up; Button is set.
	KindGamepad
	// KindMouse is a mouse button going down or up; Mouse is set.
	KindMouse
	// KindPointer is the cursor moving; X and Y are set.
	KindPointer
	// KindAxis is a gamepad axis moving; Axis and Value are set.
	KindAxis
)

// Input is one input edge from a device, as GLFW reports it: what the
// app stamps and turns into a simthread.Event for the sim.
type Input struct {
	// Time is snapshot.Now() when GLFW reported the event (for gamepads:
	// when Poll sampled them).
	Time   int64
	Kind   InputKind
	Key    Key           // KindKey
	Button GamepadButton // KindGamepad
	Mouse  MouseButton   // KindMouse
	// X, Y are the cursor's position in framebuffer pixels from the
	// top-left corner (KindPointer).
	X, Y float32
	// Axis and Value are an analog axis and its position, -1 to 1 (0 to 1
	// for the triggers), with the dead zone taken out (KindAxis).
	Axis  GamepadAxis
	Value float32
	// Down is true for a press (and a key repeat), false for a release.
	Down bool
	// Repeat reports whether a KindKey press is the keyboard's auto-repeat
	// of a key already down.
	Repeat bool
}

// SetSink sets the function that receives input events; nil drops them.
// The sink is called on the main thread from inside Poll and WaitEvents, in
// the order the events happened; it must not block (push into a lock-free
// queue and return).
//
// Main thread only.
func (w *Window) SetSink(sink func(Input)) { w.sink = sink }

func (w *Window) emit(e Input) {
	w.emitted++
	if w.sink != nil {
		w.sink(e)
	}
}

// onKey is the GLFW key callback.
func (w *Window) onKey(_ *glfw.Window, key glfw.Key, _ int, action glfw.Action, _ glfw.ModifierKey) {
	w.emit(Input{
		Time:   snapshot.Now(),
		Kind:   KindKey,
		Key:    Key(key),
		Down:   action != glfw.Release,
		Repeat: action == glfw.Repeat,
	})
}

// onMouse is the GLFW mouse button callback.
func (w *Window) onMouse(_ *glfw.Window, b glfw.MouseButton, action glfw.Action, _ glfw.ModifierKey) {
	w.emit(Input{Time: snapshot.Now(), Kind: KindMouse, Mouse: MouseButton(b), Down: action != glfw.Release})
}

// onCursor is the GLFW cursor position callback: GLFW gives screen
// coordinates, which on a HiDPI display are fewer than the framebuffer's
// pixels.
func (w *Window) onCursor(_ *glfw.Window, x, y float64) {
	sx, sy := 1.0, 1.0
	// The window's size as its callback keeps it: asking GLFW is a
	// round trip to the X server for every move.
	if ww, wh := w.winW, w.winH; ww > 0 && wh > 0 {
		sx, sy = float64(w.fbW)/float64(ww), float64(w.fbH)/float64(wh)
	}
	w.emit(Input{Time: snapshot.Now(), Kind: KindPointer, X: float32(x * sx), Y: float32(y * sy)})
}

// MouseButton is a mouse button (GLFW's numbering).
type MouseButton int

// The mouse buttons.
const (
	MouseLeft   = MouseButton(glfw.MouseButtonLeft)
	MouseRight  = MouseButton(glfw.MouseButtonRight)
	MouseMiddle = MouseButton(glfw.MouseButtonMiddle)
)

// GamepadAxis is an analog axis of a gamepad in GLFW's standard mapping.
type GamepadAxis int

// The axes, with GLFW's numbering.
const (
	AxisLeftX        = GamepadAxis(glfw.AxisLeftX)
	AxisLeftY        = GamepadAxis(glfw.AxisLeftY)
	AxisRightX       = GamepadAxis(glfw.AxisRightX)
	AxisRightY       = GamepadAxis(glfw.AxisRightY)
	AxisLeftTrigger  = GamepadAxis(glfw.AxisLeftTrigger)
	AxisRightTrigger = GamepadAxis(glfw.AxisRightTrigger)
	// NumAxes is the number of axes.
	NumAxes = int(glfw.AxisLast) + 1
)

// Analog axes report no motion inside AxisDeadZone of rest, and an event
// only when an axis moved by AxisStep or more since the last one (or
// came to rest): a stick held still sends nothing.
const (
	AxisDeadZone = 0.15
	AxisStep     = 1.0 / 64
)

// Key is a keyboard key, by its position on a US layout (GLFW's key codes).
type Key int

// The keys tandem uses, and their neighbours.
const (
	KeyUnknown      = Key(glfw.KeyUnknown)
	KeySpace        = Key(glfw.KeySpace)
	KeyApostrophe   = Key(glfw.KeyApostrophe)
	KeyComma        = Key(glfw.KeyComma)
	KeyMinus        = Key(glfw.KeyMinus)
	KeyPeriod       = Key(glfw.KeyPeriod)
	KeySlash        = Key(glfw.KeySlash)
	Key0            = Key(glfw.Key0)
	Key1            = Key(glfw.Key1)
	Key2            = Key(glfw.Key2)
	Key3            = Key(glfw.Key3)
	Key4            = Key(glfw.Key4)
	Key5            = Key(glfw.Key5)
	Key6            = Key(glfw.Key6)
	Key7            = Key(glfw.Key7)
	Key8            = Key(glfw.Key8)
	Key9            = Key(glfw.Key9)
	KeySemicolon    = Key(glfw.KeySemicolon)
	KeyEqual        = Key(glfw.KeyEqual)
	KeyA            = Key(glfw.KeyA)
	KeyB            = Key(glfw.KeyB)
	KeyC            = Key(glfw.KeyC)
	KeyD            = Key(glfw.KeyD)
	KeyE            = Key(glfw.KeyE)
	KeyF            = Key(glfw.KeyF)
	KeyG            = Key(glfw.KeyG)
	KeyH            = Key(glfw.KeyH)
	KeyI            = Key(glfw.KeyI)
	KeyJ            = Key(glfw.KeyJ)
	KeyK            = Key(glfw.KeyK)
	KeyL            = Key(glfw.KeyL)
	KeyM            = Key(glfw.KeyM)
	KeyN            = Key(glfw.KeyN)
	KeyO            = Key(glfw.KeyO)
	KeyP            = Key(glfw.KeyP)
	KeyQ            = Key(glfw.KeyQ)
	KeyR            = Key(glfw.KeyR)
	KeyS            = Key(glfw.KeyS)
	KeyT            = Key(glfw.KeyT)
	KeyU            = Key(glfw.KeyU)
	KeyV            = Key(glfw.KeyV)
	KeyW            = Key(glfw.KeyW)
	KeyX            = Key(glfw.KeyX)
	KeyY            = Key(glfw.KeyY)
	KeyZ            = Key(glfw.KeyZ)
	KeyLeftBracket  = Key(glfw.KeyLeftBracket)
	KeyBackslash    = Key(glfw.KeyBackslash)
	KeyRightBracket = Key(glfw.KeyRightBracket)
	KeyGraveAccent  = Key(glfw.KeyGraveAccent)
	KeyEscape       = Key(glfw.KeyEscape)
	KeyEnter        = Key(glfw.KeyEnter)
	KeyTab          = Key(glfw.KeyTab)
	KeyBackspace    = Key(glfw.KeyBackspace)
	KeyInsert       = Key(glfw.KeyInsert)
	KeyDelete       = Key(glfw.KeyDelete)
	KeyRight        = Key(glfw.KeyRight)
	KeyLeft         = Key(glfw.KeyLeft)
	KeyDown         = Key(glfw.KeyDown)
	KeyUp           = Key(glfw.KeyUp)
	KeyPageUp       = Key(glfw.KeyPageUp)
	KeyPageDown     = Key(glfw.KeyPageDown)
	KeyHome         = Key(glfw.KeyHome)
	KeyEnd          = Key(glfw.KeyEnd)
	KeyPause        = Key(glfw.KeyPause)
	KeyF1           = Key(glfw.KeyF1)
	KeyF2           = Key(glfw.KeyF2)
	KeyF3           = Key(glfw.KeyF3)
	KeyF4           = Key(glfw.KeyF4)
	KeyF5           = Key(glfw.KeyF5)
	KeyF6           = Key(glfw.KeyF6)
	KeyF7           = Key(glfw.KeyF7)
	KeyF8           = Key(glfw.KeyF8)
	KeyF9           = Key(glfw.KeyF9)
	KeyF10          = Key(glfw.KeyF10)
	KeyF11          = Key(glfw.KeyF11)
	KeyF12          = Key(glfw.KeyF12)
	KeyLeftShift    = Key(glfw.KeyLeftShift)
	KeyLeftControl  = Key(glfw.KeyLeftControl)
	KeyLeftAlt      = Key(glfw.KeyLeftAlt)
	KeyRightShift   = Key(glfw.KeyRightShift)
	KeyRightControl = Key(glfw.KeyRightControl)
	KeyRightAlt     = Key(glfw.KeyRightAlt)
)

// GamepadButton is a button of a gamepad in GLFW's standard (Xbox-like)
// mapping, or a direction of the left stick treated as a button.
type GamepadButton int

// The buttons, with GLFW's numbering, then the stick pseudo-buttons.
const (
	ButtonA           = GamepadButton(glfw.ButtonA)
	ButtonB           = GamepadButton(glfw.ButtonB)
	ButtonX           = GamepadButton(glfw.ButtonX)
	ButtonY           = GamepadButton(glfw.ButtonY)
	ButtonLeftBumper  = GamepadButton(glfw.ButtonLeftBumper)
	ButtonRightBumper = GamepadButton(glfw.ButtonRightBumper)
	ButtonBack        = GamepadButton(glfw.ButtonBack)
	ButtonStart       = GamepadButton(glfw.ButtonStart)
	ButtonGuide       = GamepadButton(glfw.ButtonGuide)
	ButtonLeftThumb   = GamepadButton(glfw.ButtonLeftThumb)
	ButtonRightThumb  = GamepadButton(glfw.ButtonRightThumb)
	ButtonDpadUp      = GamepadButton(glfw.ButtonDpadUp)
	ButtonDpadRight   = GamepadButton(glfw.ButtonDpadRight)
	ButtonDpadDown    = GamepadButton(glfw.ButtonDpadDown)
	ButtonDpadLeft    = GamepadButton(glfw.ButtonDpadLeft)

	// StickLeft and StickRight are the left stick pushed left or right
	// past the dead zone (StickPress); each is released when the stick
	// comes back within StickRelease.
	StickLeft  = GamepadButton(glfw.ButtonLast + 1)
	StickRight = GamepadButton(glfw.ButtonLast + 2)
)

// The left stick's X axis thresholds. The gap between them (hysteresis)
// keeps a stick resting near the edge of the dead zone from chattering.
const (
	StickPress   = 0.35
	StickRelease = 0.25
)

// gamepads turns the merged state of every connected gamepad into edge
// events: a button is down while any pad holds it.
type gamepads struct {
	held uint32 // bit b: GamepadButton b is down
	pad  padReader
	// axes are the axis values last sent; each axis is the first
	// connected pad's.
	axes [NumAxes]float32
	// any: a gamepad was connected at the last poll.
	any bool
}

// Gamepads reports whether a gamepad was connected when the events were
// last processed. GLFW does not wake WaitEvents for a gamepad: a loop that
// waits polls while one is.
//
// Main thread only.
func (w *Window) Gamepads() bool { return w.pads.any }

// pollGamepads samples every joystick GLFW maps as a gamepad, without
// allocating (see padReader).
func (w *Window) pollGamepads() {
	var down uint32
	var axes [NumAxes]float32
	first, any := true, false
	for j := glfw.Joystick1; j <= glfw.JoystickLast; j++ {
		if !j.IsGamepad() {
			continue
		}
		any = true
		if st, ok := w.pads.pad.read(j); ok {
			down |= buttons(st, w.pads.held)
			if first {
				axes, first = deadZone(st), false
			}
		}
	}
	w.pads.any = any
	now := snapshot.Now()
	w.pads.step(down, now, w.emit)
	w.pads.stepAxes(axes, now, w.emit)
}

// deadZone returns a pad's axes with the dead zone taken out: 0 inside
// it, and the rest of the travel rescaled to reach 1 at the end.
func deadZone(st *glfw.GamepadState) [NumAxes]float32 {
	var out [NumAxes]float32
	for i, v := range st.Axes {
		mag := min(max(v, -v), 1)
		if mag <= AxisDeadZone {
			continue
		}
		r := (mag - AxisDeadZone) / (1 - AxisDeadZone)
		if v < 0 {
			r = -r
		}
		out[i] = r
	}
	return out
}

// stepAxes emits an event for every axis that moved by AxisStep or more
// since the last one sent, or came to rest, in axis order.
func (g *gamepads) stepAxes(axes [NumAxes]float32, now int64, emit func(Input)) {
	for i, v := range axes {
		last := g.axes[i]
		if d := v - last; d >= AxisStep || d <= -AxisStep || (v == 0 && last != 0) {
			emit(Input{Time: now, Kind: KindAxis, Axis: GamepadAxis(i), Value: v})
			g.axes[i] = v
		}
	}
}

// buttons returns the button bits of one pad's state; held, the buttons
// down after the previous sample, decides which stick threshold applies.
func buttons(st *glfw.GamepadState, held uint32) uint32 {
	var down uint32
	for b, a := range st.Buttons {
		if a == glfw.Press {
			down |= 1 << b
		}
	}
	x := st.Axes[glfw.AxisLeftX]
	if stick(-x, held&(1<<StickLeft) != 0) {
		down |= 1 << StickLeft
	}
	if stick(x, held&(1<<StickRight) != 0) {
		down |= 1 << StickRight
	}
	return down
}

// stick reports whether a stick direction pushed to v (positive: towards
// it) is down, given whether it was.
func stick(v float32, was bool) bool {
	if was {
		return v > StickRelease
	}
	return v > StickPress
}

// step emits an event for every button whose state differs from the last
// step, in button order, all stamped now.
func (g *gamepads) step(down uint32, now int64, emit func(Input)) {
	for changed := down ^ g.held; changed != 0; changed &= changed - 1 {
		b := bits.TrailingZeros32(changed)
		emit(Input{Time: now, Kind: KindGamepad, Button: GamepadButton(b), Down: down&(1<<b) != 0})
	}
	g.held = down
}
