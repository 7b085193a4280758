//go:build !linux

package simthread

import (
	"time"

	"github.com/tandem-engine/tandem/snapshot"
)

// sleepSlice is the longest a RealClock sleeps before it looks at its
// channels: a stop is seen within it.
const sleepSlice = 2_000_000 // 2 ms

// defaultSpin absorbs the usual lateness of time.Sleep's wake.
const defaultSpin = 200_000 // 200 µs

// sleeper sleeps with time.Sleep.
type sleeper struct{}

// sleepUntil sleeps until Now() is about t.
func (sleeper) sleepUntil(t int64) { time.Sleep(time.Duration(t - snapshot.Now())) }
