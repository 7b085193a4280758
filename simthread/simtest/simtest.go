package simtest

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"

	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

// Script returns a reproducible sequence of events over [0, end): presses
// and releases of the first nbuttons buttons at random moments, plus a
// pause with two single steps, a resume, and time-scale changes.
func Script(seed uint64, end int64, nbuttons int) []simthread.Event {
	rng := rand.New(rand.NewPCG(seed, 1))
	var ev []simthread.Event
	for t := int64(0); t < end; t += rng.Int64N(40_000_000) + 1 {
		b := simthread.Buttons(1) << rng.IntN(nbuttons)
		ev = append(ev, simthread.Event{Time: t, Kind: simthread.EventButton, Buttons: b, Down: rng.IntN(2) == 0})
	}
	ev = append(ev,
		simthread.Event{Time: end / 5, Kind: simthread.EventScale, Scale: simthread.Ratio{Num: 1, Den: 4}},
		simthread.Event{Time: end / 4, Kind: simthread.EventScale, Scale: simthread.Ratio{Num: 2, Den: 1}},
		simthread.Event{Time: end / 3, Kind: simthread.EventPause},
		simthread.Event{Time: end/3 + 50_000_000, Kind: simthread.EventStep},
		simthread.Event{Time: end/3 + 90_000_000, Kind: simthread.EventStep},
		simthread.Event{Time: end/3 + 300_000_000, Kind: simthread.EventTogglePause},
		simthread.Event{Time: end / 2, Kind: simthread.EventScale, Scale: simthread.RealTime},
	)
	// The producer stamps in order; keep equal stamps in script order.
	slices.SortStableFunc(ev, func(a, b simthread.Event) int {
		return int(min(max(a.Time-b.Time, -1), 1))
	})
	return ev
}

// FrameTimes returns render frame times at hz over [0, end), with a random
// hitch of 0 to maxHitch ns after one frame in twenty, and end last.
func FrameTimes(seed uint64, hz int, end, maxHitch int64) []int64 {
	rng := rand.New(rand.NewPCG(seed, uint64(hz)))
	var ft []int64
	for t := int64(0); t < end; {
		ft = append(ft, t)
		t += 1_000_000_000 / int64(hz)
		if rng.IntN(20) == 0 {
			t += rng.Int64N(maxHitch + 1)
		}
	}
	return append(ft, end)
}

// Coupled runs sim in the coupled loop: at each frame time it pushes the
// events that have happened by then and runs the frame, then finishes the
// ticks due at the last frame time. It returns the number of ticks run.
func Coupled(sim simthread.Sim, cfg simthread.Config, events []simthread.Event, frames []int64) (uint64, error) {
	cfg.Clock = simthread.NewFakeClock(0)
	r, err := simthread.New(sim, cfg)
	if err != nil {
		return 0, err
	}
	i := 0
	for _, f := range frames {
		for ; i < len(events) && events[i].Time <= f; i++ {
			r.Push(events[i])
		}
		r.RunDue(f)
	}
	for r.RunDue(frames[len(frames)-1]) > 0 {
	}
	return r.Stats().Ticks, nil
}

// Pipelined runs sim in the pipelined loop: at each frame time it pushes
// the events that have happened by then, meets the sim thread and hands it
// the frame time, as the render thread does; then it finishes the ticks due
// at the last frame time. It returns the number of ticks run.
func Pipelined(sim simthread.Sim, cfg simthread.Config, events []simthread.Event, frames []int64) (uint64, error) {
	cfg.Clock = simthread.NewFakeClock(0)
	r, err := simthread.New(sim, cfg)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.StartPipelined(ctx)
	i := 0
	for _, f := range frames {
		for ; i < len(events) && events[i].Time <= f; i++ {
			r.Push(events[i])
		}
		r.Meet()
		r.Hand(f)
	}
	for {
		if _, ran := r.Meet(); ran == 0 {
			break
		}
		r.Hand(frames[len(frames)-1])
	}
	cancel()
	if err := r.Wait(); err != nil {
		return 0, err
	}
	return r.Stats().Ticks, nil
}

// Decoupled runs sim in the decoupled loop on a manual fake clock that
// moves to each frame time in turn, after the events that have happened by
// then are pushed: input reaches the sim before time moves past it, as it
// does from a real window. It returns the number of ticks run.
func Decoupled(sim simthread.Sim, cfg simthread.Config, events []simthread.Event, frames []int64) (uint64, error) {
	clk := simthread.NewFakeClock(0)
	cfg.Clock = clk
	r, err := simthread.New(sim, cfg)
	if err != nil {
		return 0, err
	}
	// The first tick is due at once: push the first frame's events first.
	i := 0
	for ; i < len(events) && events[i].Time <= frames[0]; i++ {
		r.Push(events[i])
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	for _, f := range frames {
		for ; i < len(events) && events[i].Time <= f; i++ {
			r.Push(events[i])
		}
		clk.Set(f)
		clk.BlockUntilWaiting()
	}
	// Let the loop drain everything due before stopping it.
	end := frames[len(frames)-1]
	for {
		clk.BlockUntilWaiting()
		if d, ok := clk.Deadline(); ok && d > end && r.Queued() == 0 {
			break
		}
		runtime.Gosched()
	}
	cancel()
	if err := r.Wait(); err != nil {
		return 0, err
	}
	return r.Stats().Ticks, nil
}

// HashSim is a test world whose hash folds in every tick's input, so two
// runs agree only if every event landed on the same tick. It publishes no
// sprites.
type HashSim struct{ h, ticks uint64 }

var _ simthread.Sim = (*HashSim)(nil)

// Step implements simthread.Sim.
func (s *HashSim) Step(in simthread.TickInput) {
	s.ticks++
	s.h ^= uint64(in.Down) | uint64(in.Pressed)<<20 | uint64(in.Released)<<40
	s.h = (s.h ^ s.ticks) * 0x100000001b3
	if in.HasPointer {
		s.h = (s.h ^ uint64(math.Float32bits(in.PointerX))<<32 ^ uint64(math.Float32bits(in.PointerY))) * 0x100000001b3
	}
	for i, a := range in.Axes {
		s.h = (s.h ^ uint64(math.Float32bits(a))<<8 ^ uint64(i)) * 0x100000001b3
	}
}

// Publish implements simthread.Sim.
func (s *HashSim) Publish(dst *snapshot.Snapshot) { dst.Sprites.Resize(0) }

// Hash implements simthread.Sim.
func (s *HashSim) Hash() uint64 { return s.h }
