package window

import (
	"os"
	"testing"

	"github.com/tandem-engine/tandem/internal/mainthread"
)

// GLFW must be called on the main thread: TestMain serves do() there for
// the tests, which run on other goroutines.

var initErr error // Init's result; set by the first open, on the main thread
var initDone bool

func TestMain(m *testing.M) {
	code := mainthread.Run(m.Run)
	if initDone && initErr == nil {
		Terminate()
	}
	os.Exit(code)
}

// do runs f on the main thread; see mainthread.Do.
func do(f func()) { mainthread.Do(f) }

// open opens a window for the test and destroys it at the end. Without a
// display it skips, or fails when CI=true.
func open(t *testing.T, cfg Config) *Window {
	t.Helper()
	var w *Window
	var err error
	do(func() {
		if !initDone {
			initErr, initDone = Init(), true
		}
		if err = initErr; err == nil {
			w, err = Open(cfg)
		}
	})
	if err != nil {
		if initErr != nil && os.Getenv("CI") != "true" {
			t.Skipf("%v; skipping", err)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() { do(w.Destroy) })
	return w
}
