package scene

import (
	"fmt"

	"github.com/tandem-engine/tandem/physics"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

// The buttons the demo understands. The app maps keys and gamepad buttons
// to them; the sim sees only these bits.
const (
	ButtonLeft simthread.Buttons = 1 << iota
	ButtonRight
	ButtonJump
)

// Frames are the frame-table indices the scenes draw with. The app fills
// them from the atlas; the sim only ever handles the numbers.
type Frames struct {
	Player     [physics.FrameCount]uint16 // facing right, by physics.Character.Frame
	PlayerLeft [physics.FrameCount]uint16 // the same, mirrored
	Coin       [4]uint16                  // spin animation
	Bunny      [4]uint16                  // colour variants
	TileSolid  uint16
	TileGrass  uint16 // a solid tile with open space above it
	TileOneWay uint16
	Ship       uint16 // the shooter's
	Bullet     uint16
	Gun        uint16
}

// Kind names a scene.
type Kind string

// The scenes.
const (
	Platformer Kind = "platformer"
	Bunnymark  Kind = "bunnymark"
	Shooter    Kind = "shooter"
)

// ParseKind returns the scene called s.
func ParseKind(s string) (Kind, error) {
	switch k := Kind(s); k {
	case Platformer, Bunnymark, Shooter:
		return k, nil
	}
	return "", fmt.Errorf("scene: unknown scene %q (use platformer, bunnymark or shooter)", s)
}

// Game is a scene running on a physics world. It implements simthread.Sim.
type Game struct {
	kind   Kind
	shoot  *Shmup // the shooter's world; nil in the other scenes
	st     *stage // the other scenes' world and camera; nil in the shooter
	frames Frames
	spin   bool
}

var _ simthread.Sim = (*Game)(nil)

// Config is what a scene is built from.
type Config struct {
	Kind    Kind
	Level   *physics.Level // the platformer's level; ignored by the others
	Hz      int
	Seed    uint64
	Bunnies int // the bunnies; in the shooter, the bullets in flight at most
	// ArenaW, ArenaH are the bunnymark's and the shooter's arena in
	// pixels (the window size).
	ArenaW, ArenaH int
	// Spin draws the bunnies turning. The classic bunnymark (pixi.js,
	// Ebitengine's) draws them upright, which software rasterizers draw
	// faster as axis-aligned rectangles; the physics spins them either way.
	Spin bool
}

// New builds the scene.
func New(cfg Config, frames Frames) (*Game, error) {
	if cfg.Kind == Shooter {
		if cfg.Hz <= 0 || cfg.ArenaW < 64 || cfg.ArenaH < 64 || cfg.Bunnies < 0 {
			return nil, fmt.Errorf("scene: shooter: %d Hz, %dx%d arena, %d bullets", cfg.Hz, cfg.ArenaW, cfg.ArenaH, cfg.Bunnies)
		}
		return &Game{kind: Shooter, frames: frames,
			shoot: &Shmup{*newShooter(float64(cfg.ArenaW), float64(cfg.ArenaH), cfg.Hz, cfg.Seed, cfg.Bunnies), frames}}, nil
	}
	level := cfg.Level
	if cfg.Kind == Bunnymark {
		var err error
		if level, err = arena(cfg.ArenaW, cfg.ArenaH); err != nil {
			return nil, err
		}
	}
	if level == nil {
		return nil, fmt.Errorf("scene: %s needs a level", cfg.Kind)
	}
	st, err := newStage(level, cfg.Hz, cfg.Seed, cfg.Bunnies, cfg.Kind == Bunnymark)
	if err != nil {
		return nil, err
	}
	return &Game{kind: cfg.Kind, st: st, frames: frames, spin: cfg.Spin}, nil
}

// World returns the physics world, nil in the shooter. Sim thread only
// while the loop runs.
func (g *Game) World() *World {
	if g.st == nil {
		return nil
	}
	return g.st.world
}

// Shmup returns the shooter's world, nil in the other scenes. Sim
// thread only while the loop runs.
func (g *Game) Shmup() *Shmup { return g.shoot }

// Kind returns the scene's kind.
func (g *Game) Kind() Kind { return g.kind }

// Step implements simthread.Sim.
func (g *Game) Step(in simthread.TickInput) {
	if g.shoot != nil {
		g.shoot.Step(in)
		return
	}
	c := physics.Controls{
		Left:        in.Down&ButtonLeft != 0,
		Right:       in.Down&ButtonRight != 0,
		Jump:        in.Down&ButtonJump != 0,
		JumpPressed: in.Pressed&ButtonJump != 0,
	}
	if g.kind == Bunnymark {
		c = physics.Controls{}
	}
	g.st.step(c)
}

// Publish implements simthread.Sim. Slots, in drawing order: the bunnies
// (load, behind everything), every coin (collected ones hidden, so later
// slots keep their place), then the player on top.
func (g *Game) Publish(dst *snapshot.Snapshot) {
	if g.shoot != nil {
		g.shoot.Publish(dst)
		return
	}
	w := g.st.world
	dst.Camera = snapshot.Camera{X: float32(g.st.camX), Y: float32(g.st.camY), Zoom: 1, Gen: g.st.camGen}
	coins := w.Coins()
	bun := w.Bunnies()
	nb := bun.Len()
	n := nb
	if g.kind == Platformer {
		n += len(coins) + 1
	}
	sp := &dst.Sprites
	sp.Resize(n)

	// Bunnies: ids after the player's (0) and the coins'.
	const half = float32(BunnySize) / 2
	base := uint32(1 + len(coins))
	ids, gens, xs, ys, as, fr, ti := sp.ID[:nb], sp.Gen[:nb], sp.X[:nb], sp.Y[:nb], sp.Angle[:nb], sp.Frame[:nb], sp.Tint[:nb]
	bx, by, ba := bun.X[:nb], bun.Y[:nb], bun.Angle[:nb]
	for k := range bx {
		ids[k], gens[k] = base+uint32(k), 0
		xs[k], ys[k], as[k] = bx[k]+half, by[k]+half, 0
		fr[k], ti[k] = g.frames.Bunny[k&3], snapshot.White
	}
	if g.spin {
		copy(as, ba)
	}
	if g.kind != Platformer {
		return
	}
	spin := int(w.Tick() / 8)
	for k := range coins {
		c := &coins[k]
		tint := snapshot.White
		if c.Collected {
			tint = 0
		}
		const half = float32(CoinSize) / 2
		sp.Set(nb+k, uint32(1+k), c.Generation, float32(c.Pos.X)+half, float32(c.Pos.Y)+half, 0,
			g.frames.Coin[(spin+k)%len(g.frames.Coin)], tint)
	}
	p := w.Player()
	box := p.Box()
	f := p.Frame()
	frame := g.frames.Player[f]
	if p.Facing() < 0 {
		frame = g.frames.PlayerLeft[f]
	}
	sp.Set(n-1, 0, p.Generation(),
		float32((box.Min.X+box.Max.X)/2), float32((box.Min.Y+box.Max.Y)/2), 0, frame, snapshot.White)
}

// Hash implements simthread.Sim: the world's state hash, camera included.
func (g *Game) Hash() uint64 {
	if g.shoot != nil {
		return g.shoot.Hash()
	}
	return g.st.hash()
}

// NoTile is the frame of an empty cell in [Game.Tiles].
const NoTile = 0xFFFF

// Tiles returns the level's tile layer, once per level: a row-major grid
// of W x H cells of physics.TileSize px, each the frame to draw or NoTile.
// The bunnymark has none. Call before the loop starts.
func (g *Game) Tiles() (w, h int, frames []uint16) {
	if g.kind != Platformer {
		return 0, 0, nil
	}
	l := g.st.world.Level()
	frames = make([]uint16, l.W*l.H)
	for ty := range l.H {
		for tx := range l.W {
			f := uint16(NoTile)
			switch l.At(tx, ty) {
			case physics.TileSolid:
				f = g.frames.TileSolid
				if l.At(tx, ty-1) != physics.TileSolid {
					f = g.frames.TileGrass
				}
			case physics.TileOneWay:
				f = g.frames.TileOneWay
			}
			frames[ty*l.W+tx] = f
		}
	}
	return l.W, l.H, frames
}

// Bounds returns the world's extent in pixels, for the renderer's camera
// clamp.
func (g *Game) Bounds() (minX, minY, maxX, maxY float32) {
	if g.shoot != nil {
		return 0, 0, float32(g.shoot.w), float32(g.shoot.h)
	}
	b := g.st.world.Level().Bounds()
	return float32(b.Min.X), float32(b.Min.Y), float32(b.Max.X), float32(b.Max.Y)
}

// Shmup is the shoot-'em-up of [ShooterGame] run by a [Game]: its
// simulation, drawn with the Frames the app gives.
type Shmup struct {
	shooter
	frames Frames
}

// Hits returns the number of ships hit so far.
func (s *Shmup) Hits() uint64 { return s.hits }

// Fired returns the number of bullets fired so far.
func (s *Shmup) Fired() uint64 { return s.fired }

// Step implements the shooter's tick.
func (s *Shmup) Step(in simthread.TickInput) {
	s.step(shooterInput{left: in.Down&ButtonLeft != 0, right: in.Down&ButtonRight != 0, fire: in.Down&ButtonJump != 0,
		stick: in.Axes[0], hasPointer: in.HasPointer, pointerX: in.PointerX})
}

// Publish writes every entity's slot: ships, the gun and bullets, in the
// order they were first spawned; slots of dead bullets are hidden.
func (s *Shmup) Publish(dst *snapshot.Snapshot) {
	dst.Camera = snapshot.Camera{X: float32(s.w / 2), Y: float32(s.h / 2), Zoom: 1}
	t := &s.slots
	sp := &dst.Sprites
	sp.Resize(len(t.x))
	frames := [roles]uint16{roleShip: s.frames.Ship, roleGun: s.frames.Gun, roleBullet: s.frames.Bullet}
	for k := range t.x {
		tint := snapshot.White
		if !t.alive[k] {
			tint = 0
		}
		sp.Set(k, 1+uint32(k), t.gen[k], t.x[k], t.y[k], 0, frames[t.role[k]], tint)
		sp.Scale[k] = 0
	}
}

// Hash returns a hash of the exact bits of the whole state.
func (s *Shmup) Hash() uint64 { return s.hash() }
