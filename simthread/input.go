package simthread

import (
	"sync/atomic"
)

// Buttons is a set of game buttons, one bit each. Which bit means what is
// the game's business; the engine only tracks them.
type Buttons uint32

// TickInput is what one tick sees of the buttons: those held at the end of the
// tick's window, and those that went down or up at any moment inside it. A
// button pressed and released between two ticks is in Pressed and Released
// but not in Down, so a 5 ms tap is never lost.
type TickInput struct {
	Down, Pressed, Released Buttons
}

// EventKind says what an [Event] does.
type EventKind uint8

const (
	// EventButton sets Buttons down (Down true) or up.
	EventButton EventKind = iota + 1
	// EventPause pauses sim time.
	EventPause
	// EventResume resumes it.
	EventResume
	// EventTogglePause pauses or resumes, whichever applies.
	EventTogglePause
	// EventStep runs one tick while paused.
	EventStep
	// EventScale sets the time scale to Scale.
	EventScale
)

// Event is one timestamped input for the sim. Time is on the
// [snapshot.Now] base: when the key went down, not when the sim saw it. The
// event applies to the first tick due at or after Time.
type Event struct {
	Time    int64
	Kind    EventKind
	Down    bool
	Buttons Buttons
	Scale   Ratio
}

// Queue carries events from one producer (the thread that polls input) to
// the sim loop, without locks. Push never blocks: when the queue is full
// (the sim has been stalled for thousands of events) it drops the event,
// counts it, and reports false.
type Queue struct {
	head atomic.Uint64 // next slot to read; written by the consumer
	_    [56]byte
	tail atomic.Uint64 // next slot to write; written by the producer
	_    [56]byte
	drop atomic.Uint64
	buf  []Event
	mask uint64
}

// NewQueue returns a queue holding up to size events, rounded up to a power
// of two.
func NewQueue(size int) *Queue {
	n := 1
	for n < size {
		n <<= 1
	}
	return &Queue{buf: make([]Event, n), mask: uint64(n - 1)}
}

// Push appends e and reports whether it fit. Producer only.
func (q *Queue) Push(e Event) bool {
	t := q.tail.Load()
	if t-q.head.Load() == uint64(len(q.buf)) {
		q.drop.Add(1)
		return false
	}
	q.buf[t&q.mask] = e
	q.tail.Store(t + 1)
	return true
}

// peek returns the oldest event without removing it. Consumer only.
func (q *Queue) peek() (*Event, bool) {
	h := q.head.Load()
	if h == q.tail.Load() {
		return nil, false
	}
	return &q.buf[h&q.mask], true
}

// pop removes the oldest event. Consumer only, after a successful peek.
func (q *Queue) pop() { q.head.Add(1) }

// Dropped returns how many events Push has dropped. Any thread.
func (q *Queue) Dropped() uint64 { return q.drop.Load() }

// Len returns the number of queued events. Any thread; a snapshot only.
func (q *Queue) Len() int { return int(q.tail.Load() - q.head.Load()) }

// inputState accumulates button events into the next tick's TickInput.
type inputState struct {
	down, pressed, released Buttons
}

func (s *inputState) apply(e *Event) {
	if e.Down {
		s.pressed |= e.Buttons &^ s.down
		s.down |= e.Buttons
	} else {
		s.released |= e.Buttons & s.down
		s.down &^= e.Buttons
	}
}

// take returns the TickInput for the tick about to run and starts the next
// window.
func (s *inputState) take() TickInput {
	in := TickInput{Down: s.down, Pressed: s.pressed, Released: s.released}
	s.pressed, s.released = 0, 0
	return in
}
