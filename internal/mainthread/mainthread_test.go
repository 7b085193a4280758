package mainthread_test

import (
	"os"
	"runtime"
	"testing"

	"github.com/tandem-engine/tandem/internal/mainthread"
)

func TestMain(m *testing.M) { os.Exit(mainthread.Run(m.Run)) }

func TestDoRunsOnMainThread(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("OnMainThread can tell only on Linux")
	}
	var inside bool
	mainthread.Do(func() { inside = mainthread.OnMainThread() })
	if !inside || mainthread.OnMainThread() {
		t.Fatalf("inside Do on the main thread: %v (want true); the test itself: %v (want false)", inside, mainthread.OnMainThread())
	}
}

func TestDoReraisesPanics(t *testing.T) {
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v, want the panic from inside Do", r)
		}
	}()
	mainthread.Do(func() { panic("boom") })
}
