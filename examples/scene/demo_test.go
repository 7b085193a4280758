package scene

import (
	"fmt"
	"github.com/tandem-engine/tandem/physics"
	"strings"
	"testing"
)

// spot is a place the player can stand: the tile column of its centre and
// the tile row its feet stand on.
type spot struct{ tx, ty int }

func spotOf(c *physics.Character) spot {
	b := c.Box()
	return spot{int(b.Center().X) / physics.TileSize, int(b.Max.Y+0.5) / physics.TileSize}
}

// maneuver is one scripted input sequence tried from every spot.
type maneuver struct {
	dir   int  // -1 left, 0 none, +1 right
	runup int  // ticks holding dir before the jump (or the walk length)
	jump  bool // jump after the run-up
	hold  int  // ticks jump is held
	air   int  // ticks dir is held after take-off
}

func maneuvers() []maneuver {
	var ms []maneuver
	for _, dir := range []int{-1, 1} {
		for _, walk := range []int{2, 6, 16} {
			ms = append(ms, maneuver{dir: dir, runup: walk})
		}
	}
	for _, dir := range []int{-1, 0, 1} {
		for _, runup := range []int{0, 6, 18} {
			if dir == 0 && runup > 0 {
				continue
			}
			for _, hold := range []int{3, 8, 1000} {
				for _, air := range []int{4, 12, 1000} {
					if dir == 0 && air != 1000 {
						continue
					}
					ms = append(ms, maneuver{dir, runup, true, hold, air})
				}
			}
		}
	}
	// Jump straight up, then drift left or right late (for platforms
	// directly above the edge of a ledge).
	for _, dir := range []int{-1, 1} {
		ms = append(ms, maneuver{dir: 2 * dir, jump: true, hold: 1000, air: 1000})
	}
	return ms
}

// run plays m from the standing state c and returns where the player
// stands afterwards (ok false if it never settles), marking coins touched.
func (m maneuver) run(c physics.Character, l *physics.Level, w *World, coins []bool, buf []int32) (physics.Character, bool) {
	dt, g := w.Dt(), w.Config().Gravity
	step := func(in physics.Controls) {
		c.Step(in, l, dt, g)
		for _, i := range w.QueryCoins(c.Box(), buf[:0]) {
			coins[i] = true
		}
	}
	dir := m.dir
	late := false
	if dir == 2 || dir == -2 { // straight up, drift after 10 ticks
		dir /= 2
		late = true
	}
	held := physics.Controls{Left: dir < 0, Right: dir > 0}
	for range m.runup {
		step(held)
	}
	if m.jump {
		for k := 0; k < 300; k++ {
			in := physics.Controls{Jump: k < m.hold, JumpPressed: k == 0}
			if late && k >= 10 || !late && k < m.air {
				in.Left, in.Right = held.Left, held.Right
			}
			step(in)
			if k > 0 && c.OnGround() {
				break
			}
		}
	}
	for k := 0; ; k++ {
		if c.OnGround() && c.Vel().X == 0 {
			return c, true
		}
		if k > 300 {
			return c, false
		}
		step(physics.Controls{})
	}
}

// TestDemoLevelPlayable explores the demo level with the real character
// and the real physics: from every spot it can stand on, it tries walks,
// standing and running jumps, short hops and drifts left and right. Every
// coin must be touched from some reachable spot, and every reachable spot
// must lead back to the start, so the level has no traps.
func TestDemoLevelPlayable(t *testing.T) {
	l := loadDemo(t)
	spots, missing, traps := explore(t, l)
	if len(missing) > 0 {
		t.Errorf("%d of %d coins cannot be reached; tiles %s", len(missing), len(l.Coins), strings.Join(missing, " "))
	}
	if len(traps) > 0 {
		t.Errorf("%d spots cannot get back to the start (traps): %s", len(traps), strings.Join(traps, " "))
	}
	t.Logf("%d standing spots, %d maneuvers each, %d/%d coins reachable", spots, len(maneuvers()), len(l.Coins)-len(missing), len(l.Coins))
}

// TestExploreFindsProblems checks the explorer itself on a level with a
// coin too high to reach and a pit too deep to climb out of.
func TestExploreFindsProblems(t *testing.T) {
	l := mustParse(t, `
##################
#.......C........#
#................#
#................#
#................#
#................#
#................#
#................#
#..C.............#
#P.........###...#
#####..###########
#####..###########
#####..###########
#####..###########
#####..###########
#####..###########
#####CC###########
##################`)
	_, missing, traps := explore(t, l)
	if got := strings.Join(missing, " "); got != "(8,1)" {
		t.Errorf("unreachable coins %q, want (8,1)", got)
	}
	if len(traps) == 0 || traps[0] != "(5,17)" && traps[0] != "(6,17)" {
		t.Errorf("traps %v, want the bottom of the pit", traps)
	}
}

// explore searches l from the player's start and returns the number of
// standing spots found, the coins never touched and the spots that cannot
// get back to the start, as "(tx,ty)" tile coordinates.
func explore(t *testing.T, l *physics.Level) (spots int, missing, traps []string) {
	w := newTestWorld(t, l, DefaultWorldConfig())
	w.Step(physics.Controls{})
	start := w.player
	if !start.OnGround() {
		t.Fatal("the player does not start on the ground")
	}
	coins := make([]bool, len(w.Coins()))
	buf := make([]int32, 0, len(coins))
	ms := maneuvers()

	states := map[spot]physics.Character{spotOf(&start): start}
	order := []spot{spotOf(&start)}
	edges := map[spot][]spot{}
	for i := 0; i < len(order); i++ {
		from := order[i]
		for _, m := range ms {
			end, ok := m.run(states[from], l, w, coins, buf)
			if !ok {
				continue
			}
			to := spotOf(&end)
			edges[from] = append(edges[from], to)
			if _, seen := states[to]; !seen {
				states[to] = end
				order = append(order, to)
			}
		}
	}
	for i, got := range coins {
		if !got {
			p := l.Coins[i]
			missing = append(missing, fmt.Sprintf("(%d,%d)", int(p.X)/physics.TileSize, int(p.Y)/physics.TileSize))
		}
	}
	// Every spot can get back to the start: search backwards from it.
	back := map[spot][]spot{}
	for from, tos := range edges {
		for _, to := range tos {
			back[to] = append(back[to], from)
		}
	}
	home := map[spot]bool{order[0]: true}
	queue := []spot{order[0]}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, p := range back[s] {
			if !home[p] {
				home[p] = true
				queue = append(queue, p)
			}
		}
	}
	for _, s := range order {
		if !home[s] {
			traps = append(traps, fmt.Sprintf("(%d,%d)", s.tx, s.ty))
		}
	}
	return len(order), missing, traps
}
