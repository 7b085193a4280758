package physics

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// testLevel builds a w x h level with a solid border and the given solid
// rectangles (in tiles, inclusive) and one-way rows, and the player start
// at (1, 2).
func testLevel(tb testing.TB, w, h int, solid [][4]int, oneWay [][3]int) *Level {
	tb.Helper()
	g := make([][]byte, h)
	for y := range g {
		g[y] = []byte(strings.Repeat(".", w))
		g[y][0], g[y][w-1] = '#', '#'
	}
	for x := range w {
		g[0][x], g[h-1][x] = '#', '#'
	}
	for _, r := range solid {
		for y := r[1]; y <= r[3]; y++ {
			for x := r[0]; x <= r[2]; x++ {
				g[y][x] = '#'
			}
		}
	}
	for _, r := range oneWay {
		for x := r[0]; x <= r[1]; x++ {
			g[r[2]][x] = '='
		}
	}
	g[2][1] = 'P'
	var b strings.Builder
	for _, row := range g {
		b.Write(row)
		b.WriteByte('\n')
	}
	l, err := ParseLevel(tb.Name(), strings.NewReader(b.String()))
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

// rigConfig is what the character tests vary: the tick rate, gravity and
// the tuning.
type rigConfig struct {
	Hz        int
	Gravity   float64
	Character CharacterTuning
}

func defaultRig() rigConfig { return rigConfig{Hz: 60, Gravity: 1800, Character: DefaultTuning()} }

// rig steps a character on a level once a tick, as a platformer game does
// (the demo's world is one, with coins and bunnies besides).
type rig struct {
	level       *Level
	player      Character
	dt, gravity float64
	jumped      bool // the last Step jumped
}

// newRig stands a character on the bottom edge of l's 'P' tile, centred.
func newRig(tb testing.TB, l *Level, cfg rigConfig) *rig {
	tb.Helper()
	c, err := NewCharacter(cfg.Character, cfg.Hz)
	if err != nil {
		tb.Fatal(err)
	}
	r := &rig{level: l, player: c, dt: float64(1) / float64(cfg.Hz), gravity: cfg.Gravity}
	s, p := c.Body().Size, l.PlayerStart
	r.player.Place(Vec{X: p.X + float64(float64(TileSize-s.X)*0.5), Y: p.Y + (TileSize - s.Y)})
	return r
}

func (r *rig) Step(in Controls)   { r.jumped, _ = r.player.Step(in, r.level, r.dt, r.gravity) }
func (r *rig) Player() *Character { return &r.player }

// Teleport puts the character at pos, if its box fits there.
func (r *rig) Teleport(pos Vec) error {
	box := Box(pos, r.player.Body().Size)
	if !box.In(r.level.Bounds()) || r.level.OverlapsSolid(box) {
		return fmt.Errorf("teleport to %v: the box %v does not fit", pos, box)
	}
	r.player.Teleport(pos)
	return nil
}

// standAt teleports the player so it stands on the floor whose top is at
// tile row floorRow, with its left edge at x.
func standAt(tb testing.TB, w *rig, x float64, floorRow int) {
	tb.Helper()
	if err := w.Teleport(Vec{x, float64(floorRow*TileSize) - w.Player().Body().Size.Y}); err != nil {
		tb.Fatal(err)
	}
}

// apexLevel has two wide floors at different heights whose jumps stay in
// one binade of y ([512, 1024) px): floor tops at rows 60 and 50.
func apexLevel(tb testing.TB) *Level {
	return testLevel(tb, 100, 64, [][4]int{{1, 60, 48, 62}, {51, 50, 98, 62}}, nil)
}

// jumpApex stands the player at (x, floorRow), idles for idle ticks (with
// a few taps of left/right in pattern), jumps holding dir, and returns how
// far its top rose.
func jumpApex(tb testing.TB, l *Level, cfg rigConfig, x float64, floorRow, idle int, dir int, hold int) float64 {
	tb.Helper()
	w := newRig(tb, l, cfg)
	standAt(tb, w, x, floorRow)
	w.Step(Controls{})
	for i := range idle {
		// Idle with the odd tap that moves the player sideways a little.
		w.Step(Controls{Left: i%7 == 3, Right: i%5 == 1})
	}
	for k := 0; !w.Player().OnGround() || w.Player().Vel().X != 0; k++ {
		if k > 100 {
			tb.Fatal("player does not come to rest")
		}
		w.Step(Controls{})
	}
	start := w.Player().Pos().Y
	top := start
	in := Controls{Left: dir < 0, Right: dir > 0, Jump: true, JumpPressed: true}
	for k := 0; k < 4*cfg.Hz; k++ {
		if k == hold {
			in.Jump = false
		}
		w.Step(in)
		if k == 0 && !w.jumped {
			tb.Fatal("no jump")
		}
		in.JumpPressed = false
		top = min(top, w.Player().Pos().Y)
		if w.Player().OnGround() {
			break
		}
	}
	return start - top
}

// TestJumpApexBitIdentical: the apex at 60 Hz is the same float64, bit for
// bit, from different x positions, floors, idle times and run directions.
// (Floors are chosen so every y stays in one binade: the rounding of p+dy
// depends on which power of two p lies between, so only a fixed-point
// position could make heights identical across binades.)
func TestJumpApexBitIdentical(t *testing.T) {
	l := apexLevel(t)
	cfg := defaultRig()
	want := jumpApex(t, l, cfg, 40, 60, 0, 0, 1000)
	for _, c := range []struct {
		x          float64
		row, idle  int
		dir, delay int
	}{
		{40, 60, 0, 0, 0},
		{300.25, 60, 17, 1, 0},
		{700, 60, 3, -1, 0},
		{1000, 50, 40, 1, 0},
		{1333.5, 50, 1, -1, 0},
		{1500, 50, 25, 0, 0},
	} {
		got := jumpApex(t, l, cfg, c.x, c.row, c.idle, c.dir, 1000)
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("apex from x=%v row=%d idle=%d dir=%d is %v (%#x), want %v (%#x)",
				c.x, c.row, c.idle, c.dir, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
}

// TestJumpApexTickRates: at 30, 60 and 120 Hz the apex is within a pixel
// of the analytic v²/(2g), and each rate gives the same bits every run.
func TestJumpApexTickRates(t *testing.T) {
	l := apexLevel(t)
	cfg := defaultRig()
	analytic := cfg.Character.JumpSpeed * cfg.Character.JumpSpeed / (2 * cfg.Gravity)
	for _, hz := range []int{30, 60, 120, 144} {
		cfg.Hz = hz
		a := jumpApex(t, l, cfg, 100, 60, 5, 1, 1000)
		b := jumpApex(t, l, cfg, 100, 60, 5, 1, 1000)
		if math.Float64bits(a) != math.Float64bits(b) {
			t.Errorf("%d Hz: apex %v then %v", hz, a, b)
		}
		if math.Abs(a-analytic) > 1 {
			t.Errorf("%d Hz: apex %v px, analytic %v px", hz, a, analytic)
		}
		t.Logf("%3d Hz: apex %.17g px (analytic %v)", hz, a, analytic)
	}
}

func TestVariableJumpHeight(t *testing.T) {
	l := apexLevel(t)
	cfg := defaultRig()
	full := jumpApex(t, l, cfg, 100, 60, 0, 0, 1000)
	prev := 0.0
	for _, hold := range []int{1, 3, 6, 10, 15} {
		a := jumpApex(t, l, cfg, 100, 60, 0, 0, hold)
		if !(a > prev && a < full) {
			t.Errorf("releasing after %d ticks: apex %v, want between %v and the full %v", hold, a, prev, full)
		}
		prev = a
	}
	if short := jumpApex(t, l, cfg, 100, 60, 0, 0, 1); short > full/3 {
		t.Errorf("a tap jumps %v px, more than a third of the full %v", short, full)
	}
}

// ledgeWorld: a floor at row 10 from x=1 to 20, then a deep drop.
func ledgeWorld(tb testing.TB, cfg rigConfig) *rig {
	l := testLevel(tb, 60, 40, [][4]int{{1, 10, 20, 38}, {21, 38, 58, 38}}, nil)
	w := newRig(tb, l, cfg)
	standAt(tb, w, 20*TileSize-40, 10)
	w.Step(Controls{})
	return w
}

func TestCoyoteTime(t *testing.T) {
	cfg := defaultRig()
	// Walk right off the ledge; find the first tick that ends in the air.
	probe := ledgeWorld(t, cfg)
	n := probe.Player().CoyoteTicks()
	if n != 6 {
		t.Fatalf("CoyoteTicks = %d, want 0.1 s at 60 Hz = 6", n)
	}
	walk := 0
	for probe.Player().OnGround() {
		probe.Step(Controls{Right: true})
		walk++
		if walk > 200 {
			t.Fatal("never left the ledge")
		}
	}
	for k := 1; k <= n+2; k++ {
		w := ledgeWorld(t, cfg)
		for range walk {
			w.Step(Controls{Right: true})
		}
		for range k - 1 {
			w.Step(Controls{Right: true})
		}
		w.Step(Controls{Right: true, Jump: true, JumpPressed: true})
		if got, want := w.jumped, k <= n; got != want {
			t.Errorf("jump pressed %d ticks after leaving the ground: jumped=%v, want %v", k, got, want)
		}
	}
}

func TestJumpBuffer(t *testing.T) {
	cfg := defaultRig()
	l := testLevel(t, 20, 30, [][4]int{{1, 25, 18, 28}}, nil)
	drop := func() *rig {
		w := newRig(t, l, cfg)
		if err := w.Teleport(Vec{100, 100}); err != nil {
			t.Fatal(err)
		}
		return w
	}
	probe := drop()
	n := probe.Player().JumpBufferTicks()
	land := 0 // number of steps until the one that lands
	for !probe.Player().OnGround() {
		probe.Step(Controls{})
		land++
	}
	for k := 0; k <= n+2; k++ {
		w := drop()
		press := land + 1 - k // the step (1-based) with the press
		for s := 1; s <= land+1; s++ {
			in := Controls{}
			if s == press {
				in = Controls{Jump: true, JumpPressed: true}
			}
			w.Step(in)
			if s <= land && w.jumped {
				t.Fatalf("k=%d: jumped in the air on step %d", k, s)
			}
		}
		if got, want := w.jumped, k <= n; got != want {
			t.Errorf("jump pressed %d ticks before the first tick on the ground: jumped=%v, want %v", k, got, want)
		}
	}
}

func TestTimesRoundToTicks(t *testing.T) {
	l := apexLevel(t)
	for _, c := range []struct {
		hz, coyote, buffer int
	}{{30, 3, 3}, {60, 6, 6}, {144, 14, 14}, {1, 0, 0}} {
		cfg := defaultRig()
		cfg.Hz = c.hz
		w := newRig(t, l, cfg)
		if got := w.Player().CoyoteTicks(); got != c.coyote {
			t.Errorf("%d Hz: CoyoteTicks = %d, want %d", c.hz, got, c.coyote)
		}
		if got := w.Player().JumpBufferTicks(); got != c.buffer {
			t.Errorf("%d Hz: JumpBufferTicks = %d, want %d", c.hz, got, c.buffer)
		}
	}
}

func TestLandOnOneWayFromBelow(t *testing.T) {
	// Floor top at row 12, a one-way platform at row 9 above the player.
	l := testLevel(t, 20, 15, [][4]int{{1, 12, 18, 13}}, [][3]int{{1, 18, 9}})
	w := newRig(t, l, defaultRig())
	standAt(t, w, 100, 12)
	w.Step(Controls{})
	w.Step(Controls{Jump: true, JumpPressed: true})
	for range 120 {
		w.Step(Controls{Jump: true})
	}
	p := w.Player()
	if want := float64(9*TileSize) - p.Body().Size.Y; !p.OnGround() || p.Pos().Y != want {
		t.Fatalf("after jumping up through the platform: y=%v onGround=%v, want standing on it at y=%v", p.Pos().Y, p.OnGround(), want)
	}
	// Standing on it is stable.
	y := p.Pos().Y
	for range 60 {
		w.Step(Controls{})
		if p.Pos().Y != y || !p.OnGround() {
			t.Fatal("player sinks into the one-way platform")
		}
	}
}

func TestRunAndFrames(t *testing.T) {
	l := apexLevel(t)
	cfg := defaultRig()
	w := newRig(t, l, cfg)
	standAt(t, w, 100, 60)
	w.Step(Controls{})
	p := w.Player()
	if p.Pose() != PoseIdle {
		t.Errorf("standing: pose %d, want PoseIdle", p.Pose())
	}
	seen := map[int]bool{}
	for range 60 {
		w.Step(Controls{Right: true})
		seen[p.Pose()] = true
	}
	if p.Vel().X != cfg.Character.MaxRunSpeed || p.Facing() != 1 {
		t.Errorf("after a second running right: vx=%v facing=%d, want %v, 1", p.Vel().X, p.Facing(), cfg.Character.MaxRunSpeed)
	}
	for f := PoseRun0; f < PoseRun0+RunPoses; f++ {
		if !seen[f] {
			t.Errorf("run frame %d never shown", f)
		}
	}
	// Turning brakes first: vx drops below max and reaches -max later.
	w.Step(Controls{Left: true})
	if v := p.Vel().X; !(v < cfg.Character.MaxRunSpeed && v > 0) || p.Facing() != -1 {
		t.Errorf("first tick turning: vx=%v facing=%d", v, p.Facing())
	}
	for range 30 {
		w.Step(Controls{})
	}
	if p.Vel().X != 0 || p.Pose() != PoseIdle {
		t.Errorf("after letting go: vx=%v pose=%d, want 0, idle", p.Vel().X, p.Pose())
	}
	w.Step(Controls{Jump: true, JumpPressed: true})
	if p.Pose() != PoseJump {
		t.Errorf("rising: pose %d, want PoseJump", p.Pose())
	}
	for p.Vel().Y < 0 {
		w.Step(Controls{Jump: true})
	}
	w.Step(Controls{Jump: true})
	if p.Pose() != PoseFall {
		t.Errorf("falling: pose %d, want PoseFall", p.Pose())
	}
}

// TestCharacterHashSeesEveryBit: flipping any one bit of the character's
// position changes its hash, and so does a teleport (a new generation).
func TestCharacterHashSeesEveryBit(t *testing.T) {
	w := newRig(t, testLevel(t, 20, 10, nil, nil), defaultRig())
	for range 10 {
		w.Step(Controls{Right: true})
	}
	hash := func() uint64 {
		h := NewHasher()
		w.player.Hash(&h)
		return h.Sum()
	}
	h0 := hash()
	for _, p := range []*float64{&w.player.body.Pos.X, &w.player.body.Pos.Y, &w.player.body.Vel.X, &w.player.runPhase} {
		for bit := range 64 {
			old := *p
			*p = math.Float64frombits(math.Float64bits(old) ^ 1<<bit)
			if hash() == h0 {
				t.Fatalf("flipping bit %d leaves the hash unchanged", bit)
			}
			*p = old
		}
	}
	if hash() != h0 {
		t.Fatal("the hash is not a function of the state")
	}
	w.player.Teleport(w.player.Pos())
	if hash() == h0 {
		t.Fatal("a teleport leaves the hash unchanged")
	}
}

func TestNewCharacterErrors(t *testing.T) {
	for _, c := range []struct {
		t    CharacterTuning
		hz   int
		want string
	}{
		{CharacterTuning{MaxRunSpeed: math.Inf(1)}, 60, "Character.MaxRunSpeed is +Inf"},
		{CharacterTuning{JumpCut: 2}, 60, "JumpCut is 2"},
		{CharacterTuning{Height: 500}, 60, "larger than"},
		{CharacterTuning{}, 0, "0 Hz"},
	} {
		if _, err := NewCharacter(c.t, c.hz); err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrConfig) {
			t.Errorf("%+v at %d Hz: %v, want %q", c.t, c.hz, err, c.want)
		}
	}
}
