package scene_test

import (
	"runtime"
	"testing"

	"github.com/tandem-engine/tandem/cmd/tandem/scene"
	"github.com/tandem-engine/tandem/physics"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/simthread/simtest"
	"github.com/tandem-engine/tandem/snapshot"
)

func newGame(t *testing.T, kind scene.Kind) *scene.Game {
	t.Helper()
	level, err := physics.LoadLevel("../../../levels/demo.txt")
	if err != nil {
		t.Fatal(err)
	}
	g, err := scene.New(scene.Config{Kind: kind, Level: level, Hz: 60, Seed: 3, Bunnies: 500, ArenaW: 1280, ArenaH: 720}, scene.Frames{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// detConfig keeps the lag clamp out of the way of 300 ms hitches (see
// simthread's determinism test).
var detConfig = simthread.Config{Hz: 60, MaxLag: 10_000_000_000}

func TestDeterminismPlatformer(t *testing.T) {
	// The demo's world with scripted play (run left and right, jump, taps)
	// under render rates of 30, 60, 144 and 240 Hz with random 0-300 ms
	// hitches, in all three loops: the same tick count and state hash.
	const end = 6_000_000_000
	events := simtest.Script(11, end, 3) // the scene's three buttons
	ref := newGame(t, scene.Platformer)
	wantTicks, err := simtest.Coupled(ref, detConfig, events, simtest.FrameTimes(1, 60, end, 0))
	if err != nil {
		t.Fatal(err)
	}
	if p := ref.World().Player().Pos(); p == ref.World().StartPos() {
		t.Fatal("the script never moved the player")
	}
	for _, hz := range []int{30, 60, 144, 240} {
		frames := simtest.FrameTimes(uint64(hz), hz, end, 300_000_000)
		for name, run := range map[string]func(simthread.Sim, simthread.Config, []simthread.Event, []int64) (uint64, error){
			"coupled": simtest.Coupled, "decoupled": simtest.Decoupled, "pipelined": simtest.Pipelined,
		} {
			g := newGame(t, scene.Platformer)
			k, err := run(g, detConfig, events, frames)
			if err != nil {
				t.Fatal(err)
			}
			if k != wantTicks || g.Hash() != ref.Hash() {
				t.Errorf("%s at %d Hz: %d ticks hash %x, want %d %x", name, hz, k, g.Hash(), wantTicks, ref.Hash())
			}
		}
	}
}

func TestPublishSlotsStable(t *testing.T) {
	g := newGame(t, scene.Platformer)
	var a, b snapshot.Snapshot
	g.Publish(&a)
	n := len(g.World().Coins())
	if a.Sprites.Len() != 1+n+500 {
		t.Fatalf("%d sprites, want player + %d coins + 500 bunnies", a.Sprites.Len(), n)
	}
	for range 30 {
		g.Step(simthread.Input{Down: scene.ButtonRight})
	}
	g.Publish(&b)
	for i := range a.Sprites.Len() {
		if a.Sprites.ID[i] != b.Sprites.ID[i] {
			t.Fatalf("slot %d changed id %d -> %d", i, a.Sprites.ID[i], b.Sprites.ID[i])
		}
	}
	last := a.Sprites.Len() - 1 // the player, drawn on top
	if a.Sprites.ID[last] != 0 || b.Sprites.X[last] <= a.Sprites.X[last] {
		t.Fatalf("player (id %d) did not run right: %v -> %v", a.Sprites.ID[last], a.Sprites.X[last], b.Sprites.X[last])
	}
}

func TestPublishAllocs(t *testing.T) {
	g := newGame(t, scene.Bunnymark)
	var s snapshot.Snapshot
	g.Publish(&s)
	if a := testing.AllocsPerRun(100, func() { g.Step(simthread.Input{}); g.Publish(&s) }); a != 0 {
		t.Fatalf("step+publish allocates %.1f times", a)
	}
}

// BenchmarkTickPublish100k is one whole sim-thread tick of the bunnymark at
// 100,000 bodies: the world's step and the publish of every sprite into the
// ring, as the decoupled loop runs it.
func BenchmarkTickPublish100k(b *testing.B) {
	g, err := scene.New(scene.Config{Kind: scene.Bunnymark, Hz: 60, Seed: 1, Bunnies: 100_000, ArenaW: 1280, ArenaH: 720}, scene.Frames{})
	if err != nil {
		b.Fatal(err)
	}
	r, err := simthread.New(g, simthread.Config{Hz: 60, Clock: simthread.NewFakeClock(0)})
	if err != nil {
		b.Fatal(err)
	}
	k := int64(0)
	r.Frame(0)
	for range 8 { // grow every ring buffer
		k++
		r.Frame(k * 1_000_000_000 / 60)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		k++
		r.Frame(k * 1_000_000_000 / 60)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100_000, "ns/body")
}

// goldenHashes are the demo worlds' state hashes after a scripted six
// seconds, as amd64 computes them. make test runs this test on arm64 too,
// under qemu-user: the same input must give the same bits on every
// machine (no fused multiply-add, no map order, no platform math).
var goldenHashes = map[scene.Kind]uint64{
	scene.Platformer: 0xb992f610b3844515,
	scene.Bunnymark:  0xdc6ddccd3ca0989b,
}

func TestGoldenHash(t *testing.T) {
	const end = 6_000_000_000
	events := simtest.Script(11, end, 3)
	for kind, want := range goldenHashes {
		g := newGame(t, kind)
		ticks, err := simtest.Coupled(g, detConfig, events, simtest.FrameTimes(1, 60, end, 0))
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Hash(); got != want {
			t.Errorf("%s after %d ticks on %s: hash %#x, want %#x", kind, ticks, runtime.GOARCH, got, want)
		}
	}
}
