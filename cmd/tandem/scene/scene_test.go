package scene_test

import (
	"cmp"
	"github.com/tandem-engine/tandem/internal/mallocs"
	"runtime"
	"slices"
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
		g.Step(simthread.TickInput{Down: scene.ButtonRight})
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
	// Total mallocs over 100 ticks (AllocsPerRun would round a stray one
	// down to zero), for each scene; the shooter fires and kills bullets
	// every tick, through its free list.
	for _, kind := range []scene.Kind{scene.Platformer, scene.Bunnymark, scene.Shooter} {
		g := newGame(t, kind)
		var s snapshot.Snapshot
		g.Publish(&s)
		in := simthread.TickInput{Down: scene.ButtonJump | scene.ButtonRight}
		if n := mallocs.Count(func() {
			for range 100 {
				g.Step(in)
				g.Publish(&s)
			}
		}); n != 0 {
			t.Errorf("%s: 100 ticks of step+publish made %d mallocs", kind, n)
		}
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
	r.RunDue(0)
	for range 8 { // grow every ring buffer
		k++
		r.RunDue(k * 1_000_000_000 / 60)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		k++
		r.RunDue(k * 1_000_000_000 / 60)
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
	scene.Shooter:    0xee3379e1bebcb9f9,
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

func TestShooterHitsAcrossRenderRatesAndLoops(t *testing.T) {
	// The shoot-'em-up's hits are counted in the sim: with the same
	// scripted input (the gun moving and firing), render rates of 30 and
	// 240 Hz with random hitches, in all three loops, give the same hits,
	// shots and state hash as a steady 60 Hz coupled run.
	const end = 5_000_000_000
	events := simtest.Script(13, end, 3)
	// The pointer sweeps across the arena and the stick pushes left for
	// a while: the gun follows both.
	for t := int64(0); t < end; t += 37_000_000 {
		events = append(events, simthread.Event{Time: t, Kind: simthread.EventPointer, X: float32(t/10_000_000) * 2, Y: 600})
	}
	events = append(events,
		simthread.Event{Time: end / 3, Kind: simthread.EventAxis, Axis: 0, X: -0.75},
		simthread.Event{Time: end / 2, Kind: simthread.EventAxis, Axis: 0, X: 0})
	slices.SortStableFunc(events, func(a, b simthread.Event) int { return cmp.Compare(a.Time, b.Time) })
	newShooter := func() *scene.Game {
		g, err := scene.New(scene.Config{Kind: scene.Shooter, Hz: 60, Seed: 9, Bunnies: 1000, ArenaW: 1280, ArenaH: 720}, scene.Frames{})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	ref := newShooter()
	wantTicks, err := simtest.Coupled(ref, detConfig, events, simtest.FrameTimes(1, 60, end, 0))
	if err != nil {
		t.Fatal(err)
	}
	want := ref.Shmup().Hits()
	if want < 100 {
		t.Fatalf("only %d hits in %d ticks", want, wantTicks)
	}
	for _, hz := range []int{30, 240} {
		frames := simtest.FrameTimes(uint64(hz), hz, end, 300_000_000)
		for name, run := range map[string]func(simthread.Sim, simthread.Config, []simthread.Event, []int64) (uint64, error){
			"coupled": simtest.Coupled, "decoupled": simtest.Decoupled, "pipelined": simtest.Pipelined,
		} {
			g := newShooter()
			k, err := run(g, detConfig, events, frames)
			if err != nil {
				t.Fatal(err)
			}
			if got := g.Shmup().Hits(); k != wantTicks || got != want || g.Hash() != ref.Hash() {
				t.Errorf("%s at %d Hz: %d ticks, %d hits, hash %x; want %d, %d, %x", name, hz, k, got, g.Hash(), wantTicks, want, ref.Hash())
			}
		}
	}
}

// BenchmarkShooterTick is a whole tick of the shooter with its bullet pool
// full of fast bullets: every bullet swept against all 60 ships, and the
// publish of every slot.
func BenchmarkShooterTick(b *testing.B) {
	g, err := scene.New(scene.Config{Kind: scene.Shooter, Hz: 60, Seed: 1, Bunnies: 1000, ArenaW: 1280, ArenaH: 720}, scene.Frames{})
	if err != nil {
		b.Fatal(err)
	}
	var s snapshot.Snapshot
	for range 120 { // fill the sky
		g.Step(simthread.TickInput{})
	}
	b.ReportAllocs()
	for b.Loop() {
		g.Step(simthread.TickInput{})
		g.Publish(&s)
	}
}
