package scene

import "math"

// role is what a shooter entity is, which decides how it is drawn.
type role uint8

const (
	roleShip role = iota
	roleGun
	roleBullet
	roles // the number of roles
)

// slotTable is the shooter's entities as the table of package entity kept
// them when the shooter drew through one: the same slot for each spawn
// (the one freed last, else the lowest new one), the same generations and
// the same hash (entity.Table.Hash's words, with the angle, the scale and
// the tint the shooter always gave). Recordings of the shooter check that
// hash, so the shooter keeps this bookkeeping itself rather than depend on
// how the engine's tables grow; TestSlotTableHashesLikeEntityTable holds
// the two together. The game draws from it (see Shooter.draw).
//
// All slices have one element per slot; x, y is the entity's centre.
type slotTable struct {
	x, y  []float32
	role  []role
	gen   []uint32 // bumped by spawn, teleport and despawn: do not blend
	life  []uint32 // the slot's spawn count
	alive []bool
	free  []uint32 // free slots, the next one last
}

// newSlotTable returns a table with room for n entities before it grows.
func newSlotTable(n int) slotTable {
	var t slotTable
	t.grow(n)
	return t
}

// grow adds free slots up to n in all, the lowest to be taken first.
func (t *slotTable) grow(n int) {
	old := len(t.x)
	for range n - old {
		t.x, t.y = append(t.x, 0), append(t.y, 0)
		t.role = append(t.role, 0)
		t.gen, t.life = append(t.gen, 0), append(t.life, 0)
		t.alive = append(t.alive, false)
	}
	for k := n - 1; k >= old; k-- {
		t.free = append(t.free, uint32(k))
	}
}

// spawn adds an entity centred at (x, y) and returns its slot. It
// allocates only when every slot is in use.
func (t *slotTable) spawn(r role, x, y float32) uint32 {
	if len(t.free) == 0 {
		t.grow(max(2*len(t.x), 16))
	}
	k := t.free[len(t.free)-1]
	t.free = t.free[:len(t.free)-1]
	t.x[k], t.y[k], t.role[k] = x, y, r
	t.gen[k]++
	t.life[k]++
	t.alive[k] = true
	return k
}

// move moves slot k's entity to (x, y), to be blended.
func (t *slotTable) move(k uint32, x, y float32) { t.x[k], t.y[k] = x, y }

// teleport moves slot k's entity to (x, y) at once.
func (t *slotTable) teleport(k uint32, x, y float32) {
	t.move(k, x, y)
	t.gen[k]++
}

// despawn removes slot k's entity; the slot is the next one spawn takes.
func (t *slotTable) despawn(k uint32) {
	t.alive[k] = false
	t.gen[k]++
	t.free = append(t.free, k)
}

// hash folds the table into word as entity.Table.Hash did: per slot the
// position, the angle and scale (always 0), the tint (white since the
// slot's first spawn) with the generation, the life with whether it is
// alive; then the free slots in order.
func (t *slotTable) hash(word func(uint64)) {
	const white = 0xFFFFFFFF
	word(uint64(len(t.x)))
	for k := range t.x {
		word(uint64(math.Float32bits(t.x[k])) | uint64(math.Float32bits(t.y[k]))<<32)
		word(0)
		var tint uint64
		if t.life[k] > 0 {
			tint = white
		}
		word(tint | uint64(t.gen[k])<<32)
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
