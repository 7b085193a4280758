package snapshot_test

import (
	"fmt"

	"github.com/tandem-engine/tandem/snapshot"
)

// The hand-off and the interpolation, both sides on one goroutine for the
// example: the sim publishes a snapshot per tick (10 ms apart here), the
// render side takes the newest pair once per frame and draws the moment
// its clock says, between them.
func ExampleInterpolator() {
	ring := snapshot.NewRing()
	publish := func(tick uint64, x float32) {
		s := ring.Begin()
		s.Tick, s.Time, s.Next = tick, int64(tick)*10_000_000, int64(tick+1)*10_000_000
		s.SimTime, s.TimeScale = s.Time, 1
		s.Camera = snapshot.Camera{Zoom: 1}
		s.Sprites.Resize(1)
		s.Sprites.Set(0, 7, 0, x, 0, 0, 0, snapshot.White)
		ring.Publish()
	}
	var ip snapshot.Interpolator
	var shown snapshot.Sprites
	publish(1, 100)
	publish(2, 110)
	for _, now := range []int64{20_000_000, 22_500_000, 27_500_000} {
		prev, curr, _ := ring.Acquire()
		v := ip.View(prev, curr, now)
		snapshot.Interpolate(&shown, prev, curr, v.Alpha)
		fmt.Printf("at %4.1f ms: alpha %.2f, sprite 7 at x=%.1f\n", float64(now)/1e6, v.Alpha, shown.X[0])
	}
	// Output:
	// at 20.0 ms: alpha 0.00, sprite 7 at x=100.0
	// at 22.5 ms: alpha 0.25, sprite 7 at x=102.5
	// at 27.5 ms: alpha 0.75, sprite 7 at x=107.5
}
