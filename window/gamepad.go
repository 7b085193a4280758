package window

/*
// GLFW's gamepad state, declared with the layout of glfw3.h's
// GLFWgamepadstate so that it can be read into memory the Window owns.
// The function is GLFW's own, linked from go-gl/glfw's copy of GLFW.
typedef struct { unsigned char buttons[15]; float axes[6]; } tandemGamepadState;
int glfwGetGamepadState(int jid, tandemGamepadState* state);
*/
import "C"

import "github.com/go-gl/glfw/v3.3/glfw"

// padReader reads gamepad states without allocating. go-gl/glfw's
// Joystick.GetGamepadState returns a new state on every call (a few hundred
// bytes per connected pad per frame); this reads into a buffer that lives
// as long as the Window.
type padReader struct {
	c  C.tandemGamepadState
	st glfw.GamepadState
}

// read samples joystick j and reports whether it is a gamepad with a
// state. The result is valid until the next read.
//
// Main thread only.
func (p *padReader) read(j glfw.Joystick) (*glfw.GamepadState, bool) {
	if C.glfwGetGamepadState(C.int(j), &p.c) == 0 {
		return nil, false
	}
	for i := range p.st.Buttons {
		p.st.Buttons[i] = glfw.Action(p.c.buttons[i])
	}
	for i := range p.st.Axes {
		p.st.Axes[i] = float32(p.c.axes[i])
	}
	return &p.st, true
}
