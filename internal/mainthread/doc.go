// Package mainthread runs functions on the process's main OS thread, which
// GLFW (and so OpenGL through it) requires, while the rest of a program —
// typically a test binary's tests — runs on other goroutines.
//
//	func TestMain(m *testing.M) { os.Exit(mainthread.Run(m.Run)) }
//
// and then, from any test, mainthread.Do(func() { ... GLFW and GL calls ... }).
//
// Threads: importing the package locks the main goroutine to the main
// thread (in init, before main or TestMain starts). Run must be called from
// the main goroutine; Do from any other goroutine.
package mainthread
