// Package gltest runs GL tests on the main OS thread, which GLFW requires.
//
// A test package that draws declares
//
//	func TestMain(m *testing.M) { gltest.Main(m) }
//
// Main runs the tests on another goroutine and serves [Do] on the main
// thread until they finish. Tests then create a context with [Window] and
// make every GLFW and GL call inside Do.
//
// Inside a function given to Do, report failures with t.Error or return
// values, never t.Fatal or t.Skip: those end the calling goroutine, which
// there is the main one. A panic inside Do is carried back to the test's
// goroutine and re-raised there.
//
// Without a display, Window skips the test, or fails it when the
// environment has CI=true (a CI machine must run the GL tests).
package gltest
