package snapshot

// Draw is what a tick drew besides its sprites and its HUD text: shapes,
// text in the game's fonts and the game's shader uniforms. Its slices are
// reused from snapshot to snapshot: the writer empties it with Reset and
// fills it again every tick.
//
// A shape or a text run is blended with the one of the previous snapshot
// that has the same Key and Gen; one with Key 0, or with no partner, is
// drawn as it is in this snapshot (it snaps, never slides).
type Draw struct {
	Shapes []Shape
	// Points are the polygons' corners, x and y in turn, relative to
	// their shape's X, Y: shape i's are Points[2*From : 2*(From+Count)]
	// (see Shape.Data).
	Points []float32
	Texts  []TextRun
	Chars  []byte // the runs' UTF-8 bytes
	// Uniforms are the values of the game's shader uniforms, in the order
	// Setup laid them out; floats are blended between snapshots.
	Uniforms []float32
	// SpriteLayerEnd[k] is the sprite slot after layer k's last, so that
	// the renderer can draw layer by layer between the shapes.
	SpriteLayerEnd [Layers]int32
}

// Layers is the number of draw layers (tandem.Layers).
const Layers = 8

// The kinds of a Shape.
const (
	ShapeCircle  uint8 = iota + 1 // A radius
	ShapeEllipse                  // A, B radii
	ShapeRect                     // X, Y top-left, A, B size, C corner radius
	ShapeLine                     // from X, Y to X+A, Y+B, round caps, Width wide
	ShapeArc                      // A radius, C to D angles (radians, clockwise on screen from +x)
	ShapePolygon                  // convex, corners in Points; C, D, E, F its box
)

// ShapeScreen is Shape.Flags' bit for framebuffer pixels (top-left
// origin) instead of world pixels.
const ShapeScreen uint8 = 1

// Shape is one anti-aliased shape. X, Y, A and B are blended between
// snapshots; the rest change at the tick. Width 0 fills the shape; above
// 0 it draws an outline that wide inside the shape's edge (a line is
// always Width wide).
type Shape struct {
	Key        uint64 // names the shape across snapshots; 0: never blended
	Gen        uint32 // changes when the shape must snap (its entity teleported)
	Kind       uint8
	Flags      uint8
	Layer      uint8
	X, Y, A, B float32
	C, D       float32
	E, F       float32
	Width      float32
	Tint       uint32 // RGBA8, R in the low byte, straight alpha
	Data       uint32 // a polygon's first point (From) << 8 | its count
}

// Text alignments: where a run's X falls on its lines.
const (
	AlignLeft uint8 = iota
	AlignCenter
	AlignRight
)

// TextRun is one run of text in a font: its lines' top at Y, aligned on
// X, in Size pixels. X and Y are blended like a shape's.
type TextRun struct {
	Key      uint64
	Gen      uint32
	X, Y     float32
	Size     float32
	Font     uint8 // the font, in the order Setup loaded them (0 the default)
	Align    uint8
	Layer    uint8
	Flags    uint8 // ShapeScreen
	Tint     uint32
	From, To int32 // Chars[From:To]
}

// Reset empties d, keeping its storage.
func (d *Draw) Reset() {
	d.Shapes, d.Points, d.Texts, d.Chars = d.Shapes[:0], d.Points[:0], d.Texts[:0], d.Chars[:0]
}

// CopyFrom makes d a copy of src, reusing d's storage: it allocates only
// when src holds more than d ever did.
func (d *Draw) CopyFrom(src *Draw) {
	d.Shapes = append(d.Shapes[:0], src.Shapes...)
	d.Points = append(d.Points[:0], src.Points...)
	d.Texts = append(d.Texts[:0], src.Texts...)
	d.Chars = append(d.Chars[:0], src.Chars...)
	d.Uniforms = append(d.Uniforms[:0], src.Uniforms...)
	d.SpriteLayerEnd = src.SpriteLayerEnd
}

// Pairs finds, for each shape or run of a snapshot, its partner in the
// snapshot before: by index when the keys there agree (the usual case,
// a tick that draws what the one before drew), else through a hash
// table of the previous snapshot's keys. Its storage is reused: it
// allocates only when a snapshot holds more than any before.
type Pairs struct {
	slots []pairSlot
	built bool
}

type pairSlot struct {
	key uint64
	i   int32 // index+1; 0 empty
}

// Reset forgets the previous snapshot's table: call it before the
// lookups of a new pair.
func (p *Pairs) Reset() { p.built = false }

// Find returns the index in prev (of n entries whose keys key(j) gives)
// of the entry with key k, which is at index i in curr, and whether there
// is one. Key 0 has no partner.
func (p *Pairs) Find(k uint64, i, n int, key func(j int) uint64) (int, bool) {
	if k == 0 {
		return 0, false
	}
	if i < n && key(i) == k {
		return i, true
	}
	if !p.built {
		p.build(n, key)
	}
	mask := uint64(len(p.slots) - 1)
	for h := mix64(k) & mask; ; h = (h + 1) & mask {
		s := p.slots[h]
		if s.i == 0 {
			return 0, false
		}
		if s.key == k {
			return int(s.i - 1), true
		}
	}
}

func (p *Pairs) build(n int, key func(j int) uint64) {
	size := 16
	for size < 2*n {
		size *= 2
	}
	if cap(p.slots) < size {
		p.slots = make([]pairSlot, size)
	}
	p.slots = p.slots[:size]
	clear(p.slots)
	mask := uint64(size - 1)
	for j := range n {
		k := key(j)
		if k == 0 {
			continue
		}
		for h := mix64(k) & mask; ; h = (h + 1) & mask {
			if p.slots[h].i == 0 {
				p.slots[h] = pairSlot{key: k, i: int32(j + 1)}
				break
			}
			if p.slots[h].key == k {
				break // the first of a duplicated key wins
			}
		}
	}
	p.built = true
}

// mix64 is a 64-bit finalizer (splitmix64's): keys that differ in a few
// bits land far apart.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
