// Package app is tandem's frame loop: the window and the renderer on the
// main thread (or a render thread of its own, -loop threaded), the sim's
// runner on its thread, and what a run measures and writes at its end.
//
// A run is a session (session.go). Its loop is a driver, chosen once in
// newDriver (driver.go): coupled.go, decoupled.go, pipelined.go and
// threaded.go each hold what only their loop needs. Every loop draws the
// same frame (frame.go), which asks the pacing (internal/pacing) which
// moment to show and when to swap, and draws with the renderer
// (renderer.go, art.go, hud.go). What only the figures and the bench
// need attaches through hooks (addon.go): the figures (meter.go, stats.go)
// and the bench's load and key presses (benchload.go, realinput.go). The
// input thread's events are in events.go and bindings.go; record and
// replay in recording.go and replay.go; signals and stops in stop.go; the
// JSON summary in summary.go. docs/architecture.md draws the shape.
//
// tandem.Run and the command line (internal/cli) build its [Options] over
// [Defaults] and check them with [Options.Validate]; the game reaches it
// through internal/engine. The files that draw need cgo (GLFW, OpenGL);
// the options, the summary and replay's checks do not, so that replay
// -fast runs in a build without it.
package app
