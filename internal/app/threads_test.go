package app

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestStartThreads checks that startThreads leaves n more threads than
// goroutines need: n locked at once, each on a thread of its own, then
// ended, their threads idle and kept.
func TestStartThreads(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts the process's threads in /proc/self/status (Linux): on " + runtime.GOOS + " startThreads runs, unchecked")
	}
	goroutines := runtime.NumGoroutine()
	n := threads(t) + 3 // more than there are: each must be made
	startThreads(n)
	if got := threads(t); got < n {
		t.Errorf("%d threads after startThreads(%d); want at least %d", got, n, n)
	}
	// Its goroutines are gone, their threads idle.
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > goroutines && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > goroutines {
		t.Errorf("%d goroutines after startThreads, %d before", g, goroutines)
	}
}

// threads is the process's thread count.
func threads(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "Threads:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no Threads: line in /proc/self/status")
	return 0
}
