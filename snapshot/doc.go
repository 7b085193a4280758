// Package snapshot is the contract between the simulation thread and the
// render thread: timestamped snapshots of the world, the lock-free hand-off
// that carries them from one thread to the other, and the interpolation math
// that blends the two newest ones.
//
// Threads: a [Ring] has exactly one writer (the sim thread) and one reader
// (the render thread). The writer calls [Ring.Begin] and [Ring.Publish]; the
// reader calls [Ring.Acquire]. Neither ever blocks or waits for the other. A
// [Snapshot] obtained from Begin belongs to the writer until it is published;
// the pair returned by Acquire belongs to the reader until its next Acquire.
// Everything else in the package is a pure function or a plain value and may
// be used from any goroutine.
//
// Time: all timestamps are integer nanoseconds on one monotonic time base,
// [Now]. The sim thread schedules ticks on it, the window stamps input
// events with it, and the renderer computes interpolation from it, so the
// three agree without conversion.
//
// The package imports no GL and no GLFW.
package snapshot
