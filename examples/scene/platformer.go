package scene

import (
	"errors"
	"fmt"
	"strconv"

	"golang.org/x/image/font/gofont/gobold"

	"github.com/tandem-engine/tandem"
	"github.com/tandem-engine/tandem/levels"
	"github.com/tandem-engine/tandem/physics"
)

// Platformer is the platformer: the player runs and jumps through a
// level (-level, the demo's by default) collecting coins, with -sprites
// bouncing bunnies behind everything as load. Left and Right run, Jump
// jumps (higher while held). The world is a [World]; the camera eases
// after the player and cuts when it respawns.
//
// It draws the bunnies on layer 0, the coins on layer 1 (spinning; a
// collected coin is despawned) and the player on layer 2, and the level's
// tiles behind them, pixel art zoomed to about 360 lines.
type Platformer struct {
	st      *stage
	bunnies bunnySprites
	coins   []tandem.ID // by coin index
	spin    tandem.Animation
	player  tandem.ID
	// The player's frames facing right and left, by
	// physics.Character.Pose.
	right, left [physics.PoseCount]tandem.Frame
	sfx         sounds
	// The coin count, top right, in Go Bold: a font of the game's own.
	font   tandem.Font
	arenaW float32
	line   []byte // "coins 3 / 20", formatted each tick into its own storage
}

var (
	_ tandem.Game      = (*Platformer)(nil)
	_ tandem.Describer = (*Platformer)(nil)
	_ tandem.Hasher    = (*Platformer)(nil)
	_ tandem.Counter   = (*Platformer)(nil)
)

// NewPlatformer returns the platformer, a *[Platformer].
func NewPlatformer() tandem.Game { return &Platformer{} }

// Info implements tandem.Describer: "platformer", no bunnies unless
// -sprites asks, the demo level unless -level names another.
func (g *Platformer) Info() tandem.Info {
	return tandem.Info{Name: "platformer", Level: levels.Demo}
}

// Setup implements tandem.Game: the sprites, the level's tiles, the world
// and its entities.
func (g *Platformer) Setup(s *tandem.Setup) error {
	level := s.Level()
	if level == nil {
		return errors.New("scene: platformer: no level")
	}
	if err := loadImages(s); err != nil {
		return err
	}
	st, err := newStage(level, s.Hz(), s.Seed(), s.Sprites(), false)
	if err != nil {
		return err
	}
	tiles := legend{solid: s.Frame("tile_solid"), grass: s.Frame("tile_grass"), oneWay: s.Frame("tile_oneway")}
	s.Tiles(level, tiles.frame)
	s.PixelArt(360) // 2x in a 720-line window, 3x in a 1080-line one

	sfx, err := loadSounds(s)
	if err != nil {
		return err
	}
	font, err := s.Font("Go Bold", gobold.TTF)
	if err != nil {
		return err
	}
	aw, _ := s.Arena()
	*g = Platformer{st: st, sfx: sfx, font: font, arenaW: float32(aw), line: make([]byte, 0, 32)}
	g.right[physics.PoseIdle] = s.Frame("player_idle0")
	for k := range physics.RunPoses {
		g.right[physics.PoseRun0+k] = s.Frame(fmt.Sprintf("player_run%d", k))
	}
	g.right[physics.PoseJump] = s.Frame("player_jump")
	g.right[physics.PoseFall] = s.Frame("player_fall")
	for i, f := range g.right {
		g.left[i] = s.Mirrored(f)
	}
	for i := range 4 {
		g.spin = append(g.spin, s.Frame(fmt.Sprintf("coin%d", i)))
	}

	w := s.World()
	g.bunnies = spawnBunnies(s, st.world.Bunnies())
	coins := st.world.Coins()
	g.coins = make([]tandem.ID, len(coins))
	w.Reserve(layerCoins, len(coins)) // a slot each, no more
	w.Reserve(layerPlayer, 1)
	for k := range coins {
		const half = float32(CoinSize) / 2
		c := &coins[k]
		g.coins[k] = w.Spawn(tandem.Sprite{X: float32(c.Pos.X) + half, Y: float32(c.Pos.Y) + half,
			Frame: g.spin.At(k), Layer: layerCoins})
	}
	g.player = w.Spawn(g.playerSprite())
	aim(w, st, false)
	return nil
}

// legend is the platformer's tile frames.
type legend struct{ solid, grass, oneWay tandem.Frame }

// frame returns the frame of tile (tx, ty) of l: grass on a solid tile
// with open space above it, or tandem.NoTile for an empty one.
func (lg legend) frame(l *physics.Level, tx, ty int) tandem.Frame {
	switch l.At(tx, ty) {
	case physics.TileSolid:
		if l.At(tx, ty-1) != physics.TileSolid {
			return lg.grass
		}
		return lg.solid
	case physics.TileOneWay:
		return lg.oneWay
	}
	return tandem.NoTile
}

// Tick implements tandem.Game: the world steps with the tick's Left, Right
// and Jump, then the entities and the camera follow it.
func (g *Platformer) Tick(w *tandem.World) {
	wasGround := g.st.world.Player().OnGround()
	cut := g.st.step(physics.Controls{
		Left:        w.Down(tandem.Left),
		Right:       w.Down(tandem.Right),
		Jump:        w.Down(tandem.Jump),
		JumpPressed: w.Pressed(tandem.Jump),
	})
	world := g.st.world
	g.bunnies.draw(w, world.Bunnies())
	cam := w.Camera()
	for _, o := range world.Outcomes() {
		if o.Kind == OutcomeCoin {
			if c, ok := w.Get(g.coins[o.Index]); ok {
				w.Play(g.sfx.coin, 0.8, panOf(c.X, cam.X, 320))
			}
			w.Despawn(g.coins[o.Index])
		}
	}
	g.sounds(w, wasGround, cut)
	// Coin k shows frame (tick/8 + k) of the spin: a new frame every 8
	// ticks.
	if t := world.Tick(); t%8 == 0 {
		for k, id := range g.coins {
			if c, ok := w.Get(id); ok {
				c.Frame = g.spin.At(int(t/8) + k)
				w.Set(id, c)
			}
		}
	}
	p := g.playerSprite()
	w.Set(g.player, p)
	if cut { // a respawn: not blended from where it fell
		w.Teleport(g.player, p.X, p.Y)
	}
	aim(w, g.st, cut)
	g.showCoins(w)
}

// showCoins writes the coins taken of all, top right on the screen, in
// the game's font on a dark panel, with a coin's yellow disc after it; it
// allocates nothing once its buffer has grown.
func (g *Platformer) showCoins(w *tandem.World) {
	all := len(g.coins)
	b := append(g.line[:0], "coins "...)
	b = strconv.AppendInt(b, int64(all-g.st.world.CoinsLeft()), 10)
	b = append(b, " / "...)
	b = strconv.AppendInt(b, int64(all), 10)
	g.line = b
	x := g.arenaW - 16
	w.RoundRect(x-250, 12, 250, 48, 12, tandem.Style{Screen: true, Color: 0x90000000})
	w.PrintBytes(x-44, 20, b, tandem.TextStyle{Font: g.font, Size: 28, Align: tandem.AlignRight, Screen: true})
	w.Circle(x-24, 36, 11, tandem.Style{Screen: true, Color: 0xFF20C8FF})
	w.Circle(x-24, 36, 11, tandem.Style{Screen: true, Width: 2, Color: 0xFF0080C0})
}

// sounds plays the tick's sounds: the music from the first tick, a jump
// when the player leaves the ground going up, a landing when it comes
// down on it (not at a respawn).
func (g *Platformer) sounds(w *tandem.World, wasGround, cut bool) {
	if w.Tick() == 1 {
		w.Music(g.sfx.music, 0.35)
	}
	p := g.st.world.Player()
	switch {
	case cut:
	case wasGround && !p.OnGround() && p.Vel().Y < 0:
		w.Play(g.sfx.jump, 0.7, 0)
	case !wasGround && p.OnGround():
		w.Play(g.sfx.land, 0.8, 0)
	}
}

// playerSprite returns how the player looks: its box's centre, the frame
// of what it does, facing the way it faces.
func (g *Platformer) playerSprite() tandem.Sprite {
	p := g.st.world.Player()
	box := p.Box()
	f := g.right[p.Pose()]
	if p.Facing() < 0 {
		f = g.left[p.Pose()]
	}
	return tandem.Sprite{X: float32((box.Min.X + box.Max.X) / 2), Y: float32((box.Min.Y + box.Max.Y) / 2),
		Frame: f, Layer: layerPlayer}
}

// StateHash implements tandem.Hasher: the world's hash (the player, the
// coins, the bunnies, the random generator) with the camera's cuts, as
// recordings of the platformer have always checked it.
func (g *Platformer) StateHash() uint64 { return g.st.hash() }

// Counters implements tandem.Counter: coins_left.
func (g *Platformer) Counters(add func(name string, v int64)) {
	add("coins_left", int64(g.st.world.CoinsLeft()))
}

// World returns the physics world: the level, the player, the coins and
// the bunnies. Between ticks only.
func (g *Platformer) World() *World { return g.st.world }
