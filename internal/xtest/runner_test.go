//go:build linux

package xtest

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tandem-engine/tandem/snapshot"
)

// fakeSend stands for the X server: it stamps each edge with
// snapshot.Now() and notes the OS thread it was sent from.
type fakeSend struct {
	mu    sync.Mutex
	tids  map[int]bool
	calls int
	fail  int // the call that fails, from 1; 0: none
}

func (f *fakeSend) send(bool) (Stamp, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.tids == nil {
		f.tids = map[int]bool{}
	}
	f.tids[unix.Gettid()] = true
	f.calls++
	if f.calls == f.fail {
		return Stamp{}, errors.New("server gone")
	}
	now := snapshot.Now()
	return Stamp{At: now, Acked: now + 1}, nil
}

// waitCalls waits until the fake server has seen n edges, for up to 10 s
// (a loaded machine may not schedule the runner for a while).
func (f *fakeSend) waitCalls(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		f.mu.Lock()
		calls := f.calls
		f.mu.Unlock()
		if calls >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the runner sent %d edges in 10 s, want %d", calls, n)
		}
	}
}

func TestRunnerAlternatesOnItsOwnThread(t *testing.T) {
	const minGap, maxGap = time.Millisecond, 3 * time.Millisecond
	var f fakeSend
	r, err := startRunner(f.send, Schedule{Seed: 1, MinGap: minGap, MaxGap: maxGap}.gaps())
	if err != nil {
		t.Fatal(err)
	}
	f.waitCalls(t, 6)
	events, err := r.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if len(events) < 6 {
		t.Fatalf("%d events after the server saw 6 or more, want as many", len(events))
	}
	for i, e := range events {
		if e.Down != (i%2 == 0) {
			t.Fatalf("event %d: Down = %v; presses and releases must alternate, starting with a press", i, e.Down)
		}
		// The last may be Stop's release, sent at once.
		if i > 0 && i < len(events)-1 && e.At-events[i-1].At < int64(minGap) {
			t.Errorf("event %d came %v after the previous one, less than MinGap %v", i, time.Duration(e.At-events[i-1].At), minGap)
		}
	}
	if events[len(events)-1].Down {
		t.Error("Stop left the key down: the last event is a press")
	}
	if len(f.tids) != 1 {
		t.Errorf("the runner sent from %d OS threads, want one of its own", len(f.tids))
	}
	if f.tids[unix.Getpid()] {
		t.Error("the runner sent from the main thread")
	}
	again, err := r.Stop()
	if len(again) != len(events) || err != nil {
		t.Errorf("Stop again returned %d events and %v, want the same %d and nil", len(again), err, len(events))
	}
}

func TestStopIsPromptAndReleases(t *testing.T) {
	// The first gap is short, then an hour: Stop finds the key down,
	// waiting, and must release it at once.
	var f fakeSend
	first := true
	gap := func() time.Duration {
		if first {
			first = false
			return time.Millisecond
		}
		return time.Hour
	}
	r, err := startRunner(f.send, gap)
	if err != nil {
		t.Fatal(err)
	}
	f.waitCalls(t, 1)
	// Stop must not wait for the hour-long timer: a bound of seconds,
	// which a loaded machine under -race keeps, tells the two apart, and
	// a Stop that waits fails here instead of hanging the test.
	type stopped struct {
		events []Event
		err    error
	}
	done := make(chan stopped, 1)
	go func() {
		events, err := r.Stop()
		done <- stopped{events, err}
	}()
	var events []Event
	select {
	case st := <-done:
		events, err = st.events, st.err
	case <-time.After(10 * time.Second):
		t.Fatal("Stop did not return within 10 s with the runner waiting an hour: it waits for the timer")
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 2 || !events[0].Down || events[1].Down {
		t.Fatalf("events %+v, want the press and Stop's release", events)
	}
	if events[1].At <= events[0].At {
		t.Errorf("the release at %d comes before the press at %d", events[1].At, events[0].At)
	}
}

func TestRunnerStopsOnError(t *testing.T) {
	f := fakeSend{fail: 3}
	r, err := startRunner(f.send, Schedule{MinGap: time.Millisecond, MaxGap: time.Millisecond}.gaps())
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		f.mu.Lock()
		calls := f.calls
		f.mu.Unlock()
		if calls >= 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(10 * time.Millisecond) // it must not send again
	events, err := r.Stop()
	if err == nil || err.Error() != "server gone" {
		t.Errorf("Stop's error = %v, want the send's", err)
	}
	if len(events) != 2 || f.calls != 3 {
		t.Errorf("%d events recorded and %d sends after a failed third, want 2 and 3", len(events), f.calls)
	}
}

func TestScheduleGaps(t *testing.T) {
	s := Schedule{Seed: 7, MinGap: 20 * time.Millisecond, MaxGap: 80 * time.Millisecond}
	a, b, other := s.gaps(), s.gaps(), Schedule{Seed: 8, MinGap: s.MinGap, MaxGap: s.MaxGap}.gaps()
	const n = 10000
	var sum time.Duration
	same, subMs := 0, map[time.Duration]bool{}
	for range n {
		g := a()
		if g != b() {
			t.Fatal("two generators with one seed drew different gaps")
		}
		if g == other() {
			same++
		}
		if g < s.MinGap || g > s.MaxGap {
			t.Fatalf("gap %v outside [%v, %v]", g, s.MinGap, s.MaxGap)
		}
		sum += g
		subMs[g%time.Millisecond] = true
	}
	if same > 10 {
		t.Errorf("seeds 7 and 8 drew %d equal gaps of %d", same, n)
	}
	// Uniform: the mean is the middle of the range (its standard error
	// here is about 0.2 ms).
	if mean := sum / n; mean < 49*time.Millisecond || mean > 51*time.Millisecond {
		t.Errorf("mean gap %v, want about 50 ms", mean)
	}
	// On no grid: the gaps fall anywhere within a millisecond.
	if len(subMs) < n*9/10 {
		t.Errorf("only %d distinct sub-millisecond parts in %d gaps: the gaps sit on a grid", len(subMs), n)
	}
	if g := (Schedule{MinGap: time.Second, MaxGap: time.Second}).gaps()(); g != time.Second {
		t.Errorf("MinGap = MaxGap = 1s draws %v", g)
	}
}

func TestStartChecks(t *testing.T) {
	for _, s := range []Schedule{{}, {MinGap: -1, MaxGap: time.Second}, {MinGap: 2 * time.Second, MaxGap: time.Second}} {
		if _, err := (&Injector{}).Start(s); err == nil || !strings.Contains(err.Error(), "0 < MinGap <= MaxGap") {
			t.Errorf("Start(%+v) = %v, want the error about the gaps", s, err)
		}
	}
	if _, err := (&Injector{}).Start(Schedule{MinGap: 1, MaxGap: 1}); !errors.Is(err, errClosed) {
		t.Errorf("Start on a closed injector = %v, want %v", err, errClosed)
	}
}
