// Command tandem is the desktop app of the tandem engine: the platformer
// demo, a bunnymark for load, and the bench that measures both.
//
//	tandem [run] [flags]     open the demo (run is the default subcommand)
//	tandem bench [flags]     run it under load and measure frame pacing,
//	                         latency and tick jitter; -matrix compares the
//	                         coupled, decoupled and pipelined loops
//
// Threads: main runs on the process's main thread, which owns GLFW and the
// OpenGL context; the simulation runs on a thread of its own (see package
// simthread), except in the coupled loop, where the frame runs it.
package main
