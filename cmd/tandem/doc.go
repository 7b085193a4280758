// Command tandem is the demo of the tandem engine: three games written
// only on the engine's public API (package tandem), run by its standard
// command line.
//
//	tandem [run] [flags]     play: -scene platformer (the default),
//	                         bunnymark (bouncing bunnies for load) or shooter
//	tandem bench [flags]     run it under load and measure frame pacing,
//	                         latency and tick jitter; -matrix compares the
//	                         four loops (coupled, decoupled, pipelined,
//	                         threaded) on the bunnymark
//	tandem report DIR        draw the charts of a bench run or a matrix
//	tandem replay [flags] F  play a recording back; -verify checks it
//
// The games are in package scene; everything else (the window, the
// threads, the loop, the HUD, the flags) is the engine's: see
// tandem.Main.
//
// Threads: main runs on the process's main thread, which owns GLFW and the
// OpenGL context (package tandem's init locks it there; with -loop threaded
// a render thread takes the context); the games' ticks run on a thread of
// their own, except in the coupled loop, where the frame runs them.
package main
