// Package window opens tandem's window with GLFW: an OpenGL 4.1 core
// context, vsync, fullscreen, and keyboard, mouse and gamepad input (its
// buttons and analog axes) turned into timestamped events.
//
// Main thread only: GLFW must be called from the process's main thread, so
// every function and method of this package must be called from the main
// OS thread (lock it with runtime.LockOSThread in an init function of
// package main). The window's OpenGL context is current on that thread; it
// is also the GL thread of package gl, which loads the GL functions into
// the context ([Open] makes it current and nothing more: this package does
// not call OpenGL).
//
// Input: key and gamepad events are stamped with snapshot.Now(), the time
// base the simulation schedules ticks on, at the moment GLFW reports them,
// and handed to the sink set with [Window.SetSink] from inside [Window.Poll]
// (or [Window.WaitEvents]).
package window
