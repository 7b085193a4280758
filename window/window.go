package window

import (
	"errors"
	"fmt"
	"log"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"
)

// NoDisplay is the text of the error Init returns when there is no display
// to open a window on.
const NoDisplay = "no display: set DISPLAY, or run under xvfb-run"

// ErrNoDisplay is wrapped by Init's error when there is no display.
var ErrNoDisplay = errors.New(NoDisplay)

// Init starts GLFW. Without a display (DISPLAY unset, or no X server
// answering it) it returns an error whose text contains [NoDisplay].
//
// Main thread only. Pair it with Terminate.
func Init() error {
	if err := displayError(runtime.GOOS, os.Getenv("DISPLAY"), os.Getenv("WAYLAND_DISPLAY")); err != nil {
		return err
	}
	// An X server under load may refuse a connection for a moment (a
	// full queue of pending connections is one way): make test's
	// in-process runs, beside other packages' windows on xvfb-run's
	// display, have failed to open it and passed on the next try
	// (docs/results/2026-11-26-comment-logs.md). GLFW says only "Failed
	// to open display", so the cause was not seen; trying again costs
	// nothing when it works, and 0.3 s when the display is really
	// missing. go-gl/glfw logs GLFW's
	// platform error through the log package (with a timestamp) and
	// returns nil; the log is taken aside while Init tries, and the error
	// says the last message once.
	glfwLog := &lastLog{}
	defer log.SetOutput(log.Writer())
	log.SetOutput(glfwLog)
	for _, wait := range []time.Duration{0, 100 * time.Millisecond, 200 * time.Millisecond} {
		time.Sleep(wait)
		if err := glfw.Init(); err != nil {
			return fmt.Errorf("window: glfw init: %w", err)
		}
		if initialized() {
			watchDisplay()
			return nil
		}
	}
	return &DisplayError{Display: os.Getenv("DISPLAY"), GLFW: glfwLog.last()}
}

// DisplayError is Init's error when GLFW could not open the display named
// by DISPLAY; it wraps ErrNoDisplay.
type DisplayError struct {
	Display string // $DISPLAY
	GLFW    string // GLFW's message, e.g. "X11: Failed to open display :99"
}

func (e *DisplayError) Error() string {
	return fmt.Sprintf("window: %s (cannot open DISPLAY=%q: %s)", NoDisplay, e.Display, e.GLFW)
}

func (e *DisplayError) Unwrap() error { return ErrNoDisplay }

// lastLog keeps the last line logged through it, without the log's
// prefix and timestamp.
type lastLog struct {
	mu   sync.Mutex
	line string
}

func (l *lastLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := strings.TrimSpace(string(p))
	// The standard logger's default prefix: "2026/11/25 19:50:08 ".
	if len(s) > 20 && s[4] == '/' && s[7] == '/' && s[13] == ':' {
		s = s[20:]
	}
	l.line = strings.TrimPrefix(s, "PlatformError: ")
	return len(p), nil
}

func (l *lastLog) last() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.line == "" {
		return "GLFW said nothing"
	}
	return l.line
}

// displayError returns the no-display error when an X11 or Wayland system
// has neither display variable set; elsewhere (Windows, macOS) nil.
func displayError(goos, display, waylandDisplay string) error {
	switch goos {
	case "windows", "darwin", "ios", "android", "js", "wasip1":
		return nil
	}
	if display == "" && waylandDisplay == "" {
		return fmt.Errorf("window: %w", ErrNoDisplay)
	}
	return nil
}

// initialized reports whether GLFW is initialized: go-gl/glfw panics with
// GLFW_NOT_INITIALIZED otherwise.
func initialized() (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	glfw.GetTime()
	return true
}

// Terminate destroys any remaining window and stops GLFW. After the
// display went away ([DisplayLost]) it does nothing: a broken connection
// cannot be talked to, and a call that waits on it waits forever.
//
// Main thread only.
func Terminate() {
	if !DisplayLost() {
		glfw.Terminate()
	}
}

// Config describes the window to open.
type Config struct {
	Title         string
	Width, Height int  // the windowed size in screen coordinates
	VSync         bool // wait for the display's refresh on Swap
	Fullscreen    bool // start fullscreen on the primary monitor
	Hidden        bool // do not show the window (tests, headless runs)
}

// Window is a resizable window with a current OpenGL 4.1 core context.
type Window struct {
	win        *glfw.Window
	fbW, fbH   int  // framebuffer size in pixels, kept by a callback
	winW, winH int  // window size in screen coordinates, kept by a callback
	iconified  bool // kept by a callback: asking GLFW is a round trip to the X server
	scale      float32
	vsync      bool
	windowed   [4]int // x, y, w, h to restore when leaving fullscreen
	sink       func(Input)
	pads       gamepads
	wake       waker
	emitted    uint64 // inputs sent to sink, for WaitEvents' handoff
}

// Open creates the window with an OpenGL 4.1 core, forward-compatible
// context and makes the context current on the calling thread; loading the
// GL functions is the caller's (package gl's Init). When the driver cannot
// make such a context, the error wraps [ErrNoContext] and gives GLFW's
// reason and the version the driver does offer, if one can be made.
//
// Main thread only, after Init.
func Open(cfg Config) (*Window, error) {
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, fmt.Errorf("window: open: size %dx%d is not positive", cfg.Width, cfg.Height)
	}
	glfw.DefaultWindowHints()
	glfw.WindowHint(glfw.ContextVersionMajor, 4)
	glfw.WindowHint(glfw.ContextVersionMinor, 1)
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
	glfw.WindowHint(glfw.Resizable, glfw.True)
	glfw.WindowHint(glfw.Visible, boolHint(!cfg.Hidden))

	w := &Window{vsync: cfg.VSync}
	var mon *glfw.Monitor
	width, height := cfg.Width, cfg.Height
	if cfg.Fullscreen {
		mon = glfw.GetPrimaryMonitor()
	}
	var mode *glfw.VidMode
	if mon != nil {
		mode = mon.GetVideoMode()
	}
	// With no monitor (a headless server, a compositor that reports none)
	// the window opens windowed.
	if mode != nil {
		// Leaving fullscreen restores a window of the configured size,
		// centred.
		w.windowed = [4]int{(mode.Width - width) / 2, (mode.Height - height) / 2, width, height}
		width, height = mode.Width, mode.Height
		glfw.WindowHint(glfw.RefreshRate, mode.RefreshRate)
	}
	win, err := glfw.CreateWindow(width, height, cfg.Title, mon, nil)
	if err != nil {
		return nil, contextError(err)
	}
	win.MakeContextCurrent()
	w.win = win
	w.fbW, w.fbH = win.GetFramebufferSize()
	w.winW, w.winH = win.GetSize()
	win.SetSizeCallback(func(_ *glfw.Window, width, height int) { w.winW, w.winH = width, height })
	w.scale, _ = win.GetContentScale()
	w.iconified = win.GetAttrib(glfw.Iconified) == glfw.True
	win.SetIconifyCallback(func(_ *glfw.Window, iconified bool) { w.iconified = iconified })
	win.SetFramebufferSizeCallback(func(_ *glfw.Window, width, height int) { w.fbW, w.fbH = width, height })
	win.SetContentScaleCallback(func(_ *glfw.Window, x, _ float32) { w.scale = x })
	win.SetKeyCallback(w.onKey)
	win.SetMouseButtonCallback(w.onMouse)
	win.SetCursorPosCallback(w.onCursor)
	w.SetVSync(cfg.VSync)
	w.wake.open(openInputWatch(win))
	return w, nil
}

// ErrNoContext is wrapped by Open's error when the driver cannot make an
// OpenGL 4.1 core context: a machine problem, which the caller explains
// with its fix.
var ErrNoContext = errors.New("cannot create an OpenGL 4.1 core context")

// contextError explains a failed 4.1 core context: GLFW's error, and the
// version a context made without version hints has, if one can be made.
func contextError(err error) error {
	offered := ""
	glfw.DefaultWindowHints()
	glfw.WindowHint(glfw.Visible, glfw.False)
	if probe, perr := glfw.CreateWindow(16, 16, "probe", nil, nil); perr == nil {
		offered = fmt.Sprintf("; without version hints the driver gives OpenGL %d.%d",
			probe.GetAttrib(glfw.ContextVersionMajor), probe.GetAttrib(glfw.ContextVersionMinor))
		probe.Destroy()
	}
	return fmt.Errorf("window: %w: %v%s", ErrNoContext, err, offered)
}

func boolHint(b bool) int {
	if b {
		return glfw.True
	}
	return glfw.False
}

// Poll processes pending window events and samples the gamepads, calling
// the sink for each input event, then returns without waiting. It
// allocates nothing without a gamepad, and a few hundred bytes per
// connected gamepad (go-gl/glfw's GetGamepadState returns a new value).
//
// Main thread only.
func (w *Window) Poll() {
	glfw.PollEvents()
	w.pollGamepads()
}

// WaitEvents sleeps until input arrives, Wake is called or timeout passes
// (at once when it is not positive), then processes events like Poll. Use
// it instead of drawing while the window is minimised
// ([Window.Minimized]), so that the loop costs nothing, and on a main
// thread that only takes input. Gamepads are sampled when it returns
// (GLFW does not wake on them).
//
// On X11 it waits on a connection of its own (the window's keys and
// moves, XInput2's raw button events, the window's changes), not on
// GLFW's, which also carries the replies to
// the GL calls of a context current on another thread. The window's other
// events (a close from the window manager, an expose) are processed when
// it returns, so a caller that waits long should wait in slices.
//
// Main thread only.
func (w *Window) WaitEvents(timeout time.Duration) {
	// A display that went away is not read again here: in the threaded
	// loop the render thread may be in a swap on GLFW's connection, and
	// two threads on a broken Xlib connection crash it.
	if DisplayLost() {
		return
	}
	switch watch := w.wake.watch; {
	case timeout <= 0:
		glfw.PollEvents()
	case watch == nil:
		glfw.WaitEventsTimeout(timeout.Seconds())
	case watch.wait(timeout) && !DisplayLost():
		// Input came: GLFW's copy is on its way, if it is this window's.
		// Read GLFW's connection until it is (the server writes the two
		// copies to two sockets, and GLFW's can come a few ms later while
		// the render thread's GL calls hold the connection), or for
		// handoff if it was a click on another window.
		before, until := w.emitted, time.Now().Add(handoff)
		glfw.PollEvents()
		for w.emitted == before && time.Now().Before(until) && !DisplayLost() {
			watch.handoff(until)
			glfw.PollEvents()
		}
	case DisplayLost():
		return
	default:
		glfw.PollEvents()
	}
	w.pollGamepads()
}

// ShouldClose reports whether the user asked to close the window (or
// SetShouldClose(true) was called).
//
// Main thread only.
func (w *Window) ShouldClose() bool { return w.win.ShouldClose() }

// SetShouldClose sets the flag ShouldClose reports.
//
// Main thread only.
func (w *Window) SetShouldClose(v bool) { w.win.SetShouldClose(v) }

// SetTitle sets the window's title.
//
// Main thread only.
func (w *Window) SetTitle(title string) { w.win.SetTitle(title) }

// Swap shows the frame drawn into the back buffer, waiting for the display
// refresh when vsync is on.
//
// The thread the window's context is current on (the main thread unless
// the context was moved with [Window.MakeCurrent]).
func (w *Window) Swap() { w.win.SwapBuffers() }

// FramebufferSize returns the size of the framebuffer in pixels, which
// differs from the window's size in screen coordinates on HiDPI screens. It
// is updated by the events Poll processes and is 0x0 while the window is
// minimised: draw nothing then.
//
// Main thread only.
func (w *Window) FramebufferSize() (width, height int) { return w.fbW, w.fbH }

// Minimized reports whether the window is iconified or has an empty
// framebuffer, in which case the loop should WaitEvents instead of drawing.
//
// Main thread only.
func (w *Window) Minimized() bool {
	return w.fbW <= 0 || w.fbH <= 0 || w.iconified
}

// ContentScale returns the ratio of the monitor's DPI to the platform's
// default (1 on a standard screen, 2 on most HiDPI ones), for sizing text
// and the HUD.
//
// Main thread only.
func (w *Window) ContentScale() float32 { return w.scale }

// Fullscreen reports whether the window is fullscreen on a monitor.
//
// Main thread only.
func (w *Window) Fullscreen() bool { return w.win.GetMonitor() != nil }

// ToggleFullscreen switches between windowed and fullscreen on the monitor
// the window is on, at the monitor's current video mode. Going back
// restores the window's previous position and size. It reports whether it
// switched: with no monitor to go fullscreen on, it leaves the window as it
// is. Binding a key to it is the app's business.
//
// Main thread only.
func (w *Window) ToggleFullscreen() bool {
	if w.Fullscreen() {
		r := w.windowed
		w.win.SetMonitor(nil, r[0], r[1], r[2], r[3], 0)
	} else {
		mon := w.monitor()
		if mon == nil {
			return false
		}
		mode := mon.GetVideoMode()
		if mode == nil {
			return false
		}
		x, y := w.win.GetPos()
		width, height := w.win.GetSize()
		w.windowed = [4]int{x, y, width, height}
		w.win.SetMonitor(mon, 0, 0, mode.Width, mode.Height, mode.RefreshRate)
	}
	// Some drivers reset the swap interval when the mode changes.
	w.SetVSync(w.vsync)
	return true
}

// RefreshRate returns the refresh rate, in Hz, of the monitor holding the
// window's centre (or the primary one), or 0 when it is not known. It asks
// GLFW each time (and allocates): call it when the window changes
// monitors or modes, not every frame.
//
// Main thread only.
func (w *Window) RefreshRate() int {
	mon := w.monitor()
	if mon == nil {
		return 0
	}
	mode := mon.GetVideoMode()
	if mode == nil {
		return 0
	}
	return mode.RefreshRate
}

// monitor returns the monitor holding the window's centre, or the primary
// one.
func (w *Window) monitor() *glfw.Monitor {
	x, y := w.win.GetPos()
	width, height := w.win.GetSize()
	cx, cy := x+width/2, y+height/2
	for _, m := range glfw.GetMonitors() {
		mx, my := m.GetPos()
		mode := m.GetVideoMode()
		if mode != nil && cx >= mx && cx < mx+mode.Width && cy >= my && cy < my+mode.Height {
			return m
		}
	}
	return glfw.GetPrimaryMonitor()
}

// SetVSync turns waiting for the display refresh on Swap on or off. The
// window's context must be current (it is, on the main thread, unless the
// caller changed that).
//
// Main thread only.
func (w *Window) SetVSync(on bool) {
	w.vsync = on
	if on {
		glfw.SwapInterval(1)
	} else {
		glfw.SwapInterval(0)
	}
}

// VSync reports whether vsync was asked for. (Drivers may ignore the
// request; Xvfb has no refresh to wait for.)
//
// Main thread only.
func (w *Window) VSync() bool { return w.vsync }

// MakeCurrent makes the window's OpenGL context current on the calling
// thread, which must be locked to its OS thread (runtime.LockOSThread):
// from then on that thread, and only it, may call OpenGL and Swap. A
// context is current on one thread at a time: release it first where it
// is current ([Window.Release]).
//
// Any thread.
func (w *Window) MakeCurrent() { w.win.MakeContextCurrent() }

// Release makes no context current on the calling thread, so that
// another thread can make the window's current.
//
// The thread the context is current on.
func (w *Window) Release() { glfw.DetachCurrentContext() }

// Destroy closes the window and its context. Delete the GL objects made in
// the context first. The Window must not be used afterwards. After the
// display went away it only lets go of them (see Terminate).
//
// Main thread only.
func (w *Window) Destroy() {
	w.wake.close()
	if w.win != nil && !DisplayLost() {
		w.win.Destroy()
	}
	w.win = nil
}
