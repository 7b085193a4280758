package physics

import (
	"errors"
	"fmt"
	"math"
)

// CoinSize is the edge of a coin's square box in px. A coin sits centred
// in its tile.
const CoinSize = 10

// coinCell is the broadphase cell edge for coins: 4 tiles.
const coinCell = 4 * TileSize

// Coin is a pickup. Its box is Box(Pos, {CoinSize, CoinSize}).
type Coin struct {
	Pos        Vec    // top-left of the coin's box, px
	Collected  bool   // taken by the player
	Generation uint32 // incremented whenever the coin changes state (collected); renderers snap instead of blending across a change
}

// Box returns the coin's box.
func (c Coin) Box() AABB { return Box(c.Pos, Vec{CoinSize, CoinSize}) }

// OutcomeKind says what an Outcome is about.
type OutcomeKind uint8

const (
	OutcomeCoin    OutcomeKind = iota + 1 // the player collected coin Index
	OutcomeJump                           // the player jumped
	OutcomeLand                           // the player landed
	OutcomeRespawn                        // the player fell out of the world and was put back at the start
)

// String returns the kind's lowercase name, such as "coin".
func (k OutcomeKind) String() string {
	switch k {
	case OutcomeCoin:
		return "coin"
	case OutcomeJump:
		return "jump"
	case OutcomeLand:
		return "land"
	case OutcomeRespawn:
		return "respawn"
	}
	return fmt.Sprintf("OutcomeKind(%d)", uint8(k))
}

// Outcome is something that happened during a Step. Index is the coin index
// for OutcomeCoin and 0 otherwise.
type Outcome struct {
	Kind  OutcomeKind
	Index int
}

// World is the whole simulation: a level, the player, coins and bunnies.
// It belongs to one goroutine (the sim thread); see the package comment.
type World struct {
	level    *Level
	cfg      Config
	dt       float64
	tick     uint64
	rng      RNG
	player   Character
	coins    []Coin
	left     int // coins not collected
	grid     *Grid
	outcomes []Outcome
	hits     []int32 // scratch for coin queries
	bunnies  *Bunnies
	bBounds  AABB // bounds of bunny top-left corners
}

// NewWorld builds a world on level with cfg (zero fields filled from
// DefaultConfig). It returns an error if cfg is invalid (Hz <= 0, negative
// tuning, ...) or the level is malformed or leaves no room for the player
// at its start. The World keeps level and never modifies it.
func NewWorld(level *Level, cfg Config) (*World, error) {
	if level == nil {
		return nil, errors.New("physics: NewWorld: nil level (load one with LoadLevel)")
	}
	if level.W <= 0 || level.H <= 0 || level.W > MaxLevelTiles || level.H > MaxLevelTiles || len(level.Tiles) != level.W*level.H {
		return nil, fmt.Errorf("physics: NewWorld: level %s is %dx%d tiles with %d tiles stored (build levels with ParseLevel)",
			level.Name, level.W, level.H, len(level.Tiles))
	}
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	w := &World{
		level: level,
		cfg:   cfg,
		dt:    float64(1) / float64(cfg.Hz),
		rng:   NewRNG(cfg.Seed),
	}
	t := cfg.Character
	w.player = Character{
		body:        Body{Size: Vec{t.Width, t.Height}},
		facing:      1,
		tuning:      t,
		coyoteTicks: ticks(t.CoyoteTime, cfg.Hz),
		bufferTicks: ticks(t.JumpBuffer, cfg.Hz),
	}
	start := w.StartPos()
	if box := Box(start, w.player.body.Size); !box.In(level.Bounds()) || overlapsSolid(level, box) {
		return nil, fmt.Errorf("physics: NewWorld: level %s: the %vx%v px player does not fit at its start 'P' (tile %d,%d); leave empty tiles above and beside P",
			level.Name, t.Width, t.Height, int(level.PlayerStart.X)/TileSize, int(level.PlayerStart.Y)/TileSize)
	}
	w.player.place(start)

	w.coins = make([]Coin, len(level.Coins))
	boxes := make([]AABB, len(level.Coins))
	const inset = (TileSize - CoinSize) / 2
	for i, p := range level.Coins {
		w.coins[i] = Coin{Pos: p.Add(Vec{inset, inset})}
		boxes[i] = w.coins[i].Box()
	}
	w.left = len(w.coins)
	w.grid = NewGrid(level.Bounds(), coinCell)
	w.grid.Build(boxes)
	w.hits = make([]int32, 0, len(w.coins))
	w.outcomes = make([]Outcome, 0, len(w.coins)+4)

	b := level.Bounds()
	w.bBounds = AABB{b.Min, b.Max.Sub(Vec{BunnySize, BunnySize})}
	if w.bBounds.Max.X < w.bBounds.Min.X {
		w.bBounds.Max.X = w.bBounds.Min.X
	}
	if w.bBounds.Max.Y < w.bBounds.Min.Y {
		w.bBounds.Max.Y = w.bBounds.Min.Y
	}
	w.bunnies = NewBunnies(cfg.Bunnies, w.rng.Uint64(), w.bBounds)
	return w, nil
}

// overlapsSolid reports whether box overlaps a solid tile (by more than
// Skin).
func overlapsSolid(l *Level, box AABB) bool {
	x0, x1 := span(box.Min.X, box.Max.X, l.W)
	y0, y1 := span(box.Min.Y, box.Max.Y, l.H)
	for ty := y0; ty <= y1; ty++ {
		for tx := x0; tx <= x1; tx++ {
			if l.At(tx, ty) == TileSolid {
				return true
			}
		}
	}
	return false
}

// StartPos returns where the player (re)spawns: standing on the bottom
// edge of the level's 'P' tile, centred on it.
func (w *World) StartPos() Vec {
	s := w.player.body.Size
	p := w.level.PlayerStart
	return Vec{p.X + float64(float64(TileSize-s.X)*0.5), p.Y + (TileSize - s.Y)}
}

// Step advances the world by one fixed tick of Dt seconds with the
// player's controls c: the player moves, falls and collides; coins it
// touches are collected; if it has left the level it respawns at the
// start; the bunnies move. Outcomes() then lists what happened, in a fixed
// order: jump, land, coins by ascending index, respawn. Step allocates
// nothing. Call it only from the goroutine that owns w (the sim thread).
func (w *World) Step(c Controls) {
	w.outcomes = w.outcomes[:0]
	jumped, landed := w.player.step(c, w.level, w.dt, w.cfg.Gravity)
	if jumped {
		w.outcomes = append(w.outcomes, Outcome{Kind: OutcomeJump})
	}
	if landed {
		w.outcomes = append(w.outcomes, Outcome{Kind: OutcomeLand})
	}
	box := w.player.Box()
	if w.left > 0 {
		w.hits = w.grid.Query(box, w.hits[:0])
		for _, i := range w.hits {
			if c := &w.coins[i]; !c.Collected {
				c.Collected = true
				c.Generation++
				w.left--
				w.outcomes = append(w.outcomes, Outcome{Kind: OutcomeCoin, Index: int(i)})
			}
		}
	}
	// A closed world cannot be left; this is the safety net if a level or
	// a Teleport breaks that.
	if !box.Overlaps(w.level.Bounds()) || math.IsNaN(box.Min.X+box.Min.Y) {
		w.Respawn()
		w.outcomes = append(w.outcomes, Outcome{Kind: OutcomeRespawn})
	}
	w.bunnies.Step(float32(w.dt), float32(w.cfg.Gravity), w.bBounds)
	w.tick++
}

// Respawn puts the player back at StartPos, standing still, and increments
// its generation.
func (w *World) Respawn() { w.teleport(w.StartPos()) }

func (w *World) teleport(pos Vec) {
	w.player.place(pos)
	w.player.generation++
}

// Teleport moves the player's top-left corner to pos, stops it and
// increments its generation, so renderers snap to it. It returns an error,
// and changes nothing, if the player's box at pos would leave the level or
// overlap a solid tile.
func (w *World) Teleport(pos Vec) error {
	box := Box(pos, w.player.body.Size)
	if !box.In(w.level.Bounds()) || overlapsSolid(w.level, box) {
		return fmt.Errorf("physics: teleport to (%v, %v): the player's box %v would be outside the level or inside a solid tile", pos.X, pos.Y, box)
	}
	w.teleport(pos)
	return nil
}

// Tick returns the number of Steps taken so far.
func (w *World) Tick() uint64 { return w.tick }

// Dt returns the fixed tick length in seconds, float64(1)/float64(Hz).
func (w *World) Dt() float64 { return w.dt }

// Config returns the world's configuration, with defaults filled in.
func (w *World) Config() Config { return w.cfg }

// Level returns the world's level (read-only).
func (w *World) Level() *Level { return w.level }

// Player returns the player character, for reading.
func (w *World) Player() *Character { return &w.player }

// Bunnies returns the load-scene bodies, for reading.
func (w *World) Bunnies() *Bunnies { return w.bunnies }

// BunnyBounds returns the box the bunnies' top-left corners stay in.
func (w *World) BunnyBounds() AABB { return w.bBounds }

// Coins returns the coins, in the order of Level.Coins. The slice is the
// world's own: read it, do not modify it. Its elements change in Step.
func (w *World) Coins() []Coin { return w.coins }

// CoinsLeft returns how many coins have not been collected.
func (w *World) CoinsLeft() int { return w.left }

// QueryCoins appends to dst the indices of the coins (collected or not)
// whose boxes overlap box, ascending, using the broadphase grid, and
// returns the extended slice.
func (w *World) QueryCoins(box AABB, dst []int32) []int32 { return w.grid.Query(box, dst) }

// Outcomes returns what happened during the last Step, in Step's order. The
// slice is reused: it is valid until the next Step.
func (w *World) Outcomes() []Outcome { return w.outcomes }
