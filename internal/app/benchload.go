//go:build cgo

package app

import (
	"context"
	"time"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

// benchButton is the button the bench presses and releases to measure
// input latency (a real key, F9, through XTest, or a synthetic event
// every 250 ms); no scene reads it.
const benchButton simthread.Buttons = 1 << 15

// probeSpeed is how fast the probe moves: pixels per second of sim time.
const probeSpeed = 240

// benchLoad is the bench's add-on: the -simcost and -rendercost busy
// work, the -hitch stalls of either thread, and the bench's input, a real key (realinput.go) or a synthetic button
// pushed every 250 ms. A run attaches it only when it measures or loads
// (needsBenchLoad); with no knobs set it costs a few branches a tick.
type benchLoad struct {
	noHooks
	push        func(simthread.Event) bool // into the sim's input queue
	bench       bool                       // the bench measures: its input figures
	simCost     int64
	renderCost  int64
	simStall    stalls
	renderStall stalls
	// The synthetic button: whether it is pushed (the bench's, but for
	// autoplay's runs and the real key's), when next, and whether it is
	// down (the input thread's).
	synthetic  bool
	injectAt   int64
	injectDown bool
	real       *realInput // the real key (nil: the synthetic button)
	presses    []bench.Press
}

// needsBenchLoad reports whether a run of o needs the bench's add-on: it
// measures, or has load knobs.
func needsBenchLoad(o Options) bool {
	l := o.Load
	return o.Measure.Bench || l.SimCost > 0 || l.RenderCost > 0 || len(l.Hitches) > 0
}

// newBenchLoad makes the bench's add-on for a run of o from start,
// pushing its input through push; with -input xtest it starts pressing
// the real key, which it binds in keys to the bench's button.
func newBenchLoad(o Options, start int64, push func(simthread.Event) bool, keys *bindings) *benchLoad {
	b := &benchLoad{push: push, bench: o.Measure.Bench, simCost: int64(o.Load.SimCost), renderCost: int64(o.Load.RenderCost),
		simStall: newStalls(o.Load.Hitches, "sim", start), renderStall: newStalls(o.Load.Hitches, "render", start),
		synthetic: o.Measure.Bench && !o.Autoplay, injectAt: start}
	if o.Measure.Bench && o.Measure.RealInput {
		b.startRealInput(o.World.Seed, keys)
	}
	return b
}

func (b *benchLoad) tick(_ simthread.TickInput, start int64) {
	b.simStall.maybe(start)
	if b.simCost > 0 {
		spinUntil(start + b.simCost)
	}
}

// input pushes the bench's synthetic button when it is due, through the
// same queue as the keyboard.
func (b *benchLoad) input(now int64) int64 {
	if b.real != nil || !b.synthetic {
		return noInput
	}
	if now >= b.injectAt {
		b.injectDown = !b.injectDown
		b.push(simthread.Event{Time: now, Kind: simthread.EventButton, Buttons: benchButton, Down: b.injectDown})
		b.injectAt = now + 250_000_000
	}
	return b.injectAt
}

// frameStart runs the render thread's load, inside the frame.
func (b *benchLoad) frameStart(now int64) {
	b.renderStall.maybe(now)
	if b.renderCost > 0 {
		spinUntil(now + b.renderCost)
	}
}

func (b *benchLoad) stop(int64) { b.presses = b.stopRealInput() }

func (b *benchLoad) summary(sum *Summary, run *bench.Records) { b.pressFigures(sum, run) }

// spinUntil busy-waits on the monotonic clock until t: deterministic CPU
// work of a known length, unlike a sleep, which the OS may stretch.
func spinUntil(t int64) {
	for snapshot.Now() < t {
	}
}

// stalls are one thread's -hitch stalls: each EVERY of wall time, the
// thread spins for DURATION at its next tick or frame.
type stalls struct {
	every, dur []int64
	next       []int64
}

func newStalls(hs []Hitch, who string, start int64) stalls {
	var s stalls
	for _, h := range hs {
		if h.Who == who {
			s.every = append(s.every, int64(h.Every))
			s.dur = append(s.dur, int64(h.Duration))
			s.next = append(s.next, start+int64(h.Every))
		}
	}
	return s
}

// maybe stalls now if a hitch is due; several due at once stall one after
// the other.
func (s *stalls) maybe(now int64) {
	for i, at := range s.next {
		if now >= at {
			spinUntil(snapshot.Now() + s.dur[i])
			for s.next[i] <= now {
				s.next[i] += s.every[i]
			}
		}
	}
}

// garbage keeps the newest of -gcload's objects alive, so that the
// collector has a live heap to mark; being a package variable, it also
// keeps the compiler from putting the objects on the stack.
var garbage [1024][]byte

// gcLoad allocates and drops garbage at mbps megabytes a second, in 4 KiB
// objects, until ctx is done.
func gcLoad(ctx context.Context, mbps float64) {
	const obj, tick = 4096, time.Millisecond
	perTick := mbps * 1e6 * tick.Seconds() / obj
	var owed float64
	i := 0
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for owed += perTick; owed >= 1; owed-- {
			garbage[i%len(garbage)] = make([]byte, obj)
			i++
		}
	}
}
