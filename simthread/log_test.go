package simthread

import (
	"runtime"
	"sync"
	"testing"

	"github.com/tandem-engine/tandem/internal/mallocs"
)

func TestLogRead(t *testing.T) {
	// Reading from where the last read stopped: the records in order, and
	// those overwritten before the read counted as lost, not returned.
	l := NewLog(4, 4)
	dst := make([]TickRecord, 3)
	if n, lost := l.ReadTicks(dst, 0); n != 0 || lost != 0 {
		t.Fatalf("empty log: %d read, %d lost", n, lost)
	}
	for k := range uint64(3) {
		l.tick(TickRecord{Tick: k, Due: int64(k) * 10})
	}
	if n, lost := l.ReadTicks(dst[:2], 0); n != 2 || lost != 0 || dst[0].Tick != 0 || dst[1] != (TickRecord{Tick: 1, Due: 10}) {
		t.Fatalf("read %d, lost %d: %+v", n, lost, dst[:n])
	}
	for k := uint64(3); k < 10; k++ {
		l.tick(TickRecord{Tick: k})
	}
	// From 2: 2..5 were overwritten by 6..9.
	if n, lost := l.ReadTicks(dst, 2); n != 3 || lost != 4 || dst[0].Tick != 6 || dst[2].Tick != 8 {
		t.Fatalf("after wrapping: read %d, lost %d: %+v", n, lost, dst[:n])
	}
	if n, lost := l.ReadTicks(dst, 9); n != 1 || lost != 0 || dst[0].Tick != 9 {
		t.Fatalf("the newest: read %d, lost %d", n, lost)
	}
	if n, lost := l.ReadTicks(dst, 10); n != 0 || lost != 0 || l.TicksWritten() != 10 {
		t.Fatalf("caught up: read %d, lost %d, %d written", n, lost, l.TicksWritten())
	}
	l.input(InputRecord{Stamp: 5, Tick: 1, Kind: EventButton})
	in := make([]InputRecord, 2)
	if n, lost := l.ReadInputs(in, 0); n != 1 || lost != 0 || in[0] != (InputRecord{Stamp: 5, Tick: 1, Kind: EventButton}) || l.InputsWritten() != 1 {
		t.Fatalf("inputs: read %d, lost %d: %+v", n, lost, in[:n])
	}
	if n := mallocs.Fewest(3, func() {
		for range 1000 {
			l.ReadTicks(dst, 0)
			l.ReadInputs(in, 0)
		}
	}); n != 0 {
		t.Fatalf("reading allocated %d times", n)
	}
}

func TestLogReadWhileWritten(t *testing.T) {
	// One goroutine writes as fast as it can into small rings while
	// another reads: every record read is whole (its fields agree with its
	// index) and in order, none is read twice or skipped without being
	// counted lost, and the race detector sees no race.
	const n = 200_000
	l := NewLog(64, 32)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for k := range uint64(n) {
			l.tick(TickRecord{Tick: k, Due: int64(k) * 3, Start: int64(k) * 5, End: int64(k) * 7})
			l.input(InputRecord{Stamp: int64(k) * 11, Tick: k, Kind: EventKind(k % 4)})
			if k%64 == 0 {
				runtime.Gosched()
			}
		}
	}()
	ticks, inputs := make([]TickRecord, 16), make([]InputRecord, 16)
	var nt, ni, lostT, lostI uint64
	for nt < n || ni < n {
		c, lost := l.ReadTicks(ticks, nt)
		for j, r := range ticks[:c] {
			k := nt + lost + uint64(j)
			if r != (TickRecord{Tick: k, Due: int64(k) * 3, Start: int64(k) * 5, End: int64(k) * 7}) {
				t.Fatalf("tick %d read as %+v", k, r)
			}
		}
		nt, lostT = nt+lost+uint64(c), lostT+lost
		c, lost = l.ReadInputs(inputs, ni)
		for j, r := range inputs[:c] {
			k := ni + lost + uint64(j)
			if r != (InputRecord{Stamp: int64(k) * 11, Tick: k, Kind: EventKind(k % 4)}) {
				t.Fatalf("input %d read as %+v", k, r)
			}
		}
		ni, lostI = ni+lost+uint64(c), lostI+lost
	}
	wg.Wait()
	if nt != n || ni != n {
		t.Fatalf("read up to %d ticks and %d inputs of %d", nt, ni, n)
	}
	t.Logf("lost %d ticks and %d inputs of %d to the writer lapping the reader", lostT, lostI, n)
}
