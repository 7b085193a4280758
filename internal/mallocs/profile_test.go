package mallocs

import (
	"runtime"
	"slices"
	"strings"
	"testing"
)

var sink []byte

//go:noinline
func allocateOnce() { sink = make([]byte, 100) }

// TestDiff checks that Diff names who allocated between two profiles,
// leaves Profile's own allocations out, and that Quietest names the
// quietest run's allocations and sets the runtime's pools apart.
func TestDiff(t *testing.T) {
	old := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	defer func() { runtime.MemProfileRate = old }()
	before := Profile()
	allocateOnce()
	after := Profile()
	var found bool
	for _, s := range Diff(before, after) {
		if slices.Contains(s.Funcs, profileFunc) {
			t.Errorf("Profile's own allocation in the diff: %v", s)
		}
		if slices.Contains(s.Funcs, "github.com/tandem-engine/tandem/internal/mallocs.allocateOnce") {
			found = s.Allocs == 1 && !s.RuntimePool()
		}
	}
	if !found {
		t.Errorf("allocateOnce's one allocation not in the diff: %v", Diff(before, after))
	}
	n, ours, _ := Quietest(2, allocateOnce)
	if n != 1 || len(ours) != 1 || !strings.Contains(ours[0], "mallocs.allocateOnce") {
		t.Errorf("Quietest(allocateOnce): %d allocations by %q; want 1 by allocateOnce", n, ours)
	}
	// The GCs of the profile after a run may add the runtime's own (under
	// -race, a sudog for the GC's mark termination): pools, not ours.
	if n, ours, _ := Quietest(3, func() {}); n != 0 || ours != nil {
		t.Errorf("Quietest(nothing): %d allocations by %q", n, ours)
	}
	for _, tc := range []struct {
		funcs []string
		pool  bool
	}{
		{[]string{"runtime.mallocgc", "runtime.newobject", "runtime.acquireSudog", "runtime.selectgo", "main.loop"}, true},
		{[]string{"runtime.mallocgc", "runtime.newobject", "runtime.malg", "runtime.allocm", "runtime.newm"}, true},
		{[]string{"runtime.mallocgc", "runtime.makeslice", "main.loop"}, false},
	} {
		if got := (Stack{Allocs: 1, Funcs: tc.funcs}).RuntimePool(); got != tc.pool {
			t.Errorf("RuntimePool(%v) = %v, want %v", tc.funcs, got, tc.pool)
		}
	}
}
