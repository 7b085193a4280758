package simthread

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
// The loop writes it; read it only after the loop has stopped
// ([Runner.Wait], or the caller's own goroutine for the coupled loop).
type Log struct {
	ticks  []TickRecord
	inputs []InputRecord
	nt, ni uint64 // records written so far
}

// NewLog returns a log that keeps the newest ticks tick records and the
// newest inputs input records (each at least 1).
func NewLog(ticks, inputs int) *Log {
	return &Log{ticks: make([]TickRecord, max(ticks, 1)), inputs: make([]InputRecord, max(inputs, 1))}
}

func (l *Log) tick(r TickRecord) {
	l.ticks[l.nt%uint64(len(l.ticks))] = r
	l.nt++
}

func (l *Log) input(r InputRecord) {
	l.inputs[l.ni%uint64(len(l.inputs))] = r
	l.ni++
}

// Ticks returns the kept tick records, oldest first, and how many older
// ones were overwritten. It allocates the result.
func (l *Log) Ticks() (recs []TickRecord, lost uint64) {
	return unroll(l.ticks, l.nt)
}

// Inputs returns the kept input records, oldest first, and how many older
// ones were overwritten. It allocates the result.
func (l *Log) Inputs() (recs []InputRecord, lost uint64) {
	return unroll(l.inputs, l.ni)
}

// unroll returns ring's records in the order written, given n written.
func unroll[T any](ring []T, n uint64) ([]T, uint64) {
	c := uint64(len(ring))
	if n <= c {
		return append([]T(nil), ring[:n]...), 0
	}
	i := n % c
	out := append(append(make([]T, 0, c), ring[i:]...), ring[:i]...)
	return out, n - c
}
