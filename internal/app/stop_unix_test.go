//go:build unix

package app

import (
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestSignalsCoalesce(t *testing.T) {
	// A group kill's two deliveries (SIGHUP, then SIGTERM at once) are one
	// stop; a Ctrl-C a moment later is the second, which exits with 130.
	exits := stubExit(t)
	var stderr syncBuffer
	w := WatchSignals(10*time.Second, &stderr)
	defer w.Close()
	self := syscall.Getpid()
	syscall.Kill(self, syscall.SIGHUP)
	syscall.Kill(self, syscall.SIGTERM)
	for began := time.Now(); !w.caught.Load(); time.Sleep(time.Millisecond) {
		if time.Since(began) > 5*time.Second {
			t.Fatal("SIGHUP did not stop the run")
		}
	}
	select {
	case code := <-exits:
		t.Fatalf("two signals at once exited with %d: %s", code, stderr.String())
	case <-time.After(Coalesce + 100*time.Millisecond):
	}
	syscall.Kill(self, syscall.SIGINT)
	select {
	case code := <-exits:
		if code != 130 || !strings.Contains(stderr.String(), "second interrupt: exiting at once") {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a second Ctrl-C did not exit")
	}
}
