package scene

import (
	"errors"
	"fmt"
	"github.com/tandem-engine/tandem/physics"
	"math"
	"strings"
	"testing"
)

// randomControls returns n ticks of plausible random input from seed:
// held directions and jump that change every few ticks.
func randomControls(seed uint64, n int) []physics.Controls {
	r := physics.NewRNG(seed)
	out := make([]physics.Controls, n)
	var c physics.Controls
	for i := range out {
		if r.Intn(8) == 0 {
			c.Left, c.Right = false, false
			switch r.Intn(3) {
			case 0:
				c.Left = true
			case 1:
				c.Right = true
			}
		}
		c.JumpPressed = false
		if r.Intn(10) == 0 {
			if !c.Jump {
				c.JumpPressed = true
			}
			c.Jump = !c.Jump
		}
		if r.Intn(40) == 0 { // pressed and released within one tick
			c.JumpPressed = true
		}
		out[i] = c
	}
	return out
}

func TestDeterminism(t *testing.T) {
	l := loadDemo(t)
	cfg := DefaultWorldConfig()
	cfg.Seed = 42
	cfg.Bunnies = 300
	a := newTestWorld(t, l, cfg)
	b := newTestWorld(t, l, cfg)
	if a.Hash() != b.Hash() {
		t.Fatal("fresh worlds differ")
	}
	var outcomes int
	for i, c := range randomControls(1, 2000) {
		a.Step(c)
		b.Step(c)
		if ha, hb := a.Hash(), b.Hash(); ha != hb {
			t.Fatalf("tick %d: hashes %#x and %#x differ", i+1, ha, hb)
		}
		outcomes += len(a.Outcomes())
	}
	if a.Tick() != 2000 {
		t.Errorf("Tick = %d, want 2000", a.Tick())
	}
	if outcomes == 0 {
		t.Error("2000 ticks of random play produced no outcomes")
	}
	// The same controls from a different seed: the bunnies differ.
	cfg.Seed = 43
	c := newTestWorld(t, l, cfg)
	for _, in := range randomControls(1, 2000) {
		c.Step(in)
	}
	if c.Hash() == a.Hash() {
		t.Error("seeds 42 and 43 give the same hash")
	}
	// Different controls: the player differs.
	cfg.Seed = 42
	d := newTestWorld(t, l, cfg)
	for _, in := range randomControls(2, 2000) {
		d.Step(in)
	}
	if d.Hash() == a.Hash() {
		t.Error("different controls give the same hash")
	}
}

// TestSeedsDifferWithoutBunnies: the seed is in the hash through the RNG
// state even when nothing random has happened yet.
func TestSeedsDifferWithoutBunnies(t *testing.T) {
	l := loadDemo(t)
	seen := map[uint64]uint64{}
	for seed := range uint64(50) {
		cfg := DefaultWorldConfig()
		cfg.Seed = seed
		h := newTestWorld(t, l, cfg).Hash()
		if s, dup := seen[h]; dup {
			t.Fatalf("seeds %d and %d hash to %#x", s, seed, h)
		}
		seen[h] = seed
	}
}

// TestHashSeesEveryBit: flipping any one bit of any one bunny coordinate,
// or of the player, changes the hash.
func TestHashSeesEveryBit(t *testing.T) {
	l := loadDemo(t)
	cfg := DefaultWorldConfig()
	cfg.Bunnies = 100
	w := newTestWorld(t, l, cfg)
	for range 10 {
		w.Step(physics.Controls{Right: true})
	}
	h0 := w.Hash()
	b := w.Bunnies()
	for _, s := range [][]float32{b.X, b.Y, b.VX, b.VY, b.Angle, b.Spin} {
		for _, i := range []int{0, 1, 50, 99} {
			for bit := range 32 {
				old := s[i]
				s[i] = math.Float32frombits(math.Float32bits(old) ^ 1<<bit)
				if w.Hash() == h0 {
					t.Fatalf("flipping bit %d of bunny %d leaves the hash unchanged", bit, i)
				}
				s[i] = old
			}
		}
	}
	// The player's own bits are physics.TestCharacterHashSeesEveryBit's;
	// here, that the world hashes the player at all.
	w.player.Teleport(w.player.Pos())
	if w.Hash() == h0 {
		t.Fatal("teleporting the player (a new generation) leaves the hash unchanged")
	}
	h0 = w.Hash()
	w.coins[3].Collected = !w.coins[3].Collected
	if w.Hash() == h0 {
		t.Fatal("collecting a coin leaves the hash unchanged")
	}
	w.coins[3].Collected = !w.coins[3].Collected
	if w.Hash() != h0 {
		t.Fatal("hash is not a function of the state")
	}
}

func TestStepAllocs(t *testing.T) {
	l := loadDemo(t)
	cfg := DefaultWorldConfig()
	cfg.Bunnies = 1000
	w := newTestWorld(t, l, cfg)
	in := randomControls(3, 4096)
	i := 0
	if n := testing.AllocsPerRun(2000, func() {
		w.Step(in[i%len(in)])
		i++
	}); n != 0 {
		t.Errorf("World.Step allocates %v times per tick, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = w.Hash() }); n != 0 {
		t.Errorf("World.Hash allocates %v times, want 0", n)
	}
}

func TestCoinsAndOutcomes(t *testing.T) {
	// Coins in a row at the player's height, to its right.
	l := mustParse(t, `
##########
#........#
#........#
#P.CC.C..#
##########`)
	w := newTestWorld(t, l, DefaultWorldConfig())
	if w.CoinsLeft() != 3 || len(w.Coins()) != 3 {
		t.Fatalf("CoinsLeft = %d with %d coins, want 3", w.CoinsLeft(), len(w.Coins()))
	}
	var got []string
	for range 90 {
		w.Step(physics.Controls{Right: true})
		for _, e := range w.Outcomes() {
			got = append(got, fmt.Sprintf("%d:%v/%d", w.Tick(), e.Kind, e.Index))
		}
	}
	if w.CoinsLeft() != 0 {
		t.Fatalf("CoinsLeft = %d after running over them, outcomes %v", w.CoinsLeft(), got)
	}
	for i, c := range w.Coins() {
		if !c.Collected || c.Generation != 1 {
			t.Errorf("coin %d: %+v, want collected once", i, c)
		}
	}
	// Land first (the player starts a hair above the floor), then coins by
	// index as the player reaches them.
	if len(got) != 4 || !strings.HasSuffix(got[0], ":land/0") ||
		!strings.HasSuffix(got[1], ":coin/0") || !strings.HasSuffix(got[2], ":coin/1") || !strings.HasSuffix(got[3], ":coin/2") {
		t.Errorf("outcomes = %v", got)
	}
	// A query sees collected coins too.
	if hits := w.QueryCoins(l.Bounds(), nil); len(hits) != 3 {
		t.Errorf("QueryCoins(all) = %v", hits)
	}
}

func TestCoinOutcomesSortedWhenManyAtOnce(t *testing.T) {
	// Teleporting onto a cluster collects several coins in one tick; they
	// are reported in index order even though the grid visits cells in
	// another order.
	l := mustParse(t, strings.Repeat("#", 12)+"\n"+
		"#..........#\n"+
		"#...CC.....#\n"+
		"#...CC.....#\n"+
		"#P.........#\n"+
		strings.Repeat("#", 12)+"\n")
	w := newTestWorld(t, l, DefaultWorldConfig())
	if err := w.Teleport(physics.Vec{X: 4*physics.TileSize + 10, Y: 2*physics.TileSize + 4}); err != nil {
		t.Fatal(err)
	}
	w.Step(physics.Controls{})
	var idx []int
	for _, e := range w.Outcomes() {
		if e.Kind == OutcomeCoin {
			idx = append(idx, e.Index)
		}
	}
	if fmt.Sprint(idx) != "[0 1 2 3]" {
		t.Errorf("coin outcomes %v, want [0 1 2 3]", idx)
	}
}

func TestTeleportAndRespawn(t *testing.T) {
	l := loadDemo(t)
	w := newTestWorld(t, l, DefaultWorldConfig())
	p := w.Player()
	if p.Generation() != 0 || p.Pos() != w.StartPos() {
		t.Fatalf("fresh player: gen %d at %v, want 0 at %v", p.Generation(), p.Pos(), w.StartPos())
	}
	if err := w.Teleport(physics.Vec{X: -50, Y: 10}); err == nil {
		t.Error("teleport outside the level succeeded")
	}
	if err := w.Teleport(physics.Vec{X: 100, Y: 59 * physics.TileSize}); err == nil {
		t.Error("teleport into the solid floor succeeded")
	}
	if p.Generation() != 0 {
		t.Error("failed teleports changed the generation")
	}
	if err := w.Teleport(physics.Vec{X: 100, Y: 100}); err != nil {
		t.Fatal(err)
	}
	if p.Generation() != 1 || p.Pos() != (physics.Vec{X: 100, Y: 100}) {
		t.Errorf("after teleport: gen %d at %v", p.Generation(), p.Pos())
	}
	// The closed world cannot be left, but if a body ends up outside
	// anyway the player respawns at the start.
	w.player.Place(physics.Vec{X: 100, Y: 5000})
	w.Step(physics.Controls{})
	if !hasOutcome(w, OutcomeRespawn) || p.Generation() != 2 || p.Pos() != w.StartPos() {
		t.Errorf("after falling out: outcomes %v, gen %d at %v", w.Outcomes(), p.Generation(), p.Pos())
	}
}

func TestNewWorldErrors(t *testing.T) {
	l := loadDemo(t)
	for _, c := range []struct {
		name string
		mod  func(*WorldConfig)
		want string
	}{
		{"Hz 0", func(c *WorldConfig) { c.Hz = 0 }, "Hz is 0"},
		{"Hz negative", func(c *WorldConfig) { c.Hz = -60 }, "Hz is -60"},
		{"Hz huge", func(c *WorldConfig) { c.Hz = 1 << 40 }, "want 1..100000"},
		{"bunnies", func(c *WorldConfig) { c.Bunnies = -1 }, "Bunnies is -1"},
		{"gravity", func(c *WorldConfig) { c.Gravity = -5 }, "Gravity is -5"},
		{"gravity NaN", func(c *WorldConfig) { c.Gravity = math.NaN() }, "Gravity is NaN"},
		{"speed inf", func(c *WorldConfig) { c.Character.MaxRunSpeed = math.Inf(1) }, "Character.MaxRunSpeed is +Inf"},
		{"jump cut", func(c *WorldConfig) { c.Character.JumpCut = 2 }, "JumpCut is 2"},
		{"too big", func(c *WorldConfig) { c.Character.Height = 500 }, "larger than"},
	} {
		cfg := DefaultWorldConfig()
		c.mod(&cfg)
		_, err := NewWorld(l, cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) || !(strings.HasPrefix(err.Error(), "physics: ") || strings.HasPrefix(err.Error(), "scene: ")) || !errors.Is(err, physics.ErrConfig) {
			t.Errorf("%s: err = %v, want one containing %q", c.name, err, c.want)
		}
	}
	if _, err := NewWorld(nil, DefaultWorldConfig()); err == nil {
		t.Error("nil level accepted")
	}
	if _, err := NewWorld(&physics.Level{W: 3, H: 3}, DefaultWorldConfig()); err == nil {
		t.Error("level without tiles accepted")
	}
	// A start with no room for the player is reported with the fix, at
	// the 'P''s line and column in the file, from 1 as the loader's.
	tight := mustParse(t, "; cramped\n###\n#P#\n###\n")
	if _, err := NewWorld(tight, DefaultWorldConfig()); err == nil || !strings.Contains(err.Error(), "leave empty tiles above") ||
		!strings.Contains(err.Error(), tight.Name+":3:2: the ") {
		t.Errorf("cramped start: err = %v", err)
	}
	tight.StartLine, tight.StartCol = 0, 0 // built by hand
	if _, err := NewWorld(tight, DefaultWorldConfig()); err == nil || !strings.Contains(err.Error(), "row 2, column 2") {
		t.Errorf("cramped start of a level built by hand: err = %v", err)
	}
	// Zero fields take defaults.
	w, err := NewWorld(l, WorldConfig{Hz: 50})
	if err != nil {
		t.Fatal(err)
	}
	if got := w.Config(); got.Gravity != 1800 || got.Character != physics.DefaultTuning() || w.Dt() != float64(1)/float64(50) {
		t.Errorf("defaults not applied: %+v dt %v", got, w.Dt())
	}
}

func BenchmarkWorldStep(b *testing.B) {
	l := loadDemo(b)
	w, err := NewWorld(l, DefaultWorldConfig())
	if err != nil {
		b.Fatal(err)
	}
	in := randomControls(4, 4096)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		w.Step(in[i&4095])
		i++
	}
}

func BenchmarkWorldStepBunnies10k(b *testing.B) {
	l := loadDemo(b)
	cfg := DefaultWorldConfig()
	cfg.Bunnies = 10000
	w, err := NewWorld(l, cfg)
	if err != nil {
		b.Fatal(err)
	}
	in := randomControls(4, 4096)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		w.Step(in[i&4095])
		i++
	}
}

func BenchmarkHash100k(b *testing.B) {
	l := loadDemo(b)
	cfg := DefaultWorldConfig()
	cfg.Bunnies = 100000
	w, err := NewWorld(l, cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = w.Hash()
	}
}

func ExampleWorld_Hash() {
	level, err := physics.ParseLevel("example.txt", strings.NewReader(`; two coins and a ledge
################
#..............#
#.........C....#
#.......####...#
#P..C..........#
################
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg := DefaultWorldConfig()
	cfg.Bunnies = 50
	a, _ := NewWorld(level, cfg)
	b, _ := NewWorld(level, cfg)
	for tick := range 120 {
		in := physics.Controls{Right: true, Jump: tick > 30, JumpPressed: tick == 31}
		a.Step(in)
		b.Step(in)
	}
	fmt.Println("same inputs, same state:", a.Hash() == b.Hash())
	fmt.Println("coins left:", a.CoinsLeft())

	b.Step(physics.Controls{})
	fmt.Println("after one more tick on b:", a.Hash() == b.Hash())
	// Output:
	// same inputs, same state: true
	// coins left: 0
	// after one more tick on b: false
}
