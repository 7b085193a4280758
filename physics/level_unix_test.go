//go:build unix

package physics

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestLoadLevelRefusesFIFO(t *testing.T) {
	// A FIFO given as a level is refused at once, never opened for a
	// read that waits for a writer.
	fifo := filepath.Join(t.TempDir(), "level.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := LoadLevel(fifo); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), fifo+" is a FIFO, not a regular file") {
			t.Errorf("%v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("LoadLevel of a FIFO blocked")
	}
	if _, err := LoadLevel("/dev/zero"); err == nil || !strings.Contains(err.Error(), "a character device, not a regular file") {
		t.Errorf("/dev/zero: %v", err)
	}
}
