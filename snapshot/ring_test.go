package snapshot_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tandem-engine/tandem/internal/mallocs"
	"github.com/tandem-engine/tandem/snapshot"
)

// fill writes a snapshot whose every field derives from k, with a checksum
// over all of it in StateHash, so a reader can tell a torn snapshot.
func fill(s *snapshot.Snapshot, k uint64) {
	n := int(k%97) + 1
	s.Tick = k
	s.SimTime = int64(k) * 1000
	s.Sprites.Resize(n)
	for i := range n {
		v := float32(k) + float32(i)
		s.Sprites.Set(i, uint32(i), uint32(k), v, -v, v/8, uint16(k), uint32(k)*7)
	}
	s.StateHash = checksum(s)
}

func checksum(s *snapshot.Snapshot) uint64 {
	h := uint64(14695981039346656037)
	mix := func(v uint64) { h = (h ^ v) * 1099511628211 }
	mix(s.Tick)
	mix(uint64(s.SimTime))
	sp := &s.Sprites
	for i := range sp.Len() {
		mix(uint64(sp.ID[i]) | uint64(sp.Gen[i])<<32)
		mix(uint64(sp.X[i]) ^ uint64(sp.Y[i])<<20 ^ uint64(sp.Angle[i]*8)<<40)
		mix(uint64(sp.Frame[i]) | uint64(sp.Tint[i])<<16)
	}
	return h
}

func TestRingEmptyAndFirst(t *testing.T) {
	r := snapshot.NewRing()
	if p, c, fresh := r.Acquire(); p != nil || c != nil || fresh {
		t.Fatal("empty ring returned a snapshot")
	}
	fill(r.Begin(), 1)
	r.Publish()
	p, c, fresh := r.Acquire()
	if !fresh || p != c || c.Tick != 1 {
		t.Fatalf("after one publish: prev %p curr %p fresh %v", p, c, fresh)
	}
	if _, _, fresh := r.Acquire(); fresh {
		t.Fatal("second acquire with nothing new says fresh")
	}
}

func TestRingNewestPair(t *testing.T) {
	// Whether zero, one or three publishes land between acquires, the
	// reader gets the two newest, consecutive, and its held pair is never
	// written.
	r := snapshot.NewRing()
	k := uint64(0)
	for _, n := range []int{2, 0, 1, 3, 0, 0, 5, 1} {
		for range n {
			k++
			fill(r.Begin(), k)
			r.Publish()
		}
		p, c, fresh := r.Acquire()
		if fresh != (n > 0) || c.Tick != k || p.Tick != k-1 {
			t.Fatalf("after %d publishes: got %d,%d fresh %v, want %d,%d", n, p.Tick, c.Tick, fresh, k-1, k)
		}
	}
}

func TestRingStress(t *testing.T) {
	// Writer and reader at full speed; every snapshot the reader sees must
	// be whole (its checksum holds), consecutive with the ones before it
	// (the pair and the history), and never older than the last one seen.
	r := snapshot.NewRing()
	const total = 200_000
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for k := uint64(1); k <= total; k++ {
			fill(r.Begin(), k)
			r.Publish()
		}
		stop.Store(true)
	}()
	var last uint64
	reads, fresh := 0, 0
	for !stop.Load() || last < total {
		p, c, f := r.Acquire()
		if c == nil {
			continue
		}
		reads++
		if f {
			fresh++
		}
		h := r.History()
		if h[snapshot.History-2] != p || h[snapshot.History-1] != c {
			t.Fatal("History does not end with the pair Acquire returned")
		}
		for _, s := range h {
			if got := checksum(s); got != s.StateHash {
				t.Fatalf("torn snapshot at tick %d", s.Tick)
			}
		}
		for i := 1; i < len(h); i++ {
			if h[i].Tick > uint64(i) && h[i-1].Tick+1 != h[i].Tick {
				t.Fatalf("history %d,%d not consecutive", h[i-1].Tick, h[i].Tick)
			}
		}
		if c.Tick != 1 && p.Tick+1 != c.Tick {
			t.Fatalf("pair %d,%d not consecutive", p.Tick, c.Tick)
		}
		if c.Tick < last {
			t.Fatalf("went back from %d to %d", last, c.Tick)
		}
		last = c.Tick
	}
	wg.Wait()
	if fresh < 10 {
		t.Fatalf("only %d fresh reads of %d", fresh, reads)
	}
	t.Logf("%d reads, %d fresh, %d publishes", reads, fresh, total)
}

func TestPublishAllocs(t *testing.T) {
	r := snapshot.NewRing()
	k := uint64(0)
	for range 10 {
		k++
		fill(r.Begin(), k)
		r.Publish()
		r.Acquire()
	}
	a := testing.AllocsPerRun(1000, func() {
		k++
		s := r.Begin()
		s.Tick = k
		s.Sprites.Resize(int(k % 97))
		r.Publish()
		r.Acquire()
	})
	if a != 0 {
		t.Fatalf("publish+acquire allocates %.1f times", a)
	}
}

const benchSprites = 100_000

func BenchmarkPublish(b *testing.B) {
	// Begin, fill 100,000 sprites, publish: the sim side of a tick.
	r := snapshot.NewRing()
	b.ReportAllocs()
	k := uint64(0)
	for range 8 { // grow every buffer once
		s := r.Begin()
		s.Sprites.Resize(benchSprites)
		r.Publish()
	}
	b.ResetTimer()
	for b.Loop() {
		k++
		s := r.Begin()
		s.Tick = k
		s.Sprites.Resize(benchSprites)
		x := s.Sprites.X
		for i := range x {
			x[i] = float32(i)
		}
		r.Publish()
	}
}

func BenchmarkPublishOnly(b *testing.B) {
	// The hand-off alone: Begin and Publish, no filling.
	r := snapshot.NewRing()
	b.ReportAllocs()
	for b.Loop() {
		r.Begin()
		r.Publish()
	}
}

func BenchmarkAcquire(b *testing.B) {
	// The render side: acquire the newest pair while the writer publishes
	// at full speed on another goroutine.
	r := snapshot.NewRing()
	for range 2 {
		r.Begin()
		r.Publish()
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			r.Begin()
			r.Publish()
		}
	}()
	b.ReportAllocs()
	for b.Loop() {
		r.Acquire()
	}
	close(done)
}

func TestReserve(t *testing.T) {
	// After Reserve, no buffer allocates to hold that many sprites,
	// whichever the writer gets, however the reader holds them.
	r := snapshot.NewRing()
	s := r.Begin()
	s.Sprites.Resize(1000)
	r.Reserve(1000)
	r.Publish()
	n := mallocs.Fewest(3, func() {
		for k := range 200 {
			if k%3 == 0 {
				r.Acquire()
			}
			s := r.Begin()
			s.Sprites.Resize(1000)
			r.Publish()
		}
	})
	if n != 0 {
		t.Fatalf("%d mallocs after Reserve", n)
	}
}
