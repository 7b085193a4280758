package audio

import (
	"strconv"
	"sync/atomic"
)

// Op is what a sound event does.
type Op uint8

const (
	OpPlay     Op = iota + 1 // start Sound on a new voice, named Voice
	OpStop                   // stop the voice named Voice
	OpMusic                  // start Sound looping as the music, replacing any
	OpMusicOff               // stop the music
)

// Event is one sound event of a tick, as the mixer takes it: what to do,
// and the tick's time it is aimed at (plus the run's offset).
type Event struct {
	Op     Op
	Sound  uint16 // the sound's index in the mixer's list
	Voice  uint32 // the handle the tick gave the voice
	Volume float32
	Pan    float32 // -1 left to 1 right
	Tick   uint64
	Time   int64 // the tick's time, ns on snapshot.Now's clock
}

// queue is a lock-free single-producer single-consumer queue of events:
// the sim thread pushes, the audio thread pops. Neither ever waits.
type queue struct {
	buf  [1024]Event
	head atomic.Uint64 // next to pop; written by the consumer
	tail atomic.Uint64 // next to push; written by the producer
}

// push adds e and reports false when the queue is full (the audio thread
// has not run for a long while); the producer only.
func (q *queue) push(e Event) bool {
	t := q.tail.Load()
	if t-q.head.Load() >= uint64(len(q.buf)) {
		return false
	}
	q.buf[t%uint64(len(q.buf))] = e
	q.tail.Store(t + 1)
	return true
}

// pop takes the oldest event; the consumer only.
func (q *queue) pop() (Event, bool) {
	h := q.head.Load()
	if h == q.tail.Load() {
		return Event{}, false
	}
	e := q.buf[h%uint64(len(q.buf))]
	q.head.Store(h + 1)
	return e, true
}

// Onset is where one sound started: its tick, the instant it was aimed
// at (the tick's time plus the offset) and the instant its first sample
// is heard by the mixer's clock, ns on snapshot.Now's clock. These are
// the rows of the bench's sounds.csv (tick,aimed_ns,start_ns).
type Onset struct {
	Tick         uint64
	Aimed, Start int64
}

// startRing hands Onset records from the audio thread to one reader,
// lock-free; when the reader falls behind, new records are dropped and
// counted rather than waited for.
type startRing struct {
	buf     [4096]Onset
	head    atomic.Uint64
	tail    atomic.Uint64
	dropped atomic.Int64
}

func (r *startRing) push(s Onset) {
	t := r.tail.Load()
	if t-r.head.Load() >= uint64(len(r.buf)) {
		r.dropped.Add(1)
		return
	}
	r.buf[t%uint64(len(r.buf))] = s
	r.tail.Store(t + 1)
}

// drain appends every record to dst.
func (r *startRing) drain(dst []Onset) []Onset {
	h, t := r.head.Load(), r.tail.Load()
	for ; h < t; h++ {
		dst = append(dst, r.buf[h%uint64(len(r.buf))])
	}
	r.head.Store(h)
	return dst
}

// StartsHeader is the header line of sounds.csv.
const StartsHeader = "tick,aimed_ns,start_ns\n"

// AppendCSV appends s as a line of sounds.csv. It allocates nothing when
// dst has room.
func (s Onset) AppendCSV(dst []byte) []byte {
	dst = strconv.AppendUint(dst, s.Tick, 10)
	dst = append(dst, ',')
	dst = strconv.AppendInt(dst, s.Aimed, 10)
	dst = append(dst, ',')
	dst = strconv.AppendInt(dst, s.Start, 10)
	return append(dst, '\n')
}
