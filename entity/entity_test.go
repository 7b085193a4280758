package entity_test

import (
	"fmt"
	"testing"

	"github.com/tandem-engine/tandem/entity"
	"github.com/tandem-engine/tandem/internal/mallocs"
	"github.com/tandem-engine/tandem/snapshot"
)

// publish writes t into a fresh snapshot.
func publish(t *entity.Table) *snapshot.Snapshot {
	s := &snapshot.Snapshot{}
	s.Sprites.Resize(t.Slots())
	t.Publish(&s.Sprites, 0, 100)
	return s
}

func TestInterpolationRules(t *testing.T) {
	// Moving blends; teleporting, despawning and a newcomer in a reused
	// slot do not. Slots keep their sprite IDs throughout.
	tb := entity.NewTable(2)
	a := tb.Spawn(entity.Sprite{X: 1, Frame: 3, Tint: snapshot.White})
	b := tb.Spawn(entity.Sprite{X: 2, Tint: snapshot.White})
	prev := publish(tb)
	tb.Move(a, 5, 0)
	tb.Teleport(b, 50, 0)
	curr := publish(tb)
	if !paired(prev, curr, 0) || paired(prev, curr, 1) {
		t.Fatal("a moved entity must blend and a teleported one must not")
	}
	if curr.Sprites.X[0] != 5 || curr.Sprites.Frame[0] != 3 || curr.Sprites.ID[1] != 101 {
		t.Fatalf("published %+v", curr.Sprites)
	}
	prev = curr
	tb.Despawn(a)
	c := tb.Spawn(entity.Sprite{X: 9, Tint: snapshot.White}) // reuses a's slot
	curr = publish(tb)
	if paired(prev, curr, 0) {
		t.Fatal("a newcomer in a reused slot blends from its predecessor")
	}
	if tb.Alive(a) || !tb.Alive(c) || tb.Move(a, 1, 1) || tb.Despawn(a) {
		t.Fatal("a despawned ID still acts")
	}
	if _, ok := tb.Get(a); ok {
		t.Fatal("Get of a despawned ID")
	}
	tb.Despawn(c)
	if s := publish(tb); s.Sprites.Tint[0] != 0 || s.Sprites.Tint[1] != snapshot.White {
		t.Fatalf("a free slot is drawn: tints %v", s.Sprites.Tint)
	}
	if tb.Len() != 1 || tb.Slots() != 2 {
		t.Fatalf("Len %d Slots %d, want 1 and 2", tb.Len(), tb.Slots())
	}
	if tb.Alive(entity.ID{}) {
		t.Fatal("the zero ID is alive")
	}
}

func TestGrowKeepsSlots(t *testing.T) {
	// Spawning past the capacity grows the table; the entities already
	// there keep their slots.
	tb := entity.NewTable(1)
	ids := make([]entity.ID, 40)
	for i := range ids {
		ids[i] = tb.Spawn(entity.Sprite{X: float32(i), Tint: snapshot.White})
	}
	s := publish(tb)
	for i, id := range ids {
		got, ok := tb.Get(id)
		if !ok || got.X != float32(i) || s.Sprites.X[i] != float32(i) {
			t.Fatalf("entity %d: %v %v, slot shows x=%v", i, got, ok, s.Sprites.X[i])
		}
	}
}

func TestSteadyStateAllocatesNothing(t *testing.T) {
	tb := entity.NewTable(100)
	var dst snapshot.Sprites
	dst.Resize(tb.Slots())
	ids := make([]entity.ID, 0, 100)
	n := mallocs.Fewest(3, func() {
		for k := range 1000 {
			if len(ids) == 100 || (k%3 == 0 && len(ids) > 0) {
				tb.Despawn(ids[0])
				ids = append(ids[:0], ids[1:]...)
			} else {
				ids = append(ids, tb.Spawn(entity.Sprite{X: float32(k)}))
			}
			for _, id := range ids {
				tb.Move(id, float32(k), 0)
			}
			tb.Publish(&dst, 0, 1)
		}
	})
	if n != 0 {
		t.Fatalf("%d mallocs", n)
	}
}

func TestHashSeesState(t *testing.T) {
	hash := func(tb *entity.Table) uint64 {
		var h uint64 = 14695981039346656037
		tb.Hash(func(w uint64) { h = (h ^ w) * 1099511628211 })
		return h
	}
	tb := entity.NewTable(4)
	id := tb.Spawn(entity.Sprite{X: 1})
	h0 := hash(tb)
	tb.Move(id, 1, 0)
	if hash(tb) != h0 {
		t.Fatal("a move to the same place changed the hash")
	}
	s, _ := tb.Get(id)
	s.Frame = 7
	tb.Set(id, s)
	if hash(tb) != h0 {
		t.Fatal("a frame (the renderer's index) changed the hash")
	}
	tb.Teleport(id, 1, 0)
	if hash(tb) == h0 {
		t.Fatal("a teleport (a new generation) left the hash unchanged")
	}
}

// A game's entities in stable slots: the renderer blends what moved and
// snaps what teleported, without the game knowing about slots.
func ExampleTable() {
	tb := entity.NewTable(8)
	ship := tb.Spawn(entity.Sprite{X: 10, Y: 10, Tint: snapshot.White})
	bullet := tb.Spawn(entity.Sprite{X: 10, Y: 5, Tint: snapshot.White})
	var prev, curr snapshot.Snapshot
	prev.Sprites.Resize(tb.Slots())
	tb.Publish(&prev.Sprites, 0, 1)

	tb.Move(ship, 12, 10)      // flies on: blended
	tb.Despawn(bullet)         // hit something: gone
	tb.Teleport(ship, 300, 10) // warps: not blended
	curr.Sprites.Resize(tb.Slots())
	tb.Publish(&curr.Sprites, 0, 1)
	for i := range 2 {
		_, blended := snapshot.PrevSlot(&prev, &curr, i)
		fmt.Printf("slot %d: id %d, at x=%v, drawn %v, blended %v\n", i, curr.Sprites.ID[i], curr.Sprites.X[i],
			curr.Sprites.Tint[i] != 0, blended)
	}
	// Output:
	// slot 0: id 1, at x=300, drawn true, blended false
	// slot 1: id 2, at x=10, drawn false, blended false
}

func TestReserve(t *testing.T) {
	// Reserve sizes the table exactly: spawning up to it allocates
	// nothing, and Publish writes no more slots than reserved.
	// The malloc count is the whole process's, and under -race the other
	// packages' tests run beside this one: the quietest of five tries,
	// each filling a table of its own.
	var tabs [5]entity.Table
	for k := range tabs {
		tabs[k].Reserve(1000)
	}
	tb := &tabs[0]
	if tb.Slots() != 1000 {
		t.Fatalf("%d slots after Reserve(1000)", tb.Slots())
	}
	try := 0
	n := mallocs.Fewest(len(tabs), func() {
		for range 1000 {
			tabs[try].Spawn(entity.Sprite{})
		}
		try++
	})
	for k := range tabs {
		if n != 0 || tabs[k].Slots() != 1000 || tabs[k].Len() != 1000 {
			t.Fatalf("spawning 1000 into a reserved table: %v allocs, %d slots, %d alive", n, tabs[k].Slots(), tabs[k].Len())
		}
	}
	tb.Reserve(10) // never shrinks
	if tb.Slots() != 1000 {
		t.Fatalf("Reserve(10) left %d slots", tb.Slots())
	}
}

// paired reports whether slot i of curr blends from prev.
func paired(prev, curr *snapshot.Snapshot, i int) bool {
	_, ok := snapshot.PrevSlot(prev, curr, i)
	return ok
}
