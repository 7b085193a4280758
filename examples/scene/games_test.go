package scene

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem"
	"github.com/tandem-engine/tandem/physics"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

func TestInfo(t *testing.T) {
	for name, want := range map[string]struct {
		sprites int
		level   bool
	}{"platformer": {0, true}, "bunnymark": {5000, false}, "shooter": {1000, false}} {
		g := games[name]()
		in := g.(tandem.Describer).Info()
		if in.Name != name || in.Sprites != want.sprites || (in.Level != nil) != want.level {
			t.Errorf("%s: Info %q, %d sprites, level loader %v; want %q, %d, %v",
				name, in.Name, in.Sprites, in.Level != nil, name, want.sprites, want.level)
		}
		// The defaults set the game up.
		s := newSim(t, g, tandem.SimConfig{})
		s.Step(simthread.TickInput{})
		switch g := g.(type) {
		case *Bunnymark:
			if n := g.World().Bunnies().Len(); n != 5000 {
				t.Errorf("bunnymark: %d bunnies by default, want 5000", n)
			}
		case *Shooter:
			if g.sim.maxB != 1000 {
				t.Errorf("shooter: %d bullets in flight at most by default, want 1000", g.sim.maxB)
			}
		}
	}
}

// TestSetupAgain: a game set up again (the bench runs one game in each
// loop) starts over, as a new one would.
func TestSetupAgain(t *testing.T) {
	for name, newGame := range games {
		g := newGame()
		s := newSim(t, g, goldenConfig)
		for range 100 {
			s.Step(simthread.TickInput{Down: buttons(tandem.Right, tandem.Jump)})
		}
		again, fresh := newSim(t, g, goldenConfig), newSim(t, newGame(), goldenConfig)
		for range 100 {
			again.Step(simthread.TickInput{Down: buttons(tandem.Left)})
			fresh.Step(simthread.TickInput{Down: buttons(tandem.Left)})
		}
		if again.Hash() != fresh.Hash() || again.World().Entities() != fresh.World().Entities() {
			t.Errorf("%s set up again: hash %#x with %d entities; a new one: %#x with %d",
				name, again.Hash(), again.World().Entities(), fresh.Hash(), fresh.World().Entities())
		}
	}
}

func TestSetupErrors(t *testing.T) {
	for _, c := range []struct {
		game tandem.Game
		cfg  tandem.SimConfig
		want string
	}{
		{NewShooter(), tandem.SimConfig{Sprites: -1}, "shooter: -sprites -1 (Config.Sprites): want 0 to 1000000"},
		{NewBunnymark(), tandem.SimConfig{Sprites: -1}, "bunnymark: -sprites -1 (Config.Sprites): want 0 to 1000000"},
		{NewPlatformer(), tandem.SimConfig{Level: mustParse(t, "###\n#P#\n###\n")}, "leave empty tiles above"},
	} {
		if _, err := tandem.NewSim(c.game, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%T: err = %v, want one containing %q", c.game, err, c.want)
		}
	}
}

// coinLevel has three coins in a row at the player's height, to its
// right.
const coinLevel = `
##########
#........#
#........#
#P.CC.C..#
##########`

// TestCoins: a coin spins, showing frame tick/8 + k of the animation,
// until it is collected; then it is drawn no more, and coins_left counts
// it.
func TestCoins(t *testing.T) {
	s := newSim(t, NewPlatformer(), tandem.SimConfig{Level: mustParse(t, coinLevel)})
	g := s.Game().(*Platformer)
	var dst snapshot.Snapshot
	collected := 0
	for tick := range 90 {
		if tick > 0 {
			s.Step(simthread.TickInput{Down: buttons(tandem.Right)})
		}
		s.Publish(&dst)
		left := 0
		for k, c := range g.World().Coins() {
			const half = float32(CoinSize) / 2
			x, y := float32(c.Pos.X)+half, float32(c.Pos.Y)+half
			i := slices.IndexFunc(visible(&dst), func(i int) bool { return dst.Sprites.X[i] == x && dst.Sprites.Y[i] == y })
			switch {
			case c.Collected && i >= 0:
				t.Fatalf("tick %d: coin %d collected and still drawn", tick, k)
			case c.Collected:
			case i < 0:
				t.Fatalf("tick %d: coin %d not drawn at (%v, %v)", tick, k, x, y)
			case tandem.Frame(dst.Sprites.Frame[visible(&dst)[i]]) != g.spin.At(tick/8+k):
				t.Fatalf("tick %d: coin %d shows frame %d, want %d", tick, k, dst.Sprites.Frame[visible(&dst)[i]], g.spin.At(tick/8+k))
			default:
				left++
			}
		}
		if got := s.Counters(); len(got) != 1 || got[0] != (tandem.Count{Name: "coins_left", Value: int64(left)}) {
			t.Fatalf("tick %d: counters %v, want coins_left %d", tick, got, left)
		}
		collected = 3 - left
	}
	if collected != 3 {
		t.Errorf("the player collected %d of the 3 coins", collected)
	}
}

// TestRespawnCuts: a player that falls out of the world is put back at
// the start without blending (a new generation), and the camera cuts to
// it; an ordinary tick does neither.
func TestRespawnCuts(t *testing.T) {
	s := newSim(t, NewPlatformer(), goldenConfig)
	g := s.Game().(*Platformer)
	var a, b, c snapshot.Snapshot
	for range 20 {
		s.Step(simthread.TickInput{Down: buttons(tandem.Right)})
	}
	s.Publish(&a)
	s.Step(simthread.TickInput{Down: buttons(tandem.Right)})
	s.Publish(&b)
	g.World().player.Place(physics.Vec{X: 100, Y: 5000})
	s.Step(simthread.TickInput{})
	s.Publish(&c)
	p := visible(&a)[len(visible(&a))-1]
	if b.Camera.Gen != a.Camera.Gen || b.Sprites.Gen[p] != a.Sprites.Gen[p] {
		t.Errorf("a running tick changed the camera's generation (%d -> %d) or the player's (%d -> %d)",
			a.Camera.Gen, b.Camera.Gen, a.Sprites.Gen[p], b.Sprites.Gen[p])
	}
	start := g.World().StartPos()
	size := g.World().Player().Body().Size
	x, y := float32(start.X+size.X/2), float32(start.Y+size.Y/2)
	if c.Camera.Gen == b.Camera.Gen || c.Sprites.Gen[p] == b.Sprites.Gen[p] || c.Sprites.X[p] != x || c.Sprites.Y[p] != y {
		t.Errorf("respawn: camera generation %d -> %d, player's %d -> %d at (%v, %v); want both changed, the player at (%v, %v)",
			b.Camera.Gen, c.Camera.Gen, b.Sprites.Gen[p], c.Sprites.Gen[p], c.Sprites.X[p], c.Sprites.Y[p], x, y)
	}
	if cx, cy := c.Camera.X, c.Camera.Y; cx != float32(g.st.camX) || cy != float32(g.st.camY) {
		t.Errorf("camera at (%v, %v), the stage's at (%v, %v)", cx, cy, g.st.camX, g.st.camY)
	}
}

// TestBunniesUprightUnlessSpin: bunnies are drawn upright, or with -spin
// at the angle the physics turns them to; either way at their boxes'
// centres.
func TestBunniesUprightUnlessSpin(t *testing.T) {
	for _, spin := range []bool{false, true} {
		cfg := goldenConfig
		cfg.Spin = spin
		s := newSim(t, NewBunnymark(), cfg)
		for range 30 {
			s.Step(simthread.TickInput{})
		}
		var dst snapshot.Snapshot
		s.Publish(&dst)
		b := s.Game().(*Bunnymark).World().Bunnies()
		vis := visible(&dst)
		if len(vis) != b.Len() {
			t.Fatalf("spin %v: %d sprites drawn for %d bunnies", spin, len(vis), b.Len())
		}
		turned := 0
		for k, i := range vis {
			want := float32(0)
			if spin {
				want = b.Angle[k]
			}
			const half = BunnySize / 2
			sp := &dst.Sprites
			if sp.Angle[i] != want || sp.X[i] != b.X[k]+half || sp.Y[i] != b.Y[k]+half {
				t.Fatalf("spin %v: bunny %d drawn at (%v, %v) turned %v; want (%v, %v) turned %v",
					spin, k, sp.X[i], sp.Y[i], sp.Angle[i], b.X[k]+half, b.Y[k]+half, want)
			}
			if want != 0 {
				turned++
			}
		}
		if spin && turned == 0 {
			t.Error("spin: no bunny turned")
		}
	}
}

// TestShooterDrawsItsSlots: after every tick the shooter's sprites are
// its live entities, each where the sim has it, and a ship hit is
// teleported (a new generation) while the others are not.
func TestShooterDrawsItsSlots(t *testing.T) {
	s := newSim(t, NewShooter(), goldenConfig)
	g := s.Game().(*Shooter)
	var prev, dst snapshot.Snapshot
	s.Publish(&prev)
	hits := 0
	for tick := range 200 {
		s.Step(simthread.TickInput{Down: buttons(tandem.Jump), HasPointer: true, PointerX: float32(tick * 5)})
		s.Publish(&dst)
		var drawn, live []string
		for _, i := range visible(&dst) {
			drawn = append(drawn, fmt.Sprint(dst.Sprites.X[i], dst.Sprites.Y[i], dst.Sprites.Frame[i]))
		}
		st := &g.sim.slots
		for k := range st.x {
			if st.alive[k] {
				live = append(live, fmt.Sprint(st.x[k], st.y[k], uint16(g.frames[st.role[k]])))
			}
		}
		slices.Sort(drawn)
		slices.Sort(live)
		if !slices.Equal(drawn, live) {
			t.Fatalf("tick %d: %d sprites drawn for %d live entities, or elsewhere", tick+1, len(drawn), len(live))
		}
		// The ships are the first 60 sprites, in the sim's order.
		for i := range g.sim.ships {
			if cut := dst.Sprites.Gen[i] != prev.Sprites.Gen[i]; cut != g.sim.hit[i] {
				t.Fatalf("tick %d: ship %d hit %v, its generation changed %v", tick+1, i, g.sim.hit[i], cut)
			}
			if g.sim.hit[i] {
				hits++
			}
		}
		prev, dst = dst, prev
	}
	if hits == 0 {
		t.Fatal("no ship was hit")
	}
	if got, want := s.Counters(), []tandem.Count{{Name: "hits", Value: int64(g.Hits())}, {Name: "bullets_fired", Value: int64(g.Fired())}}; !slices.Equal(got, want) || g.Fired() == 0 {
		t.Errorf("counters %v, want %v", got, want)
	}
}
