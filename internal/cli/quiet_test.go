package cli

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/hoststat"
)

// fakeHost is a machine whose other load is scripted: each second slept
// and each run takes the next share of the machine from shares (the last
// one again once they are used up), 100 ticks each, none of them ours.
type fakeHost struct {
	shares []float64
	at     hostMark
	slept  time.Duration
	runs   int
}

func (f *fakeHost) pass() {
	share := f.shares[0]
	if len(f.shares) > 1 {
		f.shares = f.shares[1:]
	}
	f.at.t.Total += 100
	f.at.t.Idle += uint64(100 - share)
}

func (f *fakeHost) watch() *hostWatch {
	f.at.ok = true
	f.at.t = hoststat.Times{Total: 1000, Idle: 500}
	return &hostWatch{
		mark:  func() hostMark { return f.at },
		sleep: func(d time.Duration) { f.slept += d; f.pass() },
		close: func() {},
	}
}

func (f *fakeHost) run() error { f.runs++; f.pass(); return nil }

func TestRunQuiet(t *testing.T) {
	never := func() bool { return false }
	for _, c := range []struct {
		name   string
		retry  bool
		shares []float64
		// what it did: runs, seconds waited, the kept run's other load,
		// runs rerun and kept disturbed
		runs, waited int
		other        float64
		rerun, kept  int
		note         string
	}{
		{"quiet", true, []float64{2, 3}, 1, 1, 3, 0, 0, "every run kept was undisturbed"},
		{"busy, then quiet", true, []float64{50, 5, 40, 5, 3}, 2, 3, 3, 1, 0, "1 runs were run again"},
		{"busy throughout", true, []float64{50}, 3, 45, 50, 2, 1, "1 runs kept were disturbed still, after 3 tries (or once -reps-budget was spent, after one): c rep 0 (50%)"},
		{"fixed reps: measured only", false, []float64{40, 2}, 1, 0, 40, 0, 1, "Of the 1 runs, 1 were disturbed (-reps auto would have run them again): c rep 0 (40%)"},
	} {
		f := &fakeHost{shares: c.shares}
		var tally runTally
		other, err := f.watch().runQuiet("c rep 0", c.retry, &tally, never, io.Discard, f.run)
		if err != nil {
			t.Fatal(err)
		}
		if f.runs != c.runs || f.slept != time.Duration(c.waited)*time.Second || other != c.other || tally.rerun != c.rerun || tally.keptDisturbed != c.kept {
			t.Errorf("%s: %d runs, waited %v, kept other %v, %d rerun, %d kept disturbed; want %d, %ds, %v, %d, %d",
				c.name, f.runs, f.slept, other, tally.rerun, tally.keptDisturbed, c.runs, c.waited, c.other, c.rerun, c.kept)
		}
		if n := tally.note(); !strings.Contains(n, c.note) {
			t.Errorf("%s: note %q, want it to say %q", c.name, n, c.note)
		}
	}

	// After an undisturbed run the next starts at once; after a disturbed
	// one (kept with no runs again) it looks for a quiet second first.
	f0 := &fakeHost{shares: []float64{2, 3, 4, 40, 5, 6}}
	h0 := f0.watch()
	for i, want := range []time.Duration{time.Second, time.Second, time.Second, 2 * time.Second} {
		retry := i != 2
		if _, err := h0.runQuiet("c rep 0", retry, &runTally{}, never, io.Discard, f0.run); err != nil {
			t.Fatal(err)
		}
		if f0.slept != want {
			t.Errorf("after run %d: waited %v in all, want %v", i+1, f0.slept, want)
		}
	}

	// A stop while it waits: the run never starts.
	f := &fakeHost{shares: []float64{50}}
	h := f.watch()
	stopped := false
	h.sleep = func(time.Duration) { stopped = true; f.pass() }
	if _, err := h.runQuiet("c rep 0", true, &runTally{}, func() bool { return stopped }, io.Discard, f.run); err != nil || f.runs != 0 {
		t.Errorf("stopped while waiting: %d runs (%v), want none", f.runs, err)
	}

	// Not measured (off Linux): one run, no wait, no note.
	var tally runTally
	var none *hostWatch
	if _, err := none.runQuiet("c rep 0", true, &tally, never, io.Discard, f.run); err != nil || f.runs != 1 || tally.note() != "" {
		t.Errorf("no watch: %d runs (%v), note %q; want 1 and none", f.runs, err, tally.note())
	}
}
