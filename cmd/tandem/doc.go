// Command tandem is the desktop app of the tandem engine: the platformer
// demo, a bunnymark for load, and (coming) the bench and replays.
//
//	tandem [run] [flags]    open the demo (run is the default subcommand)
//
// Threads: main runs on the process's main thread, which owns GLFW and the
// OpenGL context; the simulation runs on a thread of its own (see package
// simthread).
package main
