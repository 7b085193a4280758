package simthread_test

import (
	"fmt"

	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

// counter is a whole game world: a dot that moves one pixel a tick to the
// right while button 1 is held.
type counter struct{ x, ticks int }

func (c *counter) Step(in simthread.TickInput) {
	c.ticks++
	if in.Down&1 != 0 {
		c.x++
	}
}

func (c *counter) Publish(dst *snapshot.Snapshot) {
	dst.Sprites.Resize(1)
	dst.Sprites.Set(0, 1, 0, float32(c.x), 0, 0, 0, snapshot.White)
}

func (c *counter) Hash() uint64 { return uint64(c.x)<<32 | uint64(c.ticks) }

// A world stepped in the coupled loop on made-up time: input is data with
// a time stamp, applied at the first tick due at or after it, whatever the
// frame times.
func ExampleRunner_RunDue() {
	w := &counter{}
	r, err := simthread.New(w, simthread.Config{Hz: 100, Clock: simthread.NewFakeClock(0)})
	if err != nil {
		panic(err)
	}
	r.Push(simthread.Event{Time: 25_000_000, Kind: simthread.EventButton, Buttons: 1, Down: true})
	r.Push(simthread.Event{Time: 55_000_000, Kind: simthread.EventButton, Buttons: 1, Down: false})
	for _, frame := range []int64{0, 33_000_000, 66_000_000, 100_000_000} {
		ran := r.RunDue(frame)
		_, curr, _ := r.Ring().Acquire()
		fmt.Printf("frame at %3d ms: ran %d ticks, dot at x=%v after %d ticks\n", frame/1e6, ran, curr.Sprites.X[0], curr.Tick)
	}
	// Output:
	// frame at   0 ms: ran 1 ticks, dot at x=0 after 1 ticks
	// frame at  33 ms: ran 3 ticks, dot at x=1 after 4 ticks
	// frame at  66 ms: ran 3 ticks, dot at x=3 after 7 ticks
	// frame at 100 ms: ran 4 ticks, dot at x=3 after 11 ticks
}
