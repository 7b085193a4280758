package gltest

import (
	"fmt"
	"os"
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/tandem-engine/tandem/internal/mainthread"
)

var (
	glfwErr error // why GLFW could not start; set on the main thread
	glfwUp  bool
)

// Main runs m's tests and serves Do on the main thread, then terminates
// GLFW if a test started it and exits with the tests' status. Call it from
// TestMain, which runs on the main thread.
func Main(m *testing.M) {
	code := mainthread.Run(m.Run)
	if glfwUp {
		glfw.Terminate()
	}
	os.Exit(code)
}

// Do runs f on the main thread and waits for it; see [mainthread.Do].
func Do(f func()) { mainthread.Do(f) }

// OnMainThread reports whether the caller runs on the main thread; for
// tests of the thread rule itself.
func OnMainThread() bool { return mainthread.OnMainThread() }

// Window creates a hidden, non-resizable w x h window with an OpenGL 4.1
// core context, makes the context current on the main thread, and destroys
// the window when the test ends. It skips the test when there is no display
// (fails it when CI=true). It does not load GL functions: call gl.Init in
// Do afterwards.
//
// Call it from the test's goroutine, not inside Do.
func Window(tb testing.TB, w, h int) *glfw.Window {
	tb.Helper()
	return window(tb, w, h, false)
}

// ShownWindow is Window with the window shown, for benchmarks whose
// buffer swaps must reach the X server as the app's do.
func ShownWindow(tb testing.TB, w, h int) *glfw.Window {
	tb.Helper()
	return window(tb, w, h, true)
}

func window(tb testing.TB, w, h int, visible bool) *glfw.Window {
	tb.Helper()
	var win *glfw.Window
	var err error
	Do(func() { win, err = open(w, h, visible) })
	if err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("gltest: %v (CI=true: GL tests must run, under xvfb-run)", err)
		}
		tb.Skipf("gltest: %v; skipping (run under xvfb-run)", err)
	}
	tb.Cleanup(func() { Do(win.Destroy) })
	return win
}

// open runs on the main thread.
func open(w, h int, visible bool) (*glfw.Window, error) {
	if !glfwUp {
		if glfwErr != nil {
			return nil, glfwErr
		}
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			glfwErr = fmt.Errorf("no display: DISPLAY is not set")
			return nil, glfwErr
		}
		if err := glfw.Init(); err != nil {
			glfwErr = fmt.Errorf("glfw init: %w", err)
			return nil, glfwErr
		}
		if !initialized() {
			// go-gl/glfw logs a platform error (no X server at DISPLAY)
			// and returns nil.
			glfwErr = fmt.Errorf("no display: glfw init failed with DISPLAY=%q", os.Getenv("DISPLAY"))
			return nil, glfwErr
		}
		glfwUp = true
	}
	glfw.DefaultWindowHints()
	glfw.WindowHint(glfw.Visible, glfw.False)
	if visible {
		glfw.WindowHint(glfw.Visible, glfw.True)
	}
	glfw.WindowHint(glfw.Resizable, glfw.False)
	glfw.WindowHint(glfw.ContextVersionMajor, 4)
	glfw.WindowHint(glfw.ContextVersionMinor, 1)
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
	win, err := glfw.CreateWindow(w, h, "gltest", nil, nil)
	if err != nil {
		return nil, fmt.Errorf("create %dx%d OpenGL 4.1 core window: %w", w, h, err)
	}
	win.MakeContextCurrent()
	glfw.SwapInterval(0)
	return win, nil
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
