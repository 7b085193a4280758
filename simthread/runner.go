package simthread

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
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
	// checkpoint of the state hash every CheckpointEvery ticks (default:
	// Hz, one second of sim time), for a recording or a replay's check.
	Recorder        Recorder
	CheckpointEvery int
	// Script, when set, replays recorded button input: see [Script].
	Script Script
	// Until, when positive, is the last tick count the loop runs to: at
	// Until ticks it pauses and stays paused (a replay ends there), and
	// Stats.Ended reports it.
	Until uint64
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

// Runner runs a [Sim] on a fixed timestep in one of three loops, chosen by
// the first call: decoupled ([Runner.Start]), coupled ([Runner.RunDue]) or
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
// once.
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

// StartPipelined runs the pipelined loop, the design Bevy ships as
// "pipelined rendering": a goroutine locked to its own OS thread owns the
// sim, and runs the ticks due for frame N+1 while the render thread draws
// frame N. The two threads meet once per frame ([Runner.Meet], then
// [Runner.Hand]), so neither runs more than one frame ahead of the other.
// It stops when ctx is cancelled; call [Runner.Wait] to wait for it.
func (r *Runner) StartPipelined(ctx context.Context) {
	r.startSimThread(ctx, modePipelined, "StartPipelined", r.pipeline)
}

// pipeline is the pipelined loop's body: run the ticks due by each time
// handed over, and answer with how many ran.
func (r *Runner) pipeline(ctx context.Context) error {
	done := ctx.Done()
	for {
		select {
		case now := <-r.job:
			// ack has room: the render thread sends one job and takes its
			// answer before it sends the next.
			r.ack <- r.advance(now, done)
		case <-done:
			return ctx.Err()
		}
	}
}

// Meet waits until the sim thread has run the ticks due by the time last
// given to [Runner.Hand], and returns that time and the number of ticks it
// ran: the snapshots in the ring are then complete up to that time, and
// the frame shows that moment. Before the first Hand it returns 0, 0.
// Once the loop has stopped it does not wait, and returns the ticks run
// for the last Hand, if the loop took it before stopping, else 0.
// Render thread only, once per frame, before [Ring.Acquire].
func (r *Runner) Meet() (upTo int64, ran int) {
	if r.pending {
		select {
		case ran = <-r.ack:
		case <-r.done:
			// The loop has returned: exactly one of its answer and the
			// job it never took is buffered. Take it, so that the next
			// Hand has room.
			select {
			case ran = <-r.ack:
			case <-r.job:
			}
		}
		r.pending = false
	}
	return r.upTo, ran
}

// Hand gives the sim thread the frame time now: it runs the ticks due by
// then while the caller draws. Render thread only, once per frame, after
// [Runner.Meet] and [Ring.Acquire].
func (r *Runner) Hand(now int64) {
	if r.pending {
		panic("simthread: Hand without Meet")
	}
	r.job <- now
	r.pending, r.upTo = true, now
}

// RunDue is the coupled loop's step, called once per frame: it runs the
// ticks due at time now (at most MaxCatchUp of them), publishing after
// each, and returns the number it ran. The caller then acquires the newest pair from the ring and
// draws: the classic accumulator loop, with the accumulator kept as the
// exact due time of the next tick instead of a running float.
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

// drain applies, in order, every queued event that belongs to the next
// tick's window: stamped at or before both the tick's due time and now.
// Control events move the due time, so the limit is recomputed each time.
func (r *Runner) drain(now int64) {
	for {
		e, ok := r.queue.peek()
		if !ok || e.Time > min(r.sched.Due(), now) {
			return
		}
		r.apply(e)
		r.queue.pop()
	}
}

// lateEvent reports whether e's tick has already run: the event applies
// to the first tick due at or after its stamp, and the last tick run was
// due at or after it. It is then applied at the next tick, and counted.
func (r *Runner) lateEvent(e *Event) bool {
	return r.sched.Tick() > 0 && !r.sched.Paused() && e.Time <= r.lastDue
}

func (r *Runner) apply(e *Event) {
	if r.lateEvent(e) {
		r.late++
	}
	if r.cfg.Log != nil {
		r.cfg.Log.input(InputRecord{Stamp: e.Time, Tick: r.sched.Tick(), Kind: e.Kind})
	}
	if r.cfg.Recorder != nil {
		r.cfg.Recorder.Applied(r.sched.Tick(), *e)
	}
	switch e.Kind {
	case EventButton, EventPointer, EventAxis:
		if r.cfg.Script == nil {
			r.input.apply(e)
		}
	case EventPause:
		r.pause(e.Time)
	case EventResume:
		r.sched.Resume(e.Time)
	case EventTogglePause:
		if r.sched.Paused() {
			r.sched.Resume(e.Time)
		} else {
			r.pause(e.Time)
		}
	case EventStep:
		r.sched.Step(e.Time)
	case EventScale:
		r.sched.SetScale(e.Time, e.Scale)
	}
}

// pause stops the schedule and republishes the current state as paused, so
// the renderer shows it fully instead of waiting for a successor.
func (r *Runner) pause(t int64) {
	r.sched.Pause(t)
	if r.sched.Tick() > 0 {
		r.publish(t, t)
	}
}

// tick runs one fixed tick and publishes its state. It is the unit a
// profiler label or trace region wraps.
func (r *Runner) tick(now int64) {
	if trace.IsEnabled() {
		defer trace.StartRegion(context.Background(), "tick").End()
	}
	due := r.sched.Due()
	r.lastDue = due
	if late := now - due; late > r.lateMax {
		r.lateMax = late
	}
	k, start := r.sched.Tick(), now
	if r.cfg.Log != nil {
		// In a catch-up burst, now is the wake's time: read when this
		// tick really starts.
		start = r.clock.Now()
	}
	r.scripted(k)
	r.sim.Step(r.input.take())
	r.sched.Advance()
	// A tick that left the sim more than MaxLag behind (every tick over
	// its budget: overload) has the clamp drop the time now rather than at
	// the next advance, so that Next is when the next tick is really due:
	// the renderer then blends each pair over the wall time the sim really
	// took, as smooth slow motion, instead of reaching each snapshot at
	// its promised time and holding it until the late successor comes.
	if r.sched.Clamp(r.clock.Now(), r.cfg.MaxLag) > 0 {
		r.clamps++
	}
	r.checkpoint(k + 1)
	next := r.sched.Due()
	if next == math.MaxInt64 {
		next = due // paused: nothing follows, show this state as it is
	}
	published := r.publish(due, next)
	r.window.add(published, r.sched.SimTime(r.sched.Tick()))
	if r.cfg.Log != nil {
		r.cfg.Log.tick(TickRecord{Tick: k, Due: due, Start: start, End: published})
	}
}

// publish fills the next ring buffer from the sim, publishes it, and
// returns when it did.
func (r *Runner) publish(due, next int64) int64 {
	s := r.ring.Begin()
	r.sim.Publish(s)
	if n := s.Sprites.Len(); n > r.reserved {
		// The world grew (or this is the first publish): make room in
		// every ring buffer now rather than at each one's first use.
		r.ring.Reserve(n)
		r.reserved = n
	}
	k := r.sched.Tick()
	s.Tick = k
	s.SimTime = r.sched.SimTime(k)
	s.Time, s.Next = due, next
	s.Paused = r.sched.Paused()
	s.TimeScale = r.window.scale()
	if s.Paused {
		s.TimeScale = 0
	}
	s.StateHash = 0
	if r.cfg.HashEvery > 0 && k%uint64(r.cfg.HashEvery) == 0 {
		s.StateHash = r.sim.Hash()
	}
	t := r.clock.Now()
	s.Published = t
	r.ring.Publish() // s is the reader's from here on
	return t
}

// publishStats makes the loop's totals visible to other goroutines.
func (r *Runner) publishStats() {
	k := r.sched.Tick()
	r.st.ticks.Store(k)
	r.st.simTime.Store(r.sched.SimTime(k))
	sc := r.window.scale()
	if r.sched.Paused() {
		sc = 0
	}
	r.st.scale.Store(math.Float64bits(sc))
	c := r.sched.Scale()
	r.st.chosen.Store(uint64(c.Num)<<32 | uint64(c.Den))
	r.st.paused.Store(r.sched.Paused())
	r.st.dropped.Store(r.sched.Dropped())
	r.st.clamps.Store(r.clamps)
	r.st.capped.Store(r.capped)
	r.st.lateMax.Store(r.lateMax)
	r.st.inputLate.Store(r.late)
	r.st.ended.Store(r.ended())
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
