package simthread

import (
	"math"
	"sync/atomic"
)

// Buttons is a set of game buttons, one bit each. Which bit means what is
// the game's business; the engine only tracks them.
type Buttons uint32

// NumAxes is the number of analog axes a tick sees (a gamepad's two
// sticks and two triggers).
const NumAxes = 6

// TickInput is what one tick sees of the input. Of the buttons: those held
// at the end of the tick's window, and those that went down or up at any
// moment inside it. A button pressed and released between two ticks is in
// Pressed and Released but not in Down, so a 5 ms tap is never lost. Of
// the pointer and the analog axes: where they were at the end of the
// window.
type TickInput struct {
	Down, Pressed, Released Buttons
	// PointerX, PointerY is the pointer (the mouse cursor) where the app
	// put it: tandem's app maps the cursor into world pixels through the
	// frame on screen when it moved. HasPointer reports whether it has
	// moved at all yet.
	PointerX, PointerY float32
	HasPointer         bool
	// Axes are the analog axes, -1 to 1, in the order the app maps them
	// (the demo: left stick x, y, right stick x, y, left and right
	// trigger); 0 at rest.
	Axes [NumAxes]float32
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
	// EventPointer moves the pointer to (X, Y).
	EventPointer
	// EventAxis sets analog axis Axis to X.
	EventAxis
)

// IsInput reports whether k is input for the game (buttons, the pointer,
// the axes), as opposed to a control of the loop (pause, step, scale).
func (k EventKind) IsInput() bool {
	return k == EventButton || k == EventPointer || k == EventAxis
}

// Event is one timestamped input for the sim. Time is on the
// [snapshot.Now] base: when the key went down, not when the sim saw it. The
// event applies to the first tick due at or after Time.
type Event struct {
	Time    int64
	Kind    EventKind
	Down    bool
	Buttons Buttons
	Scale   Ratio
	// X, Y are the pointer's position (EventPointer), or X the axis's
	// value (EventAxis); Axis is the axis, below NumAxes.
	X, Y float32
	Axis uint8
}

// Valid reports whether e is an event the loop can apply: a known kind,
// and for the kinds that carry them a valid scale, finite coordinates,
// and an axis below NumAxes with a value from -1 to 1.
func (e *Event) Valid() bool {
	finite := func(v float32) bool { return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) }
	switch e.Kind {
	case EventButton, EventPause, EventResume, EventTogglePause, EventStep:
		return true
	case EventScale:
		return e.Scale.valid()
	case EventPointer:
		return finite(e.X) && finite(e.Y)
	case EventAxis:
		return int(e.Axis) < NumAxes && e.X >= -1 && e.X <= 1
	}
	return false
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

// inputState accumulates input events into the next tick's TickInput.
type inputState struct {
	down, pressed, released Buttons
	in                      TickInput // the pointer and the axes
}

func (s *inputState) apply(e *Event) {
	switch e.Kind {
	case EventPointer:
		s.in.PointerX, s.in.PointerY, s.in.HasPointer = e.X, e.Y, true
		return
	case EventAxis:
		s.in.Axes[e.Axis] = e.X
		return
	}
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
	in := s.in
	in.Down, in.Pressed, in.Released = s.down, s.pressed, s.released
	s.pressed, s.released = 0, 0
	return in
}
