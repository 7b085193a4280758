package scene

import (
	"runtime"
	"testing"

	"github.com/tandem-engine/tandem/physics"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/simthread/simtest"
	"github.com/tandem-engine/tandem/snapshot"
)

// goldenHashes are the demo games' state hashes after a scripted six
// seconds (goldenRun), as amd64 computes them. Recordings made with the
// games check the same hashes, so these values never change. make test
// runs TestGoldenHashCore on arm64 too, under qemu-user: the same input
// must give the same bits on every machine (no fused multiply-add, no map
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

// coreSim steps a game's simulation as its Tick does, without the engine
// (package tandem needs cgo, which an arm64 cross-build has not): the
// platformer's or the bunnymark's stage, or the shooter.
type coreSim struct {
	st        *stage
	bunnymark bool // the stage reads no input
	sh        *shooter
}

var _ simthread.Sim = (*coreSim)(nil)

// newCoreSim returns the simulation of the game called name with the
// golden runs' parameters.
func newCoreSim(tb testing.TB, name string) *coreSim {
	tb.Helper()
	switch name {
	case "shooter":
		return &coreSim{sh: newShooter(goldenW, goldenH, goldenHz, goldenSeed, goldenSprites)}
	case "bunnymark":
		l, err := arena(goldenW, goldenH)
		if err != nil {
			tb.Fatal(err)
		}
		st, err := newStage(l, goldenHz, goldenSeed, goldenSprites, true)
		if err != nil {
			tb.Fatal(err)
		}
		return &coreSim{st: st, bunnymark: true}
	}
	st, err := newStage(loadDemo(tb), goldenHz, goldenSeed, goldenSprites, false)
	if err != nil {
		tb.Fatal(err)
	}
	return &coreSim{st: st}
}

// Step implements simthread.Sim with the demo's buttons: bits 0, 1 and 2
// are Left, Right and Jump (tandem.Left, Right and Jump).
func (c *coreSim) Step(in simthread.TickInput) {
	left, right, jump := in.Down&1 != 0, in.Down&2 != 0, in.Down&4 != 0
	switch {
	case c.sh != nil:
		c.sh.step(shooterInput{left: left, right: right, fire: jump,
			stick: in.Axes[0], hasPointer: in.HasPointer, pointerX: in.PointerX})
	case c.bunnymark:
		c.st.step(physics.Controls{})
	default:
		c.st.step(physics.Controls{Left: left, Right: right, Jump: jump, JumpPressed: in.Pressed&4 != 0})
	}
}

// Publish implements simthread.Sim: the simulations draw nothing.
func (c *coreSim) Publish(dst *snapshot.Snapshot) { dst.Sprites.Resize(0) }

// Hash implements simthread.Sim: the game's StateHash.
func (c *coreSim) Hash() uint64 {
	if c.sh != nil {
		return c.sh.hash()
	}
	return c.st.hash()
}

// TestGoldenHashCore checks the golden hashes on the simulations alone,
// which is what the arm64 build of the tests can run; TestGoldenHash
// checks the games as the engine runs them.
func TestGoldenHashCore(t *testing.T) {
	for name, want := range goldenHashes {
		c := newCoreSim(t, name)
		ticks := goldenRun(t, c)
		if got := c.Hash(); got != want {
			t.Errorf("%s after %d ticks on %s: hash %#x, want %#x", name, ticks, runtime.GOARCH, got, want)
		}
	}
}
