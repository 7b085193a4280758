package window

import (
	"math"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"

	tgl "github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/internal/mainthread"
	"github.com/tandem-engine/tandem/snapshot"
)

func TestOpenHidden(t *testing.T) {
	w := open(t, Config{Title: "test", Width: 320, Height: 240, Hidden: true})
	do(func() {
		// Open makes the context current; package gl loads it.
		if err := tgl.Init(); err != nil {
			t.Error(err)
			return
		}
		w.Poll()
		if fw, fh := w.FramebufferSize(); fw <= 0 || fh <= 0 {
			t.Errorf("FramebufferSize = %dx%d, want > 0", fw, fh)
		}
		if w.Minimized() {
			t.Error("Minimized on a fresh window")
		}
		if s := w.ContentScale(); s <= 0 {
			t.Errorf("ContentScale = %v, want > 0", s)
		}
		if version, _ := tgl.Driver(); !strings.HasPrefix(version, "4.") {
			t.Errorf("GL_VERSION %q, want 4.x", version)
		}
		w.SetVSync(true)
		if !w.VSync() {
			t.Error("VSync false after SetVSync(true)")
		}
		w.SetVSync(false)
		tgl.Clear(0, 0, 0, 1)
		w.Swap()
		if w.ShouldClose() {
			t.Error("ShouldClose on a fresh window")
		}
		w.SetShouldClose(true)
		if !w.ShouldClose() {
			t.Error("ShouldClose false after SetShouldClose(true)")
		}
		w.WaitEvents(time.Millisecond)
	})
}

func TestKeyEventsReachSink(t *testing.T) {
	w := open(t, Config{Title: "keys", Width: 64, Height: 64, Hidden: true})
	var got []Input
	var before, after int64
	offMain := 0
	do(func() {
		w.SetSink(func(e Input) {
			if !mainthread.OnMainThread() {
				offMain++
			}
			got = append(got, e)
		})
		before = snapshot.Now()
		// GLFW cannot be fed a real key press without an X input
		// extension; call the callback GLFW would call.
		w.onKey(w.win, glfw.KeyLeft, 0, glfw.Press, 0)
		w.onKey(w.win, glfw.KeyLeft, 0, glfw.Repeat, 0)
		w.onKey(w.win, glfw.KeyLeft, 0, glfw.Release, 0)
		after = snapshot.Now()
		w.Poll() // no real input under Xvfb: nothing more arrives
	})
	if offMain > 0 {
		t.Errorf("the sink ran %d times off the main thread", offMain)
	}
	want := []Input{
		{Kind: KindKey, Key: KeyLeft, Down: true},
		{Kind: KindKey, Key: KeyLeft, Down: true, Repeat: true},
		{Kind: KindKey, Key: KeyLeft},
	}
	if len(got) != len(want) {
		t.Fatalf("sink got %d events %+v, want %d", len(got), got, len(want))
	}
	for i, e := range got {
		if e.Time < before || e.Time > after || (i > 0 && e.Time < got[i-1].Time) {
			t.Errorf("event %d stamped %d, not within [%d, %d] in order", i, e.Time, before, after)
		}
		e.Time = 0
		if e != want[i] {
			t.Errorf("event %d = %+v, want %+v", i, e, want[i])
		}
	}
}

func TestGamepadEdges(t *testing.T) {
	var g gamepads
	var got []Input
	emit := func(e Input) { got = append(got, e) }
	pad := func(x float32, pressed ...glfw.GamepadButton) *glfw.GamepadState {
		var st glfw.GamepadState
		for _, b := range pressed {
			st.Buttons[b] = glfw.Press
		}
		st.Axes[glfw.AxisLeftX] = x
		return &st
	}
	steps := []struct {
		pads []*glfw.GamepadState
		want []Input // Time is the step's index
	}{
		{[]*glfw.GamepadState{pad(0)}, nil},
		{[]*glfw.GamepadState{pad(0, glfw.ButtonA)}, []Input{{Button: ButtonA, Down: true}}},
		{[]*glfw.GamepadState{pad(0, glfw.ButtonA)}, nil}, // held: no event
		// A second pad holding A keeps it down when the first lets go.
		{[]*glfw.GamepadState{pad(0), pad(0, glfw.ButtonA, glfw.ButtonStart)}, []Input{{Button: ButtonStart, Down: true}}},
		{[]*glfw.GamepadState{pad(0), pad(0)}, []Input{{Button: ButtonA}, {Button: ButtonStart}}},
		{[]*glfw.GamepadState{pad(0.34)}, nil}, // inside the dead zone
		{[]*glfw.GamepadState{pad(0.36)}, []Input{{Button: StickRight, Down: true}}},
		{[]*glfw.GamepadState{pad(0.3)}, nil}, // hysteresis: still down
		{[]*glfw.GamepadState{pad(0.2)}, []Input{{Button: StickRight}}},
		{[]*glfw.GamepadState{pad(-0.9, glfw.ButtonDpadLeft)}, []Input{{Button: ButtonDpadLeft, Down: true}, {Button: StickLeft, Down: true}}},
		{[]*glfw.GamepadState{pad(0.9)}, []Input{{Button: ButtonDpadLeft}, {Button: StickLeft}, {Button: StickRight, Down: true}}},
	}
	for i, s := range steps {
		got = got[:0]
		var down uint32
		for _, p := range s.pads {
			down |= buttons(p, g.held)
		}
		g.step(down, int64(i), emit)
		if len(got) != len(s.want) {
			t.Errorf("step %d: events %+v, want %+v", i, got, s.want)
			continue
		}
		for j, e := range got {
			w := s.want[j]
			w.Time, w.Kind = int64(i), KindGamepad
			if e != w {
				t.Errorf("step %d event %d = %+v, want %+v", i, j, e, w)
			}
		}
	}
}

func TestToggleFullscreen(t *testing.T) {
	w := open(t, Config{Title: "fullscreen", Width: 320, Height: 240})
	settle := func() {
		for range 20 {
			w.Poll()
			time.Sleep(5 * time.Millisecond)
		}
	}
	var fullW, fullH, backW, backH, modeW, modeH int
	var full, back, switched, switchedBack bool
	do(func() {
		mode := glfw.GetPrimaryMonitor().GetVideoMode()
		modeW, modeH = mode.Width, mode.Height
		switched = w.ToggleFullscreen()
		settle()
		full = w.Fullscreen()
		fullW, fullH = w.FramebufferSize()
		switchedBack = w.ToggleFullscreen()
		settle()
		back = w.Fullscreen()
		backW, backH = w.FramebufferSize()
	})
	if !switched || !switchedBack {
		t.Errorf("ToggleFullscreen reported %v, %v with a monitor; want true both ways", switched, switchedBack)
	}
	if !full || fullW != modeW || fullH != modeH {
		t.Errorf("fullscreen: %v at %dx%d, want true at the monitor's %dx%d", full, fullW, fullH, modeW, modeH)
	}
	if back || backW != 320 || backH != 240 {
		t.Errorf("back to windowed: fullscreen %v at %dx%d, want false at 320x240", back, backW, backH)
	}
}

func TestDisplayError(t *testing.T) {
	err := displayError("linux", "", "")
	if err == nil || err.Error() != "window: no display: set DISPLAY, or run under xvfb-run" {
		t.Errorf("displayError(linux, no DISPLAY) = %v", err)
	}
	if err := displayError("linux", ":0", ""); err != nil {
		t.Errorf("displayError(linux, :0) = %v, want nil", err)
	}
	if err := displayError("windows", "", ""); err != nil {
		t.Errorf("displayError(windows) = %v, want nil", err)
	}
}

// TestChild runs only in the subprocesses of the tests below: it calls Init
// and Open and prints the error, if any.
func TestChild(t *testing.T) {
	if os.Getenv("TANDEM_WINDOW_CHILD") != "1" {
		t.Skip("runs only as a subprocess")
	}
	do(func() {
		err := Init()
		if err == nil {
			var w *Window
			if w, err = Open(Config{Title: "child", Width: 64, Height: 64, Hidden: true}); err == nil {
				w.Destroy()
			}
			Terminate()
		}
		if err != nil {
			os.Stdout.WriteString("child error: " + err.Error() + "\n")
		}
	})
}

// child runs TestChild in a subprocess with env changed and returns its
// output.
func child(t *testing.T, env ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestChild$", "-test.v")
	cmd.Env = append(os.Environ(), "TANDEM_WINDOW_CHILD=1")
	for _, kv := range env {
		if name, ok := strings.CutSuffix(kv, "="); ok { // "NAME=": unset
			cmd.Env = without(cmd.Env, name)
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	return string(out)
}

func without(env []string, name string) []string {
	var kept []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			kept = append(kept, kv)
		}
	}
	return kept
}

func TestNoDisplay(t *testing.T) {
	const want = "window: no display: set DISPLAY, or run under xvfb-run"
	out := child(t, "DISPLAY=", "WAYLAND_DISPLAY=")
	if !strings.Contains(out, "child error: "+want) {
		t.Errorf("without DISPLAY, Init's error is not %q:\n%s", want, out)
	}
	// A DISPLAY no X server answers: GLFW fails inside Init.
	out = child(t, "DISPLAY=:4321", "WAYLAND_DISPLAY=")
	if !strings.Contains(out, "child error: "+want) {
		t.Errorf("with a dead DISPLAY, Init's error does not contain %q:\n%s", want, out)
	}
}

func TestNoOpenGL41(t *testing.T) {
	if os.Getenv("DISPLAY") == "" && os.Getenv("CI") != "true" {
		t.Skip("no display")
	}
	// Mesa then offers at most OpenGL 3.3: the 4.1 core context fails.
	out := child(t, "MESA_GL_VERSION_OVERRIDE=3.3")
	for _, want := range []string{"child error: window: cannot create an OpenGL 4.1 core context", "without version hints the driver gives OpenGL 3.3"} {
		if !strings.Contains(out, want) {
			t.Errorf("with OpenGL 3.3, Open's error lacks %q:\n%s", want, out)
		}
	}
	t.Logf("%s", out)
}

func TestPollAllocatesNothing(t *testing.T) {
	// Poll runs every frame: events, the gamepad scan and the pad reader
	// must not allocate (no pad is connected here, so the reader is also
	// called directly on an absent joystick).
	w := open(t, Config{Title: "poll", Width: 64, Height: 64, Hidden: true})
	var polls, reads float64
	var present bool
	do(func() {
		w.SetSink(func(Input) {})
		w.Poll()
		polls = testing.AllocsPerRun(100, w.Poll)
		reads = testing.AllocsPerRun(100, func() { _, present = w.pads.pad.read(glfw.JoystickLast) })
	})
	if polls != 0 || reads != 0 {
		t.Fatalf("Poll allocates %.1f, a pad read %.1f times", polls, reads)
	}
	if present {
		t.Fatal("an absent joystick read as a gamepad")
	}
}

func TestMouseEventsReachSink(t *testing.T) {
	// The mouse's buttons and the cursor, in framebuffer pixels (the same
	// as screen coordinates here, without HiDPI).
	w := open(t, Config{Title: "mouse", Width: 64, Height: 48, Hidden: true})
	var got []Input
	do(func() {
		w.SetSink(func(e Input) { got = append(got, e) })
		w.onCursor(w.win, 10.5, 20.25)
		w.onMouse(w.win, glfw.MouseButtonLeft, glfw.Press, 0)
		w.onMouse(w.win, glfw.MouseButtonLeft, glfw.Release, 0)
	})
	want := []Input{
		{Kind: KindPointer, X: 10.5, Y: 20.25},
		{Kind: KindMouse, Mouse: MouseLeft, Down: true},
		{Kind: KindMouse, Mouse: MouseLeft},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range got {
		if got[i].Time == 0 {
			t.Errorf("event %d not stamped", i)
		}
		got[i].Time = 0
		if got[i] != want[i] {
			t.Errorf("event %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestGamepadAxes(t *testing.T) {
	// The dead zone is taken out and the rest rescaled; an axis sends an
	// event when it moved by AxisStep or more, or came to rest.
	st := func(x float32) *glfw.GamepadState {
		var s glfw.GamepadState
		s.Axes[glfw.AxisLeftX] = x
		return &s
	}
	if got := deadZone(st(0.1))[AxisLeftX]; got != 0 {
		t.Errorf("0.1 inside the dead zone gives %v", got)
	}
	if got := deadZone(st(-1))[AxisLeftX]; got != -1 {
		t.Errorf("full left gives %v, want -1", got)
	}
	if got := deadZone(st(0.575))[AxisLeftX]; math.Abs(float64(got)-0.5) > 1e-6 {
		t.Errorf("0.575 gives %v, want 0.5", got)
	}
	var g gamepads
	var got []Input
	emit := func(e Input) { got = append(got, e) }
	for i, x := range []float32{0, 0.5, 0.505, 0.6, 0.6, 0} {
		var axes [NumAxes]float32
		axes[AxisLeftX] = x
		g.stepAxes(axes, int64(i), emit)
	}
	want := []Input{
		{Time: 1, Kind: KindAxis, Axis: AxisLeftX, Value: 0.5},
		{Time: 3, Kind: KindAxis, Axis: AxisLeftX, Value: 0.6},
		{Time: 5, Kind: KindAxis, Axis: AxisLeftX, Value: 0},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("event %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestWakeEndsWait(t *testing.T) {
	// A wait of a minute ends when another goroutine wakes it, and a wake
	// that comes before the wait ends the next one at once. After
	// Destroy, Wake does nothing.
	w := open(t, Config{Title: "wake", Width: 64, Height: 64, Hidden: true})
	waitFor := func() time.Duration {
		var took time.Duration
		do(func() {
			start := time.Now()
			w.WaitEvents(time.Minute)
			took = time.Since(start)
		})
		return took
	}
	do(func() { w.Poll() }) // the window's first events
	// Any X event ends a wait too (the window's own, late), so a wait that
	// ends before the wake was sent proves nothing and is waited again;
	// once it was sent, the wait must end well within its minute, however
	// loaded the machine.
	var sent atomic.Bool
	go func() {
		time.Sleep(50 * time.Millisecond)
		sent.Store(true)
		w.Wake()
	}()
	for early := 0; ; early++ {
		took := waitFor()
		if sent.Load() {
			if took > 30*time.Second {
				t.Errorf("a wait of a minute, woken, took %v", took)
			}
			break
		}
		if early == 100 {
			t.Fatal("100 waits ended before the wake was sent: something wakes every wait")
		}
	}
	w.Wake()
	if took := waitFor(); took > 30*time.Second {
		t.Errorf("a wait after a wake took %v, want it to end at once", took)
	}
	do(func() { w.Destroy() })
	w.Wake() // must not reach GLFW or a closed connection
}
