package snapshot

import "sync/atomic"

// ringSize is the number of snapshot buffers. At any moment the reader may
// hold three (the pair it is drawing and the one before, for a frame whose
// interpolation delay reaches back past the pair), the newest three
// published ones may be three others, and the writer fills a seventh: with
// seven the writer always finds a free buffer and never waits.
const ringSize = 7

// none marks an empty index field in the state word.
const none = 0xF

// The state word packs, from the low bits:
//
//	bits  0-3   latest: the newest published buffer
//	bits  4-7   prev:   the one published before it
//	bits  8-11  prev2:  the one before that
//	bits 12-15  held A: the reader's curr
//	bits 16-19  held B: the reader's prev
//	bits 20-23  held C: the reader's older
//	bits 32-63  the number of publishes so far
//
// Every change is one compare-and-swap of the whole word, so the reader
// takes (latest, prev, prev2) and releases its old three atomically, and
// the writer shifts latest to prev to prev2 in the same step as it
// publishes.
const (
	shiftLatest = 0
	shiftPrev   = 4
	shiftPrev2  = 8
	shiftHeldA  = 12
	shiftHeldB  = 16
	shiftHeldC  = 20
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
	seen  uint64
	older *Snapshot
}

// NewRing returns an empty ring.
func NewRing() *Ring {
	r := &Ring{writing: -1}
	var w uint64
	for _, s := range []uint{shiftLatest, shiftPrev, shiftPrev2, shiftHeldA, shiftHeldB, shiftHeldC} {
		w = setField(w, s, none)
	}
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
		if i != field(w, shiftLatest) && i != field(w, shiftPrev) && i != field(w, shiftPrev2) &&
			i != field(w, shiftHeldA) && i != field(w, shiftHeldB) && i != field(w, shiftHeldC) {
			// The reader only ever takes latest, prev and prev2, and only
			// the writer changes those, so this buffer stays free until
			// it is published.
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
		w := setField(old, shiftPrev2, field(old, shiftPrev))
		w = setField(w, shiftPrev, field(old, shiftLatest))
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
// curr are the same snapshot. It also takes the snapshot published before
// prev, which [Ring.Older] returns.
//
// The snapshots stay valid, unchanged, until the next Acquire, which
// releases them. Reader only.
func (r *Ring) Acquire() (prev, curr *Snapshot, fresh bool) {
	for {
		old := r.state.Load()
		seq := old >> shiftSeq
		latest, before, older := field(old, shiftLatest), field(old, shiftPrev), field(old, shiftPrev2)
		if latest == none {
			return nil, nil, false
		}
		if before == none {
			before = latest
		}
		if older == none {
			older = before
		}
		if seq == r.seen {
			// Nothing new: the held three are already the newest.
			return &r.bufs[field(old, shiftHeldB)], &r.bufs[field(old, shiftHeldA)], false
		}
		w := setField(old, shiftHeldA, latest)
		w = setField(w, shiftHeldB, before)
		w = setField(w, shiftHeldC, older)
		if r.state.CompareAndSwap(old, w) {
			r.seen = seq
			r.older = &r.bufs[older]
			return &r.bufs[before], &r.bufs[latest], true
		}
	}
}

// Older returns the snapshot published before the prev of the last
// Acquire, held with it (prev itself when there is none): a frame whose
// moment falls before curr's due time interpolates from Older to prev.
// Nil before the first publish. Reader only.
func (r *Ring) Older() *Snapshot { return r.older }

// Published returns the number of snapshots published so far. Any thread.
func (r *Ring) Published() uint64 { return r.state.Load() >> shiftSeq }
