package hoststat

import (
	"runtime"
	"testing"

	"github.com/tandem-engine/tandem/internal/mallocs"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Times
		ok   bool
	}{
		{"cpu  100 2 30 400 5 0 6 70 0 0\ncpu0 1 2 3\n", Times{Steal: 70, Idle: 405, Total: 613}, true},
		// A kernel without guest fields still has steal.
		{"cpu 1 1 1 1 1 1 1 9\n", Times{Steal: 9, Idle: 2, Total: 16}, true},
		{"cpu  1 2 3 4 5 6 7\n", Times{}, false}, // no steal field
		{"cpu0 1 2 3 4 5 6 7 8\n", Times{}, false},
		{"intr 1 2 3\n", Times{}, false},
		{"", Times{}, false},
	} {
		got, ok := parse([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("parse(%q) = %+v, %v; want %+v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestStealPct(t *testing.T) {
	a := Times{Steal: 10, Total: 1000}
	if got := StealPct(a, Times{Steal: 30, Total: 1400}); got != 5 {
		t.Errorf("StealPct = %v, want 5", got)
	}
	for _, b := range []Times{a, {Steal: 5, Total: 2000}, {}} {
		if got := StealPct(a, b); got != -1 {
			t.Errorf("StealPct(%+v, %+v) = %v, want -1", a, b, got)
		}
	}
	if got := StealPct(Times{}, a); got != -1 {
		t.Errorf("StealPct from a missing reading = %v, want -1", got)
	}
}

func TestRead(t *testing.T) {
	r, err := Open()
	if runtime.GOOS != "linux" {
		if err == nil {
			t.Fatalf("Open on %s succeeded; want an error", runtime.GOOS)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	a, ok := r.Read()
	if !ok || a.Total == 0 || a.Steal > a.Total {
		t.Fatalf("Read = %+v, %v", a, ok)
	}
	var b Times
	// 1000 reads, the quietest of three tries: the count is the whole
	// process's, and the race detector's runtime allocates now and then.
	if n := mallocs.Fewest(3, func() {
		for range 1000 {
			b, ok = r.Read()
		}
	}); n != 0 {
		t.Errorf("1000 Reads allocated %d times, want 0", n)
	}
	if !ok || b.Total < a.Total || b.Steal < a.Steal {
		t.Errorf("second Read = %+v, %v after %+v: the counters went back", b, ok, a)
	}
}

func TestOtherPct(t *testing.T) {
	a := Times{Idle: 100, Total: 1000}
	// 400 ticks passed, 100 of them idle: 300 busy, 120 of them ours.
	if got := OtherPct(a, Times{Idle: 200, Total: 1400}, 120); got != 45 {
		t.Errorf("OtherPct = %v, want 45", got)
	}
	// Ours counted more than the busy time (ticks are coarse): no other.
	if got := OtherPct(a, Times{Idle: 390, Total: 1400}, 200); got != 0 {
		t.Errorf("OtherPct with ours over busy = %v, want 0", got)
	}
	for _, b := range []Times{a, {Idle: 50, Total: 2000}, {}} {
		if got := OtherPct(a, b, 0); got != -1 {
			t.Errorf("OtherPct(%+v, %+v) = %v, want -1", a, b, got)
		}
	}
}
