// Package app is tandem's frame loop: the window and the renderer on the
// main thread (or a render thread of its own, -loop threaded), the sim's
// runner on its thread, and what a run measures and writes at its end.
// It is in pieces by concern: the loop and its stops (loop.go, stop.go),
// one frame (frame.go), the pacing policies (pacing.go), input events
// (events.go, bindings.go), the camera and read-back (view.go), the
// threaded loop (threaded.go), the HUD, the bench's load and the summary.
//
// tandem.Run and the command line (internal/cli) build its [Options];
// the game reaches it through internal/engine. The files that draw need
// cgo (GLFW, OpenGL); the options, the summary and replay's checks do
// not, so that replay -fast runs in a build without it.
package app
