package scene

import (
	"cmp"
	"runtime"
	"slices"
	"testing"

	"github.com/tandem-engine/tandem"
	"github.com/tandem-engine/tandem/internal/mallocs"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/simthread/simtest"
	"github.com/tandem-engine/tandem/snapshot"
)

// games are the demo's games by name.
var games = map[string]func() tandem.Game{
	"platformer": NewPlatformer,
	"bunnymark":  NewBunnymark,
	"shooter":    NewShooter,
}

// goldenConfig is the golden runs' (see goldenHashes).
var goldenConfig = tandem.SimConfig{Hz: goldenHz, Seed: goldenSeed, Sprites: goldenSprites, Width: goldenW, Height: goldenH}

// testSim is a Sim that also steps and publishes as the loops do, with
// raw input.
type testSim struct {
	*tandem.Sim
	loop simthread.Sim
}

func (s testSim) Step(in simthread.TickInput)    { s.loop.Step(in) }
func (s testSim) Publish(dst *snapshot.Snapshot) { s.loop.Publish(dst) }

func newSim(tb testing.TB, g tandem.Game, cfg tandem.SimConfig) testSim {
	tb.Helper()
	s, err := tandem.NewSim(g, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return testSim{s, s.Loop()}
}

// buttons returns the TickInput bits of actions.
func buttons(actions ...tandem.Action) simthread.Buttons {
	var b simthread.Buttons
	for _, a := range actions {
		b |= 1 << a
	}
	return b
}

// loops are simtest's three ways of running a sim.
var loops = map[string]func(simthread.Sim, simthread.Config, []simthread.Event, []int64) (uint64, error){
	"coupled": simtest.Coupled, "decoupled": simtest.Decoupled, "pipelined": simtest.Pipelined,
}

func TestDeterminismPlatformer(t *testing.T) {
	// The demo's world with scripted play (run left and right, jump, taps)
	// under render rates of 30, 60, 144 and 240 Hz with random 0-300 ms
	// hitches, in all three loops: the same tick count and state hash.
	const end = 6_000_000_000
	events := simtest.Script(11, end, 3) // the demo's three actions
	ref := newSim(t, NewPlatformer(), goldenConfig)
	wantTicks, err := simtest.Coupled(ref, detConfig, events, simtest.FrameTimes(1, 60, end, 0))
	if err != nil {
		t.Fatal(err)
	}
	if w := ref.Game().(*Platformer).World(); w.Player().Pos() == w.StartPos() {
		t.Fatal("the script never moved the player")
	}
	for _, hz := range []int{30, 60, 144, 240} {
		frames := simtest.FrameTimes(uint64(hz), hz, end, 300_000_000)
		for name, run := range loops {
			s := newSim(t, NewPlatformer(), goldenConfig)
			k, err := run(s, detConfig, events, frames)
			if err != nil {
				t.Fatal(err)
			}
			if k != wantTicks || s.Hash() != ref.Hash() {
				t.Errorf("%s at %d Hz: %d ticks hash %x, want %d %x", name, hz, k, s.Hash(), wantTicks, ref.Hash())
			}
		}
	}
}

// visible returns the indices of the sprites dst draws (tint not 0), in
// drawing order.
func visible(dst *snapshot.Snapshot) []int {
	var out []int
	for i := range dst.Sprites.Len() {
		if dst.Sprites.Tint[i] != 0 {
			out = append(out, i)
		}
	}
	return out
}

func TestPublishSlotsStable(t *testing.T) {
	s := newSim(t, NewPlatformer(), goldenConfig)
	g := s.Game().(*Platformer)
	var a, b snapshot.Snapshot
	s.Publish(&a)
	n := len(g.World().Coins())
	va := visible(&a)
	if len(va) != 1+n+500 {
		t.Fatalf("%d sprites drawn, want player + %d coins + 500 bunnies", len(va), n)
	}
	for range 30 {
		s.Step(simthread.TickInput{Down: buttons(tandem.Right)})
	}
	s.Publish(&b)
	if a.Sprites.Len() != b.Sprites.Len() {
		t.Fatalf("%d slots, then %d", a.Sprites.Len(), b.Sprites.Len())
	}
	for i := range a.Sprites.Len() {
		if a.Sprites.ID[i] != b.Sprites.ID[i] {
			t.Fatalf("slot %d changed id %d -> %d", i, a.Sprites.ID[i], b.Sprites.ID[i])
		}
	}
	last := va[len(va)-1] // the player, drawn on top
	if f := tandem.Frame(a.Sprites.Frame[last]); !slices.Contains(g.right[:], f) || b.Sprites.X[last] <= a.Sprites.X[last] {
		t.Fatalf("the last sprite drawn (frame %d) is not the player facing right, or did not run right: %v -> %v",
			f, a.Sprites.X[last], b.Sprites.X[last])
	}
}

// TestDrawOrder: the bunnies are drawn behind the coins, the coins behind
// the player; in the shooter the ships behind the gun behind the bullets.
func TestDrawOrder(t *testing.T) {
	for name, cfg := range map[string]tandem.SimConfig{"platformer": goldenConfig, "shooter": goldenConfig} {
		s := newSim(t, games[name](), cfg)
		for range 60 {
			s.Step(simthread.TickInput{})
		}
		// rank returns the place of frame f in the drawing order.
		var rank func(f uint16) int
		switch g := s.Game().(type) {
		case *Platformer:
			rank = func(f uint16) int {
				switch {
				case slices.Contains(g.bunnies.frames[:], tandem.Frame(f)):
					return 0
				case slices.Contains(g.spin, tandem.Frame(f)):
					return 1
				}
				return 2
			}
		case *Shooter:
			rank = func(f uint16) int { return slices.Index(g.frames[:], tandem.Frame(f)) }
		}
		var dst snapshot.Snapshot
		s.Publish(&dst)
		seen := [3]int{}
		prev := 0
		for _, i := range visible(&dst) {
			r := rank(dst.Sprites.Frame[i])
			if r < prev {
				t.Fatalf("%s: sprite %d (rank %d) drawn after one of rank %d", name, i, r, prev)
			}
			prev = r
			seen[r]++
		}
		if seen[0] == 0 || seen[1] == 0 || seen[2] == 0 {
			t.Errorf("%s: drew %v of each rank; want some of each", name, seen)
		}
	}
}

func TestPublishAllocs(t *testing.T) {
	// Total mallocs over 100 ticks (AllocsPerRun would round a stray one
	// down to zero), for each game; the shooter fires and kills bullets
	// every tick, reusing the slots Setup reserved.
	spin := goldenConfig
	spin.Spin = true
	for _, c := range []struct {
		name string
		cfg  tandem.SimConfig
	}{{"platformer", goldenConfig}, {"bunnymark", goldenConfig}, {"bunnymark", spin}, {"shooter", goldenConfig}} {
		s := newSim(t, games[c.name](), c.cfg)
		var dst snapshot.Snapshot
		in := simthread.TickInput{Down: buttons(tandem.Jump, tandem.Right)}
		// The first tick sizes the snapshot (and the shooter's score text):
		// steady state is every tick after.
		s.Step(in)
		s.Publish(&dst)
		// The quietest of three counts: the count is the whole process's,
		// and under -race other packages' tests run beside this one.
		if n := mallocs.Fewest(3, func() {
			for range 100 {
				s.Step(in)
				s.Publish(&dst)
			}
		}); n != 0 {
			t.Errorf("%s (spin %v): 100 ticks of step+publish made %d mallocs", c.name, c.cfg.Spin, n)
		}
	}
}

// BenchmarkTickPublish100k is one whole sim-thread tick of the bunnymark at
// 100,000 bodies: the world's step, the entities' moves and the publish of
// every sprite into the ring, as the decoupled loop runs it.
func BenchmarkTickPublish100k(b *testing.B) {
	s := newSim(b, NewBunnymark(), tandem.SimConfig{Hz: 60, Seed: 1, Sprites: 100_000, Width: 1280, Height: 720})
	r, err := simthread.New(s, simthread.Config{Hz: 60, Clock: simthread.NewFakeClock(0)})
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

// TestGoldenHash checks the golden hashes on the games as the engine
// steps them (make test runs it on arm64 too).
func TestGoldenHash(t *testing.T) {
	for name, want := range goldenHashes {
		s := newSim(t, games[name](), goldenConfig)
		ticks := goldenRun(t, s)
		if got := s.Hash(); got != want {
			t.Errorf("%s after %d ticks on %s: hash %#x, want %#x", name, ticks, runtime.GOARCH, got, want)
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
	cfg := tandem.SimConfig{Hz: 60, Seed: 9, Sprites: 1000, Width: 1280, Height: 720}
	ref := newSim(t, NewShooter(), cfg)
	wantTicks, err := simtest.Coupled(ref, detConfig, events, simtest.FrameTimes(1, 60, end, 0))
	if err != nil {
		t.Fatal(err)
	}
	want := ref.Game().(*Shooter).Hits()
	if want < 100 {
		t.Fatalf("only %d hits in %d ticks", want, wantTicks)
	}
	for _, hz := range []int{30, 240} {
		frames := simtest.FrameTimes(uint64(hz), hz, end, 300_000_000)
		for name, run := range loops {
			s := newSim(t, NewShooter(), cfg)
			k, err := run(s, detConfig, events, frames)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Game().(*Shooter).Hits(); k != wantTicks || got != want || s.Hash() != ref.Hash() {
				t.Errorf("%s at %d Hz: %d ticks, %d hits, hash %x; want %d, %d, %x", name, hz, k, got, s.Hash(), wantTicks, want, ref.Hash())
			}
		}
	}
}

// BenchmarkShooterTick is a whole tick of the shooter with its bullet pool
// full of fast bullets: every bullet swept against all 60 ships, the
// entities following the slots, and the publish of every slot.
func BenchmarkShooterTick(b *testing.B) {
	s := newSim(b, NewShooter(), tandem.SimConfig{Hz: 60, Seed: 1, Sprites: 1000, Width: 1280, Height: 720})
	var dst snapshot.Snapshot
	for range 120 { // fill the sky
		s.Step(simthread.TickInput{})
	}
	s.Publish(&dst) // grow the snapshot
	b.ReportAllocs()
	for b.Loop() {
		s.Step(simthread.TickInput{})
		s.Publish(&dst)
	}
}
