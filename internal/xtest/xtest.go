package xtest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/tandem-engine/tandem/snapshot"
)

// Keysym is an X keysym (X11/keysymdef.h): the symbol a key types, which
// the injector looks up in the server's keymap to find the key to press.
type Keysym uint32

// F9 is the keysym of the F9 key (XK_F9).
const F9 Keysym = 0xffc6

// DefaultKey is the key the latency bench presses: F9. Nothing in tandem
// reads it (the engine's own keys are Escape, P, Period, F3, F11, F12 and
// the brackets; the default bindings are Left, Right, Up, A, D, W, Z and
// Space), so presses disturb no game, yet a game can bind it by name
// ("F9") to show a response. It is the same key on every layout, where a
// letter moves (Z and W swap places on AZERTY), and GLFW reports it as its
// F9 key.
const DefaultKey = F9

// ErrUnavailable is wrapped by Open's error when no key press can be
// injected: no X display, or one without XTEST. The caller can fall back to
// synthetic input.
var ErrUnavailable = errors.New("cannot inject key presses")

// Stamp says when one fake key event was sent, on snapshot.Now()'s time
// base (integer nanoseconds of CLOCK_MONOTONIC), so that it compares with
// the times window stamps GLFW's input with.
//
// The server handles the event somewhere in (At, Acked]: GLFW cannot see
// it before At, and Xorg's servers (Xorg, Xvfb) have passed it to the
// focused window's client by Acked, as they hand XTEST's events on within
// the request itself.
type Stamp struct {
	// At is read just before the request is handed to the connection,
	// which writes it to the server's socket at once: no later than the
	// earliest moment the server can see the event, so every consequence
	// of it comes later. It is the moment a latency counts from. (Read
	// after the write instead, it could follow GLFW's callback: the write
	// wakes the server, which can run first.)
	At int64
	// Acked is read after the round trip that checks the request: the
	// server has processed it. Acked-At bounds when the server took the
	// event.
	Acked int64
}

// Event is one key edge an Injector sent.
type Event struct {
	Down bool // a press; false for a release
	Stamp
}

// Injector presses keys on an X server through the XTEST extension, over
// an X connection of its own (not GLFW's): the server treats its events as
// a keyboard's, and sends them to the window that has the keyboard focus.
type Injector struct {
	mu   sync.Mutex
	x    *conn // nil once closed
	down map[Keysym]bool
	run  *Runner
}

// Open connects to X display display ("" for $DISPLAY) and checks that it
// has the XTEST extension. Without a display, or without XTEST, the error
// wraps ErrUnavailable, names the display and says what to do. Close the
// Injector when done.
//
// Any goroutine.
func Open(display string) (*Injector, error) {
	x, err := openConn(display)
	if err != nil {
		return nil, err
	}
	return &Injector{x: x, down: map[Keysym]bool{}}, nil
}

// noDisplayError is Open's error for "" with DISPLAY unset.
func noDisplayError() error {
	wayland := ""
	if os.Getenv("WAYLAND_DISPLAY") != "" {
		wayland = " (this is a Wayland session: without Xwayland there is no X server to inject into)"
	}
	return fmt.Errorf("xtest: %w: DISPLAY is not set%s: run under an X server (xvfb-run), or fall back to synthetic input",
		ErrUnavailable, wayland)
}

// Press presses key and returns when the server has processed the press;
// see Stamp for the two moments it returns.
//
// Any goroutine; calls are serialized with the Injector's other methods.
// It blocks for one round trip to the server.
func (in *Injector) Press(key Keysym) (Stamp, error) { return in.send(key, true) }

// Release releases key, like Press.
//
// Any goroutine; calls are serialized with the Injector's other methods.
func (in *Injector) Release(key Keysym) (Stamp, error) { return in.send(key, false) }

func (in *Injector) send(key Keysym, down bool) (Stamp, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.x == nil {
		return Stamp{}, errClosed
	}
	code, err := in.x.keycode(key)
	if err != nil {
		return Stamp{}, err
	}
	return in.fake(key, code, down)
}

// fake sends one edge of key, on keycode code, with in.mu held.
func (in *Injector) fake(key Keysym, code uint32, down bool) (Stamp, error) {
	st, err := in.x.fake(code, down)
	if err == nil {
		in.down[key] = down
	}
	return st, err
}

// sendCode is a Runner's edge: key's code was looked up once at Start, as
// a lookup reads the whole keymap (and allocates) on every call.
func (in *Injector) sendCode(key Keysym, code uint32, down bool) (Stamp, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.x == nil {
		return Stamp{}, errClosed
	}
	return in.fake(key, code, down)
}

var errClosed = errors.New("xtest: the injector is closed: Open another")

// Source names the injector: "xtest" (XTEST on an X server) or
// "sendinput" (Windows' SendInput), as the bench's input_source says it.
//
// Any goroutine.
func (in *Injector) Source() string { return source }

// Focus gives the keyboard focus to the visible window of process pid (as
// its _NET_WM_PID says: GLFW sets it), so that the injected keys go there.
// On a server without a window manager (Xvfb), the last window GLFW
// showed has the focus until another is shown; Focus takes it back. A
// window manager may refuse: the error then says so.
//
// Any goroutine; calls are serialized with the Injector's other methods.
func (in *Injector) Focus(pid int) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.x == nil {
		return errClosed
	}
	return in.x.focus(pid)
}

// FocusedPID returns the process whose window the keys go to now (the
// focused window's, or with the focus on the root, the window's under the
// pointer), 0 when that is unknown (no window, or one without
// _NET_WM_PID). A caller checks that it is its own before trusting that
// its presses reach its window.
//
// Any goroutine; calls are serialized with the Injector's other methods.
func (in *Injector) FocusedPID() (int, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.x == nil {
		return 0, errClosed
	}
	return in.x.focused()
}

// Close stops a running Runner (its Stop still returns its events),
// releases the keys it left pressed, which the server would otherwise keep
// down, and closes the connection. Later calls return an error; Close
// again does nothing.
//
// Any goroutine.
func (in *Injector) Close() error {
	in.mu.Lock()
	r := in.run
	in.mu.Unlock()
	if r != nil {
		r.Stop()
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.x == nil {
		return nil
	}
	var errs []error
	for key, down := range in.down {
		if down {
			code, err := in.x.keycode(key)
			if err == nil {
				_, err = in.x.fake(code, false)
			}
			errs = append(errs, err)
		}
	}
	in.x.close()
	in.x = nil
	return errors.Join(errs...)
}

// Schedule says how a Runner presses its key.
type Schedule struct {
	Key  Keysym // the key to press; 0 is DefaultKey
	Seed uint64 // the same seed draws the same gaps
	// Each press and each release comes a gap after the previous one (or
	// after Start), drawn uniformly from [MinGap, MaxGap] to the
	// nanosecond: the moments follow no frame grid. A key held longer
	// than the server's autorepeat delay (660 ms on Xorg and Xvfb)
	// repeats, which GLFW reports as repeats.
	MinGap, MaxGap time.Duration
}

// gaps returns the generator of s's gaps, seeded with s.Seed.
func (s Schedule) gaps() func() time.Duration {
	rng := rand.New(rand.NewPCG(s.Seed, 0x7a6e6465)) // "tand"
	span := int64(s.MaxGap - s.MinGap)
	return func() time.Duration { return s.MinGap + time.Duration(rng.Int64N(span+1)) }
}

// Start starts a Runner that presses and releases s.Key at random moments
// until stopped. One Runner runs at a time; the Injector's own Press and
// Release would interleave with it.
//
// Any goroutine.
func (in *Injector) Start(s Schedule) (*Runner, error) {
	if s.Key == 0 {
		s.Key = DefaultKey
	}
	if s.MinGap <= 0 || s.MaxGap < s.MinGap {
		return nil, fmt.Errorf("xtest: schedule gaps [%v, %v] are not a range of positive durations: set 0 < MinGap <= MaxGap", s.MinGap, s.MaxGap)
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.x == nil {
		return nil, errClosed
	}
	if in.run != nil {
		return nil, errors.New("xtest: a Runner is running on this injector already: Stop it first")
	}
	code, err := in.x.keycode(s.Key)
	if err != nil {
		return nil, err
	}
	run, err := startRunner(func(down bool) (Stamp, error) { return in.sendCode(s.Key, code, down) }, s.gaps())
	if err != nil {
		return nil, err
	}
	in.run = run
	in.run.done = func() {
		in.mu.Lock()
		in.run = nil
		in.mu.Unlock()
	}
	return in.run, nil
}

// Runner presses and releases one key at random moments from a goroutine
// locked to an OS thread of its own, and records when it did. Between
// edges it allocates nothing: its events hold 1,024 edges before they
// grow (about five minutes at the bench's gaps).
type Runner struct {
	wait     *waiter
	finished chan struct{}
	once     sync.Once
	done     func() // called once by Stop, after the runner ended
	events   []Event
	err      error
}

// startRunner starts the runner's goroutine: send sends one key edge,
// gap draws the wait before each.
func startRunner(send func(down bool) (Stamp, error), gap func() time.Duration) (*Runner, error) {
	w, err := newWaiter()
	if err != nil {
		return nil, fmt.Errorf("xtest: the runner's wait: %w", err)
	}
	r := &Runner{wait: w, finished: make(chan struct{}), events: make([]Event, 0, 1024)}
	go r.loop(send, gap)
	return r, nil
}

func (r *Runner) loop(send func(bool) (Stamp, error), gap func() time.Duration) {
	// Locked and never unlocked: the thread serves this runner alone, and
	// ends with it, so no other goroutine's work delays a press. Its waits
	// park it in the netpoller (see waiter): the thread sleeps and its P
	// serves other goroutines until the netpoller wakes it.
	runtime.LockOSThread()
	defer close(r.finished)
	down := false
	last := snapshot.Now()
	for {
		if r.wait.sleep(time.Duration(last + int64(gap()) - snapshot.Now())) {
			if down {
				r.sendOne(send, false)
			}
			return
		}
		st, ok := r.sendOne(send, !down)
		if !ok {
			return
		}
		down = !down
		last = st.At
	}
}

// sendOne sends one edge and records it, or the error.
func (r *Runner) sendOne(send func(bool) (Stamp, error), down bool) (Stamp, bool) {
	st, err := send(down)
	if err != nil {
		r.err = err
		return st, false
	}
	r.events = append(r.events, Event{Down: down, Stamp: st})
	return st, true
}

// Stop stops the runner, releasing the key if it is down, and returns
// every edge it sent, in order, and the error that ended it early, if one
// did. It returns within a millisecond or so (the runner's wait ends at a
// stop); unless an error ended the runner, the last event is a release. Stop again returns the same.
//
// Any goroutine.
func (r *Runner) Stop() ([]Event, error) {
	r.once.Do(func() {
		r.wait.wake()
		<-r.finished
		r.wait.close()
		if r.done != nil {
			r.done()
		}
	})
	return r.events, r.err
}
