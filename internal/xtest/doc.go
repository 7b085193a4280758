// Package xtest presses real keys on an X server through its XTEST
// extension and records when, for measuring the latency from a
// key press to the frame that shows it: the server takes the injected
// event as a keyboard's, and GLFW receives it like any key press.
//
//	in, err := xtest.Open("") // $DISPLAY
//	if errors.Is(err, xtest.ErrUnavailable) { ... fall back to synthetic input ... }
//	r, err := in.Start(xtest.Schedule{Seed: 1, MinGap: 50 * time.Millisecond, MaxGap: 250 * time.Millisecond})
//	...
//	events, err := r.Stop() // every press and release, with its time
//	in.Close()
//
// Time: every time is on snapshot.Now()'s base, integer nanoseconds of
// CLOCK_MONOTONIC, the clock window stamps input with, so a press's time and
// the time GLFW delivered it subtract.
//
// X: the connections are pure Go, apart from GLFW's Xlib one: they need
// no cgo and no libXtst, and a server that goes away makes their calls
// fail with an error naming the display, where Xlib's default would end
// the process; no process-wide Xlib handler is set. One connection
// (github.com/jezek/xgb) reads the keymap and the focus; the key edges go
// through a second one of the package's own, which writes XTEST's
// FakeInput and reads its check from fixed buffers, so that a Runner
// allocates nothing between Start and Stop (xgb allocates several objects
// a request, which the bench would count as its frames').
//
// Threads: an Injector has an X connection of its own, apart from GLFW's,
// so none of its methods needs the main thread: each may be called from any
// goroutine, and they are serialized. A Runner sends from a goroutine locked
// to an OS thread of its own, and every wait of its (the server's answer,
// the time to the next edge) goes through the runtime's netpoller, never a
// blocking system call: a waiting runner holds no P, so the goroutines its
// key wakes (a frame loop's) run at once.
//
// Focus: the server sends key events to the window with the keyboard
// focus. Injector.Focus gives it to a process's window and
// Injector.FocusedPID says whose it is: check it before trusting that the
// presses reach the window.
//
// Windows: the same Injector presses keys through user32's SendInput (no
// cgo): the event enters the system's input stream as a keyboard's, and
// goes to the foreground window. At and Acked bracket the SendInput call,
// read with snapshot.Now(); Focus brings a process's window to the
// foreground, as far as Windows lets it. Source says which injector runs.
//
// Other builds without X11 (macOS, the wayland tag) compile, and Open
// returns ErrUnavailable.
package xtest
