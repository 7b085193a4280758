// Package simthread runs the simulation on a fixed timestep and hands its
// state to the renderer.
//
// A [Runner] owns a [Sim] (the world and the game's per-tick logic), a
// [Schedule] that says when each tick is due in exact integer nanoseconds,
// an input [Queue] and a [snapshot.Ring]. It runs in one of three ways
// that share every line of stepping code; the engine's four loops (-loop
// coupled, decoupled, pipelined, threaded) each use one of them, the
// threaded loop the decoupled one (it differs only on the render side,
// drawing on a thread of its own; this package never sees which). Each
// mode's doc names the file of internal/app whose driver draws its
// frames, and that driver names the mode:
//
//   - Decoupled ([Runner.Start]), for the decoupled and threaded loops: a
//     goroutine locked to its own OS thread waits for each tick (sleep,
//     then a short spin), steps, and publishes a snapshot. It never waits
//     for the renderer.
//   - Coupled ([Runner.RunDue]): the classic single-thread accumulator loop.
//     The caller's frame calls RunDue(now), which runs the ticks that are
//     due and returns; the caller then draws.
//   - Pipelined ([Runner.StartPipelined]): Bevy's pipelined rendering. The
//     sim has its own locked thread, but runs only when the render thread
//     hands it a frame time ([Runner.Hand]); it runs the ticks due by then
//     while the frame before is drawn, and the two meet once per frame
//     ([Runner.Meet]).
//
// Given the same input events with the same timestamps, all three (and so
// all four loops) run the same ticks with the same input and reach the same state hash.
//
// Threads: the Sim's methods are called only by the goroutine that runs the
// loop (the sim thread when decoupled or pipelined, the caller when
// coupled). The input
// queue has one producer (the thread that polls input) and the loop as its
// consumer. [Runner.Stats] may be read from any goroutine.
//
// Time is passed in, never read, except by the real [Clock]: the schedule
// is a pure type, and tests drive the runner with a [FakeClock].
package simthread
