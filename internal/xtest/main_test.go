package xtest

import (
	"os"
	"testing"

	"github.com/tandem-engine/tandem/internal/mainthread"
)

// GLFW must be called on the main thread: TestMain serves mainthread.Do
// there for the tests, which run on other goroutines, and stops GLFW at
// the end if a test started it.
func TestMain(m *testing.M) {
	code := mainthread.Run(m.Run)
	terminate()
	os.Exit(code)
}

// terminate stops GLFW, once a test has started it; on the main thread.
var terminate = func() {}
