package snapshot

import (
	"math/bits"
	"sync/atomic"
)

// History is how many snapshots the reader holds: the pair it draws and
// the two before it, for a frame whose moment reaches back past the pair
// (an interpolation delay, or an even catch-up after a stall).
const History = 4

// ringSize is the number of snapshot buffers. At any moment the reader may
// hold History of them, the History newest published ones may be as many
// others, and the writer fills one more: with 2*History+1 the writer
// always finds a free buffer and never waits.
const ringSize = 2*History + 1

// none marks an empty index field in the state word.
const none = 0xF

// The state word packs, from the low bits, eight 4-bit buffer indices and
// a count:
//
//	bits  0-15  pub[0..3]:  the newest published buffer, the one before, ...
//	bits 16-31  held[0..3]: the reader's newest, the one before, ...
//	bits 32-63  the number of publishes so far
//
// Every change is one compare-and-swap of the whole word, so the reader
// takes the newest four and releases its old four atomically, and the
// writer shifts the published ones along in the same step as it
// publishes.
const (
	shiftPub  = 0
	shiftHeld = 16
	shiftSeq  = 32
)

func pub(i int) uint  { return shiftPub + 4*uint(i) }
func held(i int) uint { return shiftHeld + 4*uint(i) }

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
	hist [History]*Snapshot
}

// NewRing returns an empty ring.
func NewRing() *Ring {
	r := &Ring{writing: -1}
	var w uint64
	for i := range History {
		w = setField(w, pub(i), none)
		w = setField(w, held(i), none)
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
	if free := ^used(w) & (1<<ringSize - 1); free != 0 {
		// The reader only ever takes published buffers, and only the
		// writer publishes, so this buffer stays free until it is
		// published.
		r.writing = bits.TrailingZeros16(free)
		return &r.bufs[r.writing]
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
		w := old
		for i := History - 1; i > 0; i-- {
			w = setField(w, pub(i), field(old, pub(i-1)))
		}
		w = setField(w, pub(0), r.writing)
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
// curr are the same snapshot. It also takes the two published before prev,
// which [Ring.History] returns with the pair.
//
// The snapshots stay valid, unchanged, until the next Acquire, which
// releases them. Reader only.
func (r *Ring) Acquire() (prev, curr *Snapshot, fresh bool) {
	for {
		old := r.state.Load()
		seq := old >> shiftSeq
		var idx [History]int
		for i := range History {
			idx[i] = field(old, pub(i))
			if idx[i] == none {
				if i == 0 {
					return nil, nil, false
				}
				idx[i] = idx[i-1] // fewer published: repeat the oldest
			}
		}
		if seq == r.seen {
			// Nothing new: the held ones are already the newest.
			return r.hist[History-2], r.hist[History-1], false
		}
		w := old
		for i := range History {
			w = setField(w, held(i), idx[i])
		}
		if r.state.CompareAndSwap(old, w) {
			r.seen = seq
			for i := range History {
				r.hist[History-1-i] = &r.bufs[idx[i]]
			}
			return r.hist[History-2], r.hist[History-1], true
		}
	}
}

// History returns the snapshots the last Acquire took, oldest first: the
// two before its pair, then prev and curr. With fewer published, the
// oldest repeats. All nil before the first publish. Reader only.
func (r *Ring) History() [History]*Snapshot { return r.hist }

// used returns the set of buffers published or held in state word w, one
// bit each (bit none, for an empty field, falls outside the ring).
func used(w uint64) uint16 {
	var m uint16
	for j := range 2 * History {
		m |= 1 << (w >> (4 * uint(j)) & 0xF)
	}
	return m
}

// Published returns the number of snapshots published so far. Any thread.
func (r *Ring) Published() uint64 { return r.state.Load() >> shiftSeq }

// Reserve gives every buffer that is not in use room for n sprites, so
// that a writer whose snapshots keep to n sprites allocates nothing from
// then on. Begin takes the lowest free buffer, so the higher ones come
// into use only when the reader holds several at once, which may be
// seconds into a run: without Reserve, their first use allocates then.
// The buffer from Begin, if any, is left to its writer.
//
// Writer only. A free buffer is safe to touch: the reader only takes
// published buffers, and only the writer publishes.
func (r *Ring) Reserve(n int) {
	free := ^used(r.state.Load()) & (1<<ringSize - 1)
	for i := range ringSize {
		if free&(1<<i) == 0 || i == r.writing {
			continue
		}
		sp := &r.bufs[i].Sprites
		keep := sp.Len()
		sp.Resize(max(n, keep))
		sp.Resize(keep)
	}
}
