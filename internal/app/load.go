package app

import (
	"context"
	"time"

	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

// benchButton is the button the bench presses and releases to measure
// input latency (a real key, F9, through XTest, or a synthetic event
// every 250 ms); no scene reads it.
const benchButton simthread.Buttons = 1 << 15

// probeSpeed is how fast the probe moves: pixels per second of sim time.
const probeSpeed = 240

// loadSim wraps the game for the bench: it adds the -simcost busy work and
// the sim's -hitch stalls to every tick, moves the probe, and calls the
// tests' tick hook. With no knobs set it costs one branch per tick.
type loadSim struct {
	simthread.Sim
	hz    int
	ticks uint64
	cost  int64
	stall stalls
	after func() // tests' hook, or nil
	held  bool   // the bench's button is down
}

func (s *loadSim) Step(in simthread.TickInput) {
	start := snapshot.Now()
	s.Sim.Step(in)
	s.ticks++
	s.held = in.Down&benchButton != 0
	s.stall.maybe(start)
	if s.cost > 0 {
		spinUntil(start + s.cost)
	}
	if s.after != nil {
		s.after()
	}
}

// Publish publishes the game's state and the probe: after k ticks it is at
// k*240/hz px, exactly the distance 240 px/s covers in k ticks of sim time.
func (s *loadSim) Publish(dst *snapshot.Snapshot) {
	s.Sim.Publish(dst)
	dst.Probe = float64(s.ticks*probeSpeed) / float64(s.hz)
	dst.ProbeHeld = s.held
}

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
