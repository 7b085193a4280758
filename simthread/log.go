package simthread

import "sync/atomic"

// TickRecord is the timing of one tick, on the [snapshot.Now] time base.
type TickRecord struct {
	// Tick is the tick's index: the state it produces has Tick+1 ticks.
	Tick uint64
	// Due is when the schedule wanted the tick to start; Start is when it
	// did, End when its snapshot was published. Start - Due is the tick's
	// lateness (jitter).
	Due, Start, End int64
}

// InputRecord is one input event as the loop applied it.
type InputRecord struct {
	// Stamp is the event's time stamp (when the key went down).
	Stamp int64
	// Tick is the index of the tick that saw it: the first state that can
	// show its effect is that tick's, with Tick+1 ticks.
	Tick uint64
	Kind EventKind
}

// Log records every tick's timing and every applied input event into
// preallocated rings, for the bench. When a ring is full the oldest
// records are overwritten. Recording never allocates.
//
// Threads: the loop writes it (one goroutine at a time). [Log.ReadTicks]
// and [Log.ReadInputs] may be called from one other goroutine while the
// loop runs: the bench reads the records as they come, before the rings
// wrap. [Log.Ticks] and [Log.Inputs] read what is kept once the loop has
// stopped ([Runner.Wait], or the caller's own goroutine for the coupled
// loop).
//
// Each slot is a sequence lock: the writer clears the slot's sequence,
// stores the fields, then stores the record's index+1; a reader that sees
// the same index+1 before and after loading the fields has the record
// whole. Every access is atomic, so that a reader racing the writer is
// not a data race, and a torn record is known and dropped.
type Log struct {
	ticks  []tickSlot
	inputs []inputSlot
	nt, ni atomic.Uint64 // records written so far
}

type tickSlot struct {
	seq             atomic.Uint64 // index+1 of the record held; 0 while it is written
	tick            atomic.Uint64
	due, start, end atomic.Int64
}

type inputSlot struct {
	seq   atomic.Uint64
	stamp atomic.Int64
	tick  atomic.Uint64
	kind  atomic.Uint32
}

// NewLog returns a log that keeps the newest ticks tick records and the
// newest inputs input records (each at least 1).
func NewLog(ticks, inputs int) *Log {
	return &Log{ticks: make([]tickSlot, max(ticks, 1)), inputs: make([]inputSlot, max(inputs, 1))}
}

func (l *Log) tick(r TickRecord) {
	n := l.nt.Load()
	s := &l.ticks[n%uint64(len(l.ticks))]
	s.seq.Store(0)
	s.tick.Store(r.Tick)
	s.due.Store(r.Due)
	s.start.Store(r.Start)
	s.end.Store(r.End)
	s.seq.Store(n + 1)
	l.nt.Store(n + 1)
}

func (l *Log) input(r InputRecord) {
	n := l.ni.Load()
	s := &l.inputs[n%uint64(len(l.inputs))]
	s.seq.Store(0)
	s.stamp.Store(r.Stamp)
	s.tick.Store(r.Tick)
	s.kind.Store(uint32(r.Kind))
	s.seq.Store(n + 1)
	l.ni.Store(n + 1)
}

// load returns the tick record with index i (the i-th written, from 0),
// if slot s still holds it whole.
func (s *tickSlot) load(i uint64) (TickRecord, bool) {
	if s.seq.Load() != i+1 {
		return TickRecord{}, false
	}
	r := TickRecord{Tick: s.tick.Load(), Due: s.due.Load(), Start: s.start.Load(), End: s.end.Load()}
	return r, s.seq.Load() == i+1
}

func (s *inputSlot) load(i uint64) (InputRecord, bool) {
	if s.seq.Load() != i+1 {
		return InputRecord{}, false
	}
	r := InputRecord{Stamp: s.stamp.Load(), Tick: s.tick.Load(), Kind: EventKind(s.kind.Load())}
	return r, s.seq.Load() == i+1
}

// TicksWritten returns how many tick records have been written so far.
func (l *Log) TicksWritten() uint64 { return l.nt.Load() }

// InputsWritten returns how many input records have been written so far.
func (l *Log) InputsWritten() uint64 { return l.ni.Load() }

// ReadTicks copies tick records, oldest first, from the one with index
// from (the from-th written, counting from 0) into dst, as many as are
// written and fit. Records from on that were overwritten before it read
// them are skipped and counted in lost: dst[:n] holds the records with
// indices from+lost to from+lost+n-1, and the next read starts at
// from+lost+n. It never allocates. See [Log] for who may call it when.
func (l *Log) ReadTicks(dst []TickRecord, from uint64) (n int, lost uint64) {
	return read(l.ticks, &l.nt, dst, from, (*tickSlot).load)
}

// ReadInputs is [Log.ReadTicks] for the input records.
func (l *Log) ReadInputs(dst []InputRecord, from uint64) (n int, lost uint64) {
	return read(l.inputs, &l.ni, dst, from, (*inputSlot).load)
}

// read copies ring's records from index from into dst: see ReadTicks.
// A record overwritten while it is read stops the copy there, so that
// what was copied is contiguous; the next read finds it lost.
func read[S any, T any](ring []S, written *atomic.Uint64, dst []T, from uint64, load func(*S, uint64) (T, bool)) (n int, lost uint64) {
	w, c := written.Load(), uint64(len(ring))
	if w > c && from < w-c {
		lost, from = w-c-from, w-c
	}
	for i := from; i < w && n < len(dst); i++ {
		r, ok := load(&ring[i%c], i)
		if !ok {
			if n > 0 {
				break
			}
			lost++ // overwritten since w was read: the writer lapped us
			continue
		}
		dst[n] = r
		n++
	}
	return n, lost
}

// Ticks returns the kept tick records, oldest first, and how many older
// ones were overwritten. It allocates the result.
func (l *Log) Ticks() (recs []TickRecord, lost uint64) {
	return unroll(l.ticks, l.nt.Load(), (*tickSlot).load)
}

// Inputs returns the kept input records, oldest first, and how many older
// ones were overwritten. It allocates the result.
func (l *Log) Inputs() (recs []InputRecord, lost uint64) {
	return unroll(l.inputs, l.ni.Load(), (*inputSlot).load)
}

// unroll returns ring's records in the order written, given n written.
func unroll[S any, T any](ring []S, n uint64, load func(*S, uint64) (T, bool)) ([]T, uint64) {
	c := uint64(len(ring))
	from := uint64(0)
	if n > c {
		from = n - c
	}
	var out []T
	if n > from {
		out = make([]T, 0, n-from)
	}
	for i := from; i < n; i++ {
		if r, ok := load(&ring[i%c], i); ok {
			out = append(out, r)
		}
	}
	return out, from
}
