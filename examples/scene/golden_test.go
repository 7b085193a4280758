package scene

import (
	"testing"

	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/simthread/simtest"
)

// goldenHashes are the demo games' state hashes after a scripted six
// seconds (goldenRun), as amd64 computes them. Recordings made with the
// games check the same hashes, so these values never change. make test
// runs TestGoldenHash on arm64 too, under qemu-user: the same input must
// give the same bits on every machine (no fused multiply-add, no map
// order, no platform math).
var goldenHashes = map[string]uint64{
	"platformer": 0xb992f610b3844515,
	"bunnymark":  0xdc6ddccd3ca0989b,
	"shooter":    0xee3379e1bebcb9f9,
}

// The golden runs: 60 Hz, seed 3, 500 bunnies (in the shooter, bullets in
// flight at most), a 1280 x 720 arena, the demo level.
const (
	goldenHz      = 60
	goldenSeed    = 3
	goldenSprites = 500
	goldenW       = 1280
	goldenH       = 720
)

// detConfig keeps the lag clamp out of the way of 300 ms hitches (see
// simthread's determinism test).
var detConfig = simthread.Config{Hz: 60, MaxLag: 10_000_000_000}

// goldenRun runs sim for six seconds of the scripted play in the coupled
// loop at a steady 60 Hz and returns the ticks run.
func goldenRun(tb testing.TB, sim simthread.Sim) uint64 {
	tb.Helper()
	const end = 6_000_000_000
	ticks, err := simtest.Coupled(sim, detConfig, simtest.Script(11, end, 3), simtest.FrameTimes(1, 60, end, 0))
	if err != nil {
		tb.Fatal(err)
	}
	return ticks
}
