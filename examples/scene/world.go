package scene

import (
	"errors"
	"fmt"
	"math"

	"github.com/tandem-engine/tandem/physics"
)

// CoinSize is the edge of a coin's square box in px. A coin sits centred
// in its tile.
const CoinSize = 10

// coinCell is the broadphase cell edge for coins: 4 tiles.
const coinCell = 4 * physics.TileSize

// Coin is a pickup. Its box is Box(Pos, {CoinSize, CoinSize}).
type Coin struct {
	Pos        physics.Vec // top-left of the coin's box, px
	Collected  bool        // taken by the player
	Generation uint32      // incremented whenever the coin changes state (collected); renderers snap instead of blending across a change
}

// Box returns the coin's box.
func (c Coin) Box() physics.AABB { return physics.Box(c.Pos, physics.Vec{X: CoinSize, Y: CoinSize}) }

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
	level    *physics.Level
	cfg      WorldConfig
	dt       float64
	tick     uint64
	rng      physics.RNG
	player   physics.Character
	coins    []Coin
	left     int // coins not collected
	grid     *physics.Grid
	outcomes []Outcome
	hits     []int32 // scratch for coin queries
	bunnies  *Bunnies
	bBounds  physics.AABB // bounds of bunny top-left corners
}

// NewWorld builds a world on level with cfg (zero fields filled from
// DefaultWorldConfig). It returns an error if cfg is invalid (Hz <= 0,
// negative tuning, ...) or the level is malformed or leaves no room for the
// player at its start. The World keeps level and never modifies it.
func NewWorld(level *physics.Level, cfg WorldConfig) (*World, error) {
	if level == nil {
		return nil, errors.New("scene: NewWorld: nil level (load one with physics.LoadLevel)")
	}
	if level.W <= 0 || level.H <= 0 || level.W > physics.MaxLevelTiles || level.H > physics.MaxLevelTiles || len(level.Tiles) != level.W*level.H {
		return nil, fmt.Errorf("scene: NewWorld: level %s is %dx%d tiles with %d tiles stored (build levels with physics.ParseLevel)",
			level.Name, level.W, level.H, len(level.Tiles))
	}
	if cfg.Gravity == 0 {
		cfg.Gravity = DefaultWorldConfig().Gravity
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	player, err := physics.NewCharacter(cfg.Character, cfg.Hz)
	if err != nil {
		return nil, err
	}
	cfg.Character = player.Tuning()
	w := &World{
		level:  level,
		cfg:    cfg,
		dt:     float64(1) / float64(cfg.Hz),
		rng:    physics.NewRNG(cfg.Seed),
		player: player,
	}
	t := cfg.Character
	start := w.StartPos()
	if box := physics.Box(start, w.player.Body().Size); !box.In(level.Bounds()) || level.OverlapsSolid(box) {
		// Where the loader puts its errors: file:line:col from 1, or the
		// tile's row and column from 1 for a level built by hand.
		at := fmt.Sprintf("%s:%d:%d", level.Name, level.StartLine, level.StartCol)
		if level.StartLine == 0 {
			at = fmt.Sprintf("level %s, row %d, column %d", level.Name, int(level.PlayerStart.Y)/physics.TileSize+1, int(level.PlayerStart.X)/physics.TileSize+1)
		}
		return nil, fmt.Errorf("scene: %s: the %vx%v px player does not fit at its start 'P'; leave empty tiles above and beside P",
			at, t.Width, t.Height)
	}
	w.player.Place(start)

	w.coins = make([]Coin, len(level.Coins))
	boxes := make([]physics.AABB, len(level.Coins))
	const inset = (physics.TileSize - CoinSize) / 2
	for i, p := range level.Coins {
		w.coins[i] = Coin{Pos: p.Add(physics.Vec{X: inset, Y: inset})}
		boxes[i] = w.coins[i].Box()
	}
	w.left = len(w.coins)
	w.grid = physics.NewGrid(level.Bounds(), coinCell)
	w.grid.Build(boxes)
	w.hits = make([]int32, 0, len(w.coins))
	w.outcomes = make([]Outcome, 0, len(w.coins)+4)

	b := level.Bounds()
	w.bBounds = physics.AABB{Min: b.Min, Max: b.Max.Sub(physics.Vec{X: BunnySize, Y: BunnySize})}
	if w.bBounds.Max.X < w.bBounds.Min.X {
		w.bBounds.Max.X = w.bBounds.Min.X
	}
	if w.bBounds.Max.Y < w.bBounds.Min.Y {
		w.bBounds.Max.Y = w.bBounds.Min.Y
	}
	w.bunnies = NewBunnies(cfg.Bunnies, w.rng.Uint64(), w.bBounds)
	return w, nil
}

// StartPos returns where the player (re)spawns: standing on the bottom
// edge of the level's 'P' tile, centred on it.
func (w *World) StartPos() physics.Vec {
	s := w.player.Body().Size
	p := w.level.PlayerStart
	return physics.Vec{X: p.X + float64(float64(physics.TileSize-s.X)*0.5), Y: p.Y + (physics.TileSize - s.Y)}
}

// Step advances the world by one fixed tick of Dt seconds with the
// player's controls c: the player moves, falls and collides; coins it
// touches are collected; if it has left the level it respawns at the
// start; the bunnies move. Outcomes() then lists what happened, in a fixed
// order: jump, land, coins by ascending index, respawn. Step allocates
// nothing. Call it only from the goroutine that owns w (the sim thread).
func (w *World) Step(c physics.Controls) {
	w.outcomes = w.outcomes[:0]
	jumped, landed := w.player.Step(c, w.level, w.dt, w.cfg.Gravity)
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

func (w *World) teleport(pos physics.Vec) { w.player.Teleport(pos) }

// Teleport moves the player's top-left corner to pos, stops it and
// increments its generation, so renderers snap to it. It returns an error,
// and changes nothing, if the player's box at pos would leave the level or
// overlap a solid tile.
func (w *World) Teleport(pos physics.Vec) error {
	box := physics.Box(pos, w.player.Body().Size)
	if !box.In(w.level.Bounds()) || w.level.OverlapsSolid(box) {
		return fmt.Errorf("scene: teleport to (%v, %v): the player's box %v would be outside the level or inside a solid tile", pos.X, pos.Y, box)
	}
	w.teleport(pos)
	return nil
}

// Tick returns the number of Steps taken so far.
func (w *World) Tick() uint64 { return w.tick }

// Dt returns the fixed tick length in seconds, float64(1)/float64(Hz).
func (w *World) Dt() float64 { return w.dt }

// Config returns the world's configuration, with defaults filled in.
func (w *World) Config() WorldConfig { return w.cfg }

// Level returns the world's level (read-only).
func (w *World) Level() *physics.Level { return w.level }

// Player returns the player character, for reading.
func (w *World) Player() *physics.Character { return &w.player }

// Bunnies returns the load-scene bodies, for reading.
func (w *World) Bunnies() *Bunnies { return w.bunnies }

// BunnyBounds returns the box the bunnies' top-left corners stay in.
func (w *World) BunnyBounds() physics.AABB { return w.bBounds }

// Coins returns the coins, in the order of Level.Coins. The slice is the
// world's own: read it, do not modify it. Its elements change in Step.
func (w *World) Coins() []Coin { return w.coins }

// CoinsLeft returns how many coins have not been collected.
func (w *World) CoinsLeft() int { return w.left }

// QueryCoins appends to dst the indices of the coins (collected or not)
// whose boxes overlap box, ascending, using the broadphase grid, and
// returns the extended slice.
func (w *World) QueryCoins(box physics.AABB, dst []int32) []int32 { return w.grid.Query(box, dst) }

// Outcomes returns what happened during the last Step, in Step's order. The
// slice is reused: it is valid until the next Step.
func (w *World) Outcomes() []Outcome { return w.outcomes }

// Hash returns a 64-bit hash of the whole simulation state, over the exact
// bits (math.Float64bits / Float32bits) of every float. Two worlds with
// equal hashes are, with overwhelming probability, bit-identical, which is
// how replays and cross-machine runs are checked. The order is fixed:
// tick; world RNG state; player (position, size, velocity, flags, facing,
// air ticks, ticks since jump press, run phase, generation); coins left;
// each coin in index order (position, collected, generation); bunny count
// and bunny RNG state; then three lanes over the bunnies in index order
// (X and Y; VX and VY; Angle and Spin), each hashed alone and folded in
// in that order. The level and Config are not hashed: they are inputs.
// Hash reads every bunny, about 2 ns each.
func (w *World) Hash() uint64 {
	h := physics.NewHasher()
	h.Word(w.tick)
	h.Word(w.rng.State())
	w.player.Hash(&h)
	h.Word(uint64(w.left))
	for i := range w.coins {
		c := &w.coins[i]
		h.F64(c.Pos.X)
		h.F64(c.Pos.Y)
		var col uint64
		if c.Collected {
			col = 1
		}
		h.Word(col | uint64(c.Generation)<<1)
	}
	b := w.bunnies
	h.Word(uint64(b.Len()))
	h.Word(b.rng.State())
	// Three independent lanes (positions, velocities, angles) so the
	// multiplies overlap; each lane's result then goes through h.
	n := b.Len()
	xs, ys, vxs, vys, as, ss := b.X[:n], b.Y[:n], b.VX[:n], b.VY[:n], b.Angle[:n], b.Spin[:n]
	// Lanes start from distinct values so that equal lanes do not cancel.
	hp, hv, ha := physics.NewHasher(), physics.NewHasher()+1, physics.NewHasher()+2
	for i := range xs {
		hp.Pair32(xs[i], ys[i])
		hv.Pair32(vxs[i], vys[i])
		ha.Pair32(as[i], ss[i])
	}
	h.Word(uint64(hp))
	h.Word(uint64(hv))
	h.Word(uint64(ha))
	return h.Sum()
}

// WorldConfig configures a World. Zero fields other than Hz, Seed and
// Bunnies take the values of DefaultWorldConfig, so WorldConfig{Hz: 60} is
// a complete configuration; a field cannot be set to exactly zero.
type WorldConfig struct {
	Hz        int                     // ticks per second (1..MaxHz); dt = float64(1)/float64(Hz) seconds exactly
	Seed      uint64                  // seeds the world's RNG (bunny spawn and bounces)
	Bunnies   int                     // number of bunnymark load bodies (0..MaxBunnies)
	Gravity   float64                 // px/s², +y is down; default 1800
	Character physics.CharacterTuning // the player's movement
}

// Limits checked by NewWorld.
const (
	MaxHz      = 100000
	MaxBunnies = 10000000
)

// DefaultWorldConfig returns a 60 Hz world with seed 1, no bunnies,
// gravity 1800 px/s² and the default tuning.
func DefaultWorldConfig() WorldConfig {
	return WorldConfig{Hz: 60, Seed: 1, Gravity: 1800, Character: physics.DefaultTuning()}
}

// validate checks a config with its gravity filled in; the tuning is the
// character's to check.
func (c WorldConfig) validate() error {
	if c.Hz <= 0 || c.Hz > MaxHz {
		return fmt.Errorf("scene: %w: Hz is %d, want 1..%d ticks per second (60 is usual)", physics.ErrConfig, c.Hz, MaxHz)
	}
	if c.Bunnies < 0 || c.Bunnies > MaxBunnies {
		return fmt.Errorf("scene: %w: Bunnies is %d, want 0..%d", physics.ErrConfig, c.Bunnies, MaxBunnies)
	}
	return physics.CheckPositive("Gravity", c.Gravity)
}
