// Package entity keeps a game's drawable entities in stable snapshot
// slots, so that a game spawns, moves, teleports and despawns entities
// without knowing slots exist, and the renderer's interpolation rules hold
// by themselves: an entity that moves is blended from where it was, one
// that teleported, or was despawned, or is new in a reused slot, is not.
//
// A [Table] belongs to the sim thread: the game changes it in its tick and
// writes it into the snapshot with [Table.Publish]. No method allocates
// once the table has grown to the most entities alive at once.
//
// Threads: the sim thread only (the caller's, in the coupled loop).
package entity

import (
	"math"

	"github.com/tandem-engine/tandem/snapshot"
)

// ID names one entity from Spawn to Despawn. A despawned entity's ID
// stays dead even when its slot is reused. The zero ID is never an
// entity.
type ID struct {
	slot uint32
	life uint32 // the slot's spawn count when this entity was spawned; 0 never
}

// Sprite is how an entity looks: its centre in world pixels, its rotation
// in radians, its scale (0 and 1 draw the frame at its own size), its
// frame (an index in the renderer's frame table) and its tint
// (snapshot.White draws the frame as it is).
type Sprite struct {
	X, Y  float32
	Angle float32
	Scale float32
	Frame uint16
	Tint  uint32
}

// Table holds the entities. The zero value is an empty table ready to
// use.
type Table struct {
	sprites []Sprite
	gen     []uint32 // the slot's render generation, in the snapshot
	life    []uint32 // the slot's spawn count; its entity's ID when alive
	alive   []bool
	free    []uint32 // free slots, the next one last
	n       int      // entities alive
}

// NewTable returns a table with room for capacity entities before it
// allocates.
func NewTable(capacity int) *Table {
	t := &Table{}
	t.grow(capacity)
	return t
}

// Reserve makes room for n entities in all, so that spawning up to n
// allocates nothing and Publish writes no more slots than that. It never
// shrinks the table.
func (t *Table) Reserve(n int) {
	if n > len(t.sprites) {
		t.grow(n)
	}
}

// grow adds free slots up to n in all.
func (t *Table) grow(n int) {
	old := len(t.sprites)
	for range n - old {
		t.sprites = append(t.sprites, Sprite{})
		t.gen = append(t.gen, 0)
		t.life = append(t.life, 0)
		t.alive = append(t.alive, false)
	}
	// The stack pops its last: push the new slots highest first, so that
	// the lowest is taken first.
	for k := n - 1; k >= old; k-- {
		t.free = append(t.free, uint32(k))
	}
}

// Spawn adds an entity that looks like s and returns its ID. It takes the
// slot freed last (or, when none is free, the lowest of the new ones the
// table grows by); a slot that held an entity before gets a new
// generation, so the renderer does not blend the newcomer from its
// predecessor. It allocates only when every slot is in use.
func (t *Table) Spawn(s Sprite) ID {
	if len(t.free) == 0 {
		t.grow(max(2*len(t.sprites), 16))
	}
	k := t.free[len(t.free)-1]
	t.free = t.free[:len(t.free)-1]
	t.sprites[k] = s
	t.gen[k]++
	t.life[k]++
	t.alive[k] = true
	t.n++
	return ID{slot: k, life: t.life[k]}
}

// live reports whether id names a living entity.
func (t *Table) live(id ID) bool {
	return id.life != 0 && int(id.slot) < len(t.alive) && t.alive[id.slot] && t.life[id.slot] == id.life
}

// Alive reports whether id names a living entity.
func (t *Table) Alive(id ID) bool { return t.live(id) }

// Get returns how the entity looks, and false for a dead ID.
func (t *Table) Get(id ID) (Sprite, bool) {
	if !t.live(id) {
		return Sprite{}, false
	}
	return t.sprites[id.slot], true
}

// Set changes how the entity looks; the renderer blends from how it
// looked at the last tick. It reports false, and changes nothing, for a
// dead ID.
func (t *Table) Set(id ID, s Sprite) bool {
	if !t.live(id) {
		return false
	}
	t.sprites[id.slot] = s
	return true
}

// Move moves the entity's centre to (x, y), blended from where it was.
func (t *Table) Move(id ID, x, y float32) bool {
	if !t.live(id) {
		return false
	}
	t.sprites[id.slot].X, t.sprites[id.slot].Y = x, y
	return true
}

// Teleport moves the entity's centre to (x, y) and gives it a new
// generation, so the renderer draws it there at once instead of sliding
// it across the screen.
func (t *Table) Teleport(id ID, x, y float32) bool {
	if !t.Move(id, x, y) {
		return false
	}
	t.gen[id.slot]++
	return true
}

// Despawn removes the entity: it is drawn no more from the next snapshot
// on, and its slot is free for the next Spawn. It reports false for a dead
// ID.
func (t *Table) Despawn(id ID) bool {
	if !t.live(id) {
		return false
	}
	t.alive[id.slot] = false
	t.gen[id.slot]++
	t.free = append(t.free, id.slot)
	t.n--
	return true
}

// Len returns the number of entities alive.
func (t *Table) Len() int { return t.n }

// Slots returns the number of snapshot slots Publish writes: the most
// entities alive at once, rounded up as the table grew.
func (t *Table) Slots() int { return len(t.sprites) }

// Publish writes every slot into dst from slot first on, with sprite IDs
// from baseID on, and returns the slot after the last it wrote: living
// entities as they look, free slots hidden (tint 0). dst must have room
// (Resize it to first + Slots() or more first). A slot's sprite ID never
// changes and its generation changes exactly when the renderer must not
// blend across the change.
func (t *Table) Publish(dst *snapshot.Sprites, first int, baseID uint32) int {
	n := len(t.sprites)
	// Each column resliced to the table's length, so that the loop runs
	// without a bounds check per field (it is the tick's hot path: every
	// sprite, every tick).
	sprites, gen, alive := t.sprites[:n], t.gen[:n], t.alive[:n]
	ids, gens := dst.ID[first:first+n], dst.Gen[first:first+n]
	xs, ys, angles := dst.X[first:first+n], dst.Y[first:first+n], dst.Angle[first:first+n]
	frames, tints, scales := dst.Frame[first:first+n], dst.Tint[first:first+n], dst.Scale[first:first+n]
	for k := range sprites {
		s := &sprites[k]
		ids[k], gens[k] = baseID+uint32(k), gen[k]
		xs[k], ys[k], angles[k], scales[k] = s.X, s.Y, s.Angle, s.Scale
		frames[k], tints[k] = s.Frame, s.Tint
		if !alive[k] {
			tints[k] = 0
		}
	}
	return first + n
}

// Hash folds the table's state into word, one 64-bit word at a time
// (physics.Hasher.Word fits): every slot's position, angle, scale, tint,
// generation and life, and the order of the free slots, which decides
// where the next entity goes. Frames are left out: they number the game's
// pictures in the order it declared them, so a build that adds an image
// renumbers them, and its recordings must still verify. A game whose
// state lives in which frame an entity shows keeps that state in itself
// and hashes it there.
func (t *Table) Hash(word func(uint64)) {
	word(uint64(len(t.sprites)))
	for k, s := range t.sprites {
		word(uint64(math.Float32bits(s.X)) | uint64(math.Float32bits(s.Y))<<32)
		word(uint64(math.Float32bits(s.Angle)) | uint64(math.Float32bits(s.Scale))<<32)
		word(uint64(s.Tint) | uint64(t.gen[k])<<32)
		a := uint64(0)
		if t.alive[k] {
			a = 1
		}
		word(uint64(t.life[k])<<1 | a)
	}
	for _, k := range t.free {
		word(uint64(k))
	}
}
