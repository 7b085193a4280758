package snapshot

import "sync/atomic"

// ringSize is the number of snapshot buffers. At any moment the reader may
// hold two (the pair it is drawing), the newest two published ones may be
// two others, and the writer fills a fifth: with five the writer always
// finds a free buffer and never waits.
const ringSize = 5

// none marks an empty index field in the state word.
const none = 0xF

// The state word packs, from the low bits:
//
//	bits  0-3   latest: the newest published buffer
//	bits  4-7   prev:   the one published before it
//	bits  8-11  held A: the reader's curr
//	bits 12-15  held B: the reader's prev
//	bits 32-63  the number of publishes so far
//
// Every change is one compare-and-swap of the whole word, so the reader
// takes (latest, prev) and releases its old pair atomically, and the writer
// moves latest to prev in the same step as it publishes.
const (
	shiftLatest = 0
	shiftPrev   = 4
	shiftHeldA  = 8
	shiftHeldB  = 12
	shiftSeq    = 32
)

func field(w uint64, shift uint) int { return int(w >> shift & 0xF) }

func setField(w uint64, shift uint, v int) uint64 {
	return w&^(0xF<<shift) | uint64(v)<<shift
}

// Ring is the lock-free hand-off of snapshots from one writer (the sim
// thread) to one reader (the render thread).
//
// The writer never blocks and never waits for the reader; the reader never
// blocks, never sees a snapshot being written, and always gets the two
// newest complete snapshots. Buffers are reused: after the first few
// publishes of a given size, nothing is allocated.
type Ring struct {
	state atomic.Uint64
	_     [56]byte // keep the hot word off the buffers' cache line
	bufs  [ringSize]Snapshot

	// Writer-only state.
	writing int

	// Reader-only state.
	seen uint64
}

// NewRing returns an empty ring.
func NewRing() *Ring {
	r := &Ring{writing: -1}
	var w uint64
	w = setField(w, shiftLatest, none)
	w = setField(w, shiftPrev, none)
	w = setField(w, shiftHeldA, none)
	w = setField(w, shiftHeldB, none)
	r.state.Store(w)
	return r
}

// Begin returns the buffer the writer fills next. It holds the previous
// contents of a buffer that is no longer in use (stale data, useful only for
// its storage): the writer must set every field. Calling Begin twice without
// Publish returns the same buffer.
//
// Writer only.
func (r *Ring) Begin() *Snapshot {
	if r.writing >= 0 {
		return &r.bufs[r.writing]
	}
	w := r.state.Load()
	for i := range ringSize {
		if i != field(w, shiftLatest) && i != field(w, shiftPrev) &&
			i != field(w, shiftHeldA) && i != field(w, shiftHeldB) {
			// The reader only ever takes latest and prev, and only the
			// writer changes those, so this buffer stays free until it is
			// published.
			r.writing = i
			return &r.bufs[i]
		}
	}
	panic("snapshot: no free buffer; the ring's invariant is broken")
}

// Publish makes the buffer from Begin the newest snapshot. It never blocks:
// it retries its compare-and-swap only when the reader changed the word at
// the same moment, which the reader does at most once per frame.
//
// Writer only.
func (r *Ring) Publish() {
	if r.writing < 0 {
		panic("snapshot: Publish without Begin")
	}
	for {
		old := r.state.Load()
		w := setField(old, shiftPrev, field(old, shiftLatest))
		w = setField(w, shiftLatest, r.writing)
		w += 1 << shiftSeq
		if r.state.CompareAndSwap(old, w) {
			break
		}
	}
	r.writing = -1
}

// Acquire returns the two newest published snapshots, the older first, and
// reports whether anything was published since the previous Acquire. Before
// the first publish it returns nil, nil, false; after exactly one, prev and
// curr are the same snapshot.
//
// The pair stays valid, unchanged, until the next Acquire, which releases
// it. Reader only.
func (r *Ring) Acquire() (prev, curr *Snapshot, fresh bool) {
	for {
		old := r.state.Load()
		seq := old >> shiftSeq
		latest, before := field(old, shiftLatest), field(old, shiftPrev)
		if latest == none {
			return nil, nil, false
		}
		if before == none {
			before = latest
		}
		if seq == r.seen {
			// Nothing new: the held pair is already the newest.
			return &r.bufs[field(old, shiftHeldB)], &r.bufs[field(old, shiftHeldA)], false
		}
		w := setField(old, shiftHeldA, latest)
		w = setField(w, shiftHeldB, before)
		if r.state.CompareAndSwap(old, w) {
			r.seen = seq
			return &r.bufs[before], &r.bufs[latest], true
		}
	}
}

// Published returns the number of snapshots published so far. Any thread.
func (r *Ring) Published() uint64 { return r.state.Load() >> shiftSeq }
