package simthread

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/pprof"
	"sync/atomic"

	"github.com/tandem-engine/tandem/snapshot"
)

// Sim is the world the loop steps. Its methods are called only by the loop's
// goroutine; the world is the loop's alone while it runs.
type Sim interface {
	// Step advances the world by one fixed tick with the tick's input.
	Step(in TickInput)
	// Publish writes the world's camera and sprites into dst. The runner
	// fills the tick and the times. dst holds stale data from an older
	// snapshot: Publish sets every sprite slot.
	Publish(dst *snapshot.Snapshot)
	// Hash returns a hash of the exact bits of the whole world state.
	Hash() uint64
}

// Config configures a [Runner]. The zero value of every field but Hz means
// its default.
type Config struct {
	// Hz is the tick rate, ticks per second of sim time. Required.
	Hz int
	// MaxLag is how far behind its schedule, in wall nanoseconds, the sim
	// may fall before the clamp drops time (slow motion). Default 250 ms.
	MaxLag int64
	// MaxCatchUp caps the ticks run per wake (decoupled) or per frame
	// (coupled). Default 5.
	MaxCatchUp int
	// Clock is the time source. Default: a [RealClock].
	Clock Clock
	// QueueSize is the input queue's capacity. Default 4096.
	QueueSize int
	// HashEvery, when positive, makes every HashEvery-th snapshot carry the
	// world's StateHash (for replays' checkpoints); 0 never.
	HashEvery int
	// Log, when set, records every tick's due, start and end times and
	// every applied input event (the bench reads it after the loop stops).
	Log *Log
	// Recorder, when set, receives every applied input event and a
	// checkpoint of the state hash after Setup (tick 0) and every
	// CheckpointEvery ticks (default:
	// Hz, one second of sim time), for a recording or a replay's check.
	Recorder        Recorder
	CheckpointEvery int
	// Script, when set, replays recorded button input: see [Script].
	Script Script
	// Until, when positive, is the last tick count the loop runs to: at
	// Until ticks it pauses and stays paused (a replay ends there), and
	// Stats.Ended reports it.
	Until uint64
	// Published, when set, is called on the sim thread with each snapshot
	// as it is published, its Tick and Time set, before the renderer can
	// take it: the sound output's Feed hangs here, so every tick's sounds
	// reach the mixer, whichever snapshots the frames show. It must not
	// keep s or block.
	Published func(s *snapshot.Snapshot)
}

// Defaults of [Config].
const (
	DefaultMaxLag     = 250_000_000 // 250 ms
	DefaultMaxCatchUp = 5
	DefaultQueueSize  = 4096
)

// Stats are the loop's running totals, readable from any goroutine.
type Stats struct {
	Ticks     uint64  // ticks run
	SimTime   int64   // sim time of the newest state, ns
	Scale     float64 // effective sim seconds per wall second over about the last second
	Chosen    Ratio   // the chosen time scale
	Paused    bool
	Dropped   int64  // wall ns dropped by the lag clamp, in all
	Clamps    uint64 // times the clamp bit
	Capped    uint64 // wakes or frames that hit the catch-up cap with ticks still due
	LateMax   int64  // the most a tick started after its due time, ns
	InputDrop uint64 // input events dropped because the queue was full
	// InputLate counts events that reached the loop after the tick their
	// stamp belongs to had run (stamped on the main thread, pushed a moment
	// later, while the sim thread ran that tick): each was applied at the
	// next tick instead.
	InputLate uint64
	// InputBad counts events Push refused: an unknown kind or an invalid
	// time scale.
	InputBad uint64
	// Ended reports that the loop reached Config.Until and stopped there.
	Ended bool
}

// Runner runs a [Sim] on a fixed timestep in one of three ways, chosen by
// the first call: decoupled ([Runner.Start]; the engine's decoupled and
// threaded loops both run the sim this way), coupled ([Runner.RunDue]) or
// pipelined ([Runner.StartPipelined]).
type Runner struct {
	cfg   Config
	sim   Sim
	clock Clock
	ring  *snapshot.Ring
	queue *Queue
	wake  chan struct{}

	// Loop-only state.
	sched    Schedule
	input    inputState
	started  bool
	window   scaleWindow
	clamps   uint64
	capped   uint64
	lateMax  int64
	late     uint64 // events applied a tick after their stamp's
	lastDue  int64  // when the last tick run was due
	reserved int    // the sprites every ring buffer has room for

	// Published for Stats, one atomic word each: a reader may see fields
	// from two neighbouring wakes, never a torn field.
	st struct {
		ticks, clamps, capped, inputLate, inputBad atomic.Uint64
		simTime, dropped, lateMax                  atomic.Int64
		scale                                      atomic.Uint64 // float64 bits
		chosen                                     atomic.Uint64 // Num<<32 | Den
		paused, ended                              atomic.Bool
	}

	// The pipelined loop's meeting point: the render thread sends a frame
	// time on job, the sim thread answers on ack when it has run the
	// ticks due by then. Render-thread side: pending, upTo.
	job     chan int64
	ack     chan int
	pending bool
	upTo    int64

	done chan struct{}
	err  error
	mode atomic.Int32
}

const (
	modeNone int32 = iota
	modeDecoupled
	modeCoupled
	modePipelined
)

// New returns a runner for sim. It reports an error for a bad config.
func New(sim Sim, cfg Config) (*Runner, error) {
	if cfg.Hz <= 0 || cfg.Hz > 10_000 {
		return nil, fmt.Errorf("simthread: tick rate %d Hz out of range (use 1 to 10000)", cfg.Hz)
	}
	if cfg.MaxLag == 0 {
		cfg.MaxLag = DefaultMaxLag
	}
	if cfg.MaxLag < 0 {
		return nil, fmt.Errorf("simthread: negative max lag %d ns", cfg.MaxLag)
	}
	if cfg.MaxCatchUp == 0 {
		cfg.MaxCatchUp = DefaultMaxCatchUp
	}
	if cfg.MaxCatchUp < 0 {
		return nil, fmt.Errorf("simthread: negative catch-up cap %d", cfg.MaxCatchUp)
	}
	if cfg.QueueSize == 0 {
		cfg.QueueSize = DefaultQueueSize
	}
	if cfg.CheckpointEvery == 0 {
		cfg.CheckpointEvery = cfg.Hz
	}
	if cfg.CheckpointEvery < 0 {
		return nil, fmt.Errorf("simthread: negative checkpoint interval %d", cfg.CheckpointEvery)
	}
	if cfg.Clock == nil {
		cfg.Clock = NewRealClock()
	}
	r := &Runner{
		cfg:   cfg,
		sim:   sim,
		clock: cfg.Clock,
		ring:  snapshot.NewRing(),
		queue: NewQueue(cfg.QueueSize),
		wake:  make(chan struct{}, 1),
		job:   make(chan int64, 1),
		ack:   make(chan int, 1),
		done:  make(chan struct{}),
	}
	r.window.init(cfg.Hz)
	r.st.scale.Store(math.Float64bits(1))
	r.st.chosen.Store(1<<32 | 1)
	// The state Setup made, before any tick: a replay whose world was set
	// up differently (another level, another build) fails here, not a
	// second of input later.
	r.checkpoint(0)
	return r, nil
}

// Ring returns the ring the runner publishes to. The renderer reads it.
func (r *Runner) Ring() *snapshot.Ring { return r.ring }

// Clock returns the runner's clock.
func (r *Runner) Clock() Clock { return r.clock }

// Push hands an input event to the sim without blocking and reports whether
// it was queued. An event the sim could not apply (an unknown kind, a time
// scale outside 1/64 to 64, a pointer at NaN, an axis out of range) is
// refused here, on the caller's thread, and
// counted in Stats.InputBad, rather than stopping the sim thread later.
// Only one goroutine may push (the one polling input).
func (r *Runner) Push(e Event) bool {
	if !e.Valid() {
		r.st.inputBad.Add(1)
		return false
	}
	ok := r.queue.Push(e)
	if !e.Kind.IsInput() {
		// A paused loop sleeps until an event arrives; wake it.
		select {
		case r.wake <- struct{}{}:
		default:
		}
	}
	return ok
}

// Queued returns the number of input events waiting for the loop. Any
// goroutine.
func (r *Runner) Queued() int { return r.queue.Len() }

// Stats returns the loop's latest totals. Any goroutine; it does not
// allocate.
func (r *Runner) Stats() Stats {
	c := r.st.chosen.Load()
	return Stats{
		Ticks:     r.st.ticks.Load(),
		SimTime:   r.st.simTime.Load(),
		Scale:     math.Float64frombits(r.st.scale.Load()),
		Chosen:    Ratio{int64(c >> 32), int64(c & 0xFFFFFFFF)},
		Paused:    r.st.paused.Load(),
		Dropped:   r.st.dropped.Load(),
		Clamps:    r.st.clamps.Load(),
		Capped:    r.st.capped.Load(),
		LateMax:   r.st.lateMax.Load(),
		InputDrop: r.queue.Dropped(),
		InputLate: r.st.inputLate.Load(),
		InputBad:  r.st.inputBad.Load(),
		Ended:     r.st.ended.Load(),
	}
}

// Start runs the decoupled loop: a new goroutine, locked to its own OS
// thread, owns the sim until ctx is cancelled, and stops within one tick
// of that. Call [Runner.Wait] to wait for it. The first tick is due at
// once. The engine's decoupled and threaded loops run their sim so; their
// frames are internal/app's decoupled.go and threaded.go.
func (r *Runner) Start(ctx context.Context) {
	r.startSimThread(ctx, modeDecoupled, "Start", r.loop)
}

// startSimThread claims the runner for mode and runs body on a new
// goroutine locked to its own OS thread, labelled thread=sim, until it
// returns; [Runner.Wait] waits for that. The sim gets its own thread so
// that its timing does not depend on what the Go scheduler runs beside
// it, and so that the main thread (which GLFW needs) never runs a tick.
func (r *Runner) startSimThread(ctx context.Context, mode int32, name string, body func(context.Context) error) {
	if !r.mode.CompareAndSwap(modeNone, mode) {
		panic("simthread: " + name + " on a runner that already ran")
	}
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		defer close(r.done)
		// Profiles tell the threads apart by this label.
		pprof.Do(ctx, pprof.Labels("thread", "sim"), func(ctx context.Context) {
			r.err = body(ctx)
		})
	}()
}

// Done is closed when the sim's thread has stopped (Start or
// StartPipelined), for a wait with a bound: a tick that never ends never
// closes it.
func (r *Runner) Done() <-chan struct{} { return r.done }

// Wait blocks until the decoupled loop has stopped and returns why. After
// Wait returns, the sim belongs to the caller again.
func (r *Runner) Wait() error {
	<-r.done
	if errors.Is(r.err, context.Canceled) {
		return nil
	}
	return r.err
}

func (r *Runner) loop(ctx context.Context) error {
	done := ctx.Done()
	for {
		r.advance(r.clock.Now(), done)
		if err := ctx.Err(); err != nil {
			return err
		}
		if r.sched.Ready(r.clock.Now()) {
			// The catch-up cap stopped us with ticks still due: yield
			// to the ctx check above and go on without sleeping.
			continue
		}
		r.clock.Wait(r.sched.Due(), r.wake, done)
	}
}

// RunDue is the coupled loop's step, called once per frame: it runs the
// ticks due at time now (at most MaxCatchUp of them), publishing after
// each, and returns the number it ran. The caller then acquires the
// newest pair from the ring and draws: the classic accumulator loop, with
// the accumulator kept as the exact due time of the next tick instead of
// a running float. The engine's coupled loop is internal/app's coupled.go
// (and a fast replay, replay.Fast, steps a recording with it).
func (r *Runner) RunDue(now int64) int {
	if !r.mode.CompareAndSwap(modeNone, modeCoupled) && r.mode.Load() != modeCoupled {
		panic("simthread: RunDue on a runner started decoupled or pipelined")
	}
	return r.advance(now, nil)
}

// advance is the body both loops share: it applies the events due by now
// and runs the ticks due by now, up to the catch-up cap, and returns how
// many ticks it ran. It stops early when done is closed, so a cancelled
// decoupled loop stops within one tick.
func (r *Runner) advance(now int64, done <-chan struct{}) int {
	if !r.started {
		r.started = true
		r.sched = NewSchedule(r.cfg.Hz, now)
	}
	if d := r.sched.Clamp(now, r.cfg.MaxLag); d > 0 {
		r.clamps++
	}
	ran := 0
	for {
		r.drain(now)
		if !r.sched.Ready(now) {
			break
		}
		if ran == r.cfg.MaxCatchUp {
			r.capped++
			break
		}
		if closed(done) {
			break
		}
		if r.ended() {
			// A replay's last tick has run: hold it, paused, whatever
			// the viewer asks for.
			if !r.sched.Paused() {
				r.pause(now)
			}
			break
		}
		r.tick(now)
		ran++
	}
	r.publishStats()
	return ran
}

// closed reports whether done is closed (a nil channel never is).
func closed(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// scaleWindow measures the effective time scale: sim time advanced per
// wall time over the last second or so of ticks, in a fixed ring.
type scaleWindow struct {
	wall, sim []int64
	n, i      int
}

func (w *scaleWindow) init(hz int) {
	n := max(hz, 2)
	w.wall, w.sim = make([]int64, n), make([]int64, n)
}

func (w *scaleWindow) add(wall, sim int64) {
	w.wall[w.i], w.sim[w.i] = wall, sim
	w.i = (w.i + 1) % len(w.wall)
	w.n = min(w.n+1, len(w.wall))
}

func (w *scaleWindow) scale() float64 {
	if w.n < 2 {
		return 1
	}
	newest := (w.i - 1 + len(w.wall)) % len(w.wall)
	oldest := (w.i - w.n + len(w.wall)) % len(w.wall)
	dw := w.wall[newest] - w.wall[oldest]
	if dw <= 0 {
		return 1
	}
	return float64(w.sim[newest]-w.sim[oldest]) / float64(dw)
}
