package entity

// Anchor returns where the living entity id is (its centre), its slot
// and its slot's render generation, for what is drawn on it (a shape, a
// text) to move with it and snap when it does; ok is false for a dead ID.
func (t *Table) Anchor(id ID) (x, y float32, slot, gen uint32, ok bool) {
	if !t.live(id) {
		return 0, 0, 0, 0, false
	}
	s := &t.sprites[id.slot]
	return s.X, s.Y, id.slot, t.gen[id.slot], true
}

// Key returns id as one number, unique among the table's IDs: for keys
// of what is drawn on the entity.
func (id ID) Key() uint64 { return uint64(id.slot) | uint64(id.life)<<32 }
