package app

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a strings.Builder the watchdog may write while a test
// reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// stubExit makes the watchdog's exits visible on the returned channel
// (ending its goroutine instead of the process) until the test ends.
func stubExit(t *testing.T) <-chan int {
	exits := make(chan int, 1)
	osExit = func(code int) { exits <- code; runtime.Goexit() }
	t.Cleanup(func() { osExit = osExitReal })
	return exits
}

var osExitReal = osExit

func TestSignalsEnding(t *testing.T) {
	// The loop stopped of itself (-seconds) and the rest of the run is
	// stuck: after the grace the watchdog writes the last words and exits
	// 1, telling the forced-exit hook.
	exits := stubExit(t)
	var stderr syncBuffer
	w := WatchSignals(100*time.Millisecond, &stderr)
	defer w.Close()
	wrote := make(chan struct{})
	w.setLast(func() { close(wrote) })
	var told string
	w.SetForcedExit(func(msg string, code int) { told = msg })
	w.Ending()
	w.Ending() // more do nothing
	select {
	case code := <-exits:
		<-wrote
		if code != 1 || !strings.Contains(stderr.String(), "still running 100ms after the run ended") || told != "" {
			t.Fatalf("exit %d, told %q: %s", code, told, stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no exit after the grace")
	}
	if w.caught.Load() {
		t.Error("Ending counted as a signal")
	}
}
