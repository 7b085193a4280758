package tandem

import (
	"fmt"
	"math"

	"github.com/tandem-engine/tandem/snapshot"
)

// Style is how a shape is drawn: its colour, fill or outline, layer and
// space, and what it is across ticks.
//
// A shape lasts one tick, like [World.Text]: a tick draws what it shows,
// and every tick starts with none. Shapes are output, not state: no hash
// sees them, and a replay draws them again from the same ticks.
type Style struct {
	// Color is RGBA8 with R in the low byte, as a Sprite's Tint
	// (0xFF0000FF is opaque red); 0 draws white. Alpha blends.
	Color uint32
	// Width 0 fills the shape; above 0 it draws only an outline that
	// wide, inside the shape's edge. For a line or a polyline it is the
	// line's width (0 draws 1 pixel wide).
	Width float32
	// Layer is 0 to [Layers]-1, as a sprite's: a layer's shapes and text
	// draw over its sprites and under the next layer's.
	Layer uint8
	// Screen places the shape in framebuffer pixels from the top-left
	// corner (a HUD, a health bar) instead of world pixels; screen shapes
	// draw over the whole world.
	Screen bool
	// Key names the shape across ticks: a shape with the Key it had in
	// the tick before is blended from there on every frame between, as a
	// sprite is; with Key 0 it is drawn where this tick put it. Keys need
	// only be unique among a tick's shapes (or, with On, the entity's).
	Key uint32
	// On attaches the shape to an entity: its coordinates are relative to
	// the entity's centre as the tick leaves it, it moves with the entity
	// on every frame, blended as the sprite is, and it snaps when the
	// entity teleports. A dead entity's shapes are not drawn. On is a
	// world placement: with Screen it is ignored.
	On ID
}

// MaxPolygon is the most corners a polygon may have.
const MaxPolygon = 255

// Circle draws a circle of radius r centred on (x, y).
func (w *World) Circle(x, y, r float32, st Style) {
	w.shape(snapshot.Shape{Kind: snapshot.ShapeCircle, X: x, Y: y, A: r}, st, 0)
}

// Ellipse draws an ellipse centred on (x, y) with radii rx across and ry
// down.
func (w *World) Ellipse(x, y, rx, ry float32, st Style) {
	w.shape(snapshot.Shape{Kind: snapshot.ShapeEllipse, X: x, Y: y, A: rx, B: ry}, st, 0)
}

// Rect draws a rectangle with its top-left corner at (x, y), width wide
// and height high (a health bar is Rect(x, y, full*hp/maxHP, 6, ...)).
func (w *World) Rect(x, y, width, height float32, st Style) {
	w.shape(snapshot.Shape{Kind: snapshot.ShapeRect, X: x, Y: y, A: width, B: height}, st, 0)
}

// RoundRect is Rect with corners rounded to radius r (at most half the
// shorter side).
func (w *World) RoundRect(x, y, width, height, r float32, st Style) {
	w.shape(snapshot.Shape{Kind: snapshot.ShapeRect, X: x, Y: y, A: width, B: height, C: r}, st, 0)
}

// Line draws a line from (x0, y0) to (x1, y1), st.Width wide, with round
// ends. Both ends are blended between ticks.
func (w *World) Line(x0, y0, x1, y1 float32, st Style) {
	w.shape(snapshot.Shape{Kind: snapshot.ShapeLine, X: x0, Y: y0, A: x1 - x0, B: y1 - y0, Width: lineWidth(st)}, st, 0)
}

// Polyline draws lines through points (x and y in turn: x0, y0, x1, y1,
// ...), st.Width wide, with round ends and joins. Where two segments of
// a translucent polyline meet, the join is drawn twice.
func (w *World) Polyline(points []float32, st Style) {
	if len(points)%2 != 0 {
		panic(fmt.Sprintf("tandem: Polyline of %d numbers: points are x, y pairs", len(points)))
	}
	for i := 2; i+1 < len(points); i += 2 {
		x0, y0 := points[i-2], points[i-1]
		w.shape(snapshot.Shape{Kind: snapshot.ShapeLine, X: x0, Y: y0, A: points[i] - x0, B: points[i+1] - y0, Width: lineWidth(st)}, st, uint32(i/2))
	}
}

func lineWidth(st Style) float32 {
	if st.Width <= 0 {
		return 1
	}
	return st.Width
}

// Arc draws the part of a circle of radius r centred on (x, y) from
// angle from to angle to, in radians, clockwise on screen from the +x
// axis (as a Sprite's Angle turns): with st.Width 0 the pie slice, else
// the arc st.Width wide inside the radius, with round ends. A span of a
// whole turn or more draws the whole circle.
func (w *World) Arc(x, y, r, from, to float32, st Style) {
	if to < from {
		from, to = to, from
	}
	w.shape(snapshot.Shape{Kind: snapshot.ShapeArc, X: x, Y: y, A: r, C: from, D: to}, st, 0)
}

// Polygon draws the convex polygon whose corners are points (x and y in
// turn), relative to (x, y), in either order; at most [MaxPolygon]
// corners. Its position (x, y) is blended between ticks, its corners
// change at the tick. A concave polygon draws as if its edges' half
// planes were cut in turn (its convex parts, not its dents).
func (w *World) Polygon(x, y float32, points []float32, st Style) {
	n := len(points) / 2
	if len(points)%2 != 0 || n < 3 || n > MaxPolygon {
		panic(fmt.Sprintf("tandem: Polygon of %d numbers: want x, y pairs for 3 to %d corners", len(points), MaxPolygon))
	}
	first := len(w.draw.Points) / 2
	if first >= 1<<24 {
		return
	}
	lo, hi := [2]float32{points[0], points[1]}, [2]float32{points[0], points[1]}
	for i := 0; i < len(points); i += 2 {
		lo[0], lo[1] = min(lo[0], points[i]), min(lo[1], points[i+1])
		hi[0], hi[1] = max(hi[0], points[i]), max(hi[1], points[i+1])
	}
	w.draw.Points = append(w.draw.Points, points...)
	w.shape(snapshot.Shape{Kind: snapshot.ShapePolygon, X: x, Y: y, C: lo[0], D: lo[1], E: hi[0], F: hi[1],
		Data: uint32(first)<<8 | uint32(n)}, st, 0)
}

// drawAnchor is a shape or a text run drawn On an entity, resolved when
// the tick publishes.
type drawAnchor struct {
	index int32 // in draw.Shapes, or draw.Texts when text
	text  bool
	on    ID
}

// shape adds s in style st; part tells apart the pieces one call makes
// (a polyline's segments) in their key.
func (w *World) shape(s snapshot.Shape, st Style, part uint32) {
	if int(st.Layer) >= Layers {
		panic(fmt.Sprintf("tandem: shape on layer %d: layers are 0 to %d", st.Layer, Layers-1))
	}
	if !finite(s.X, s.Y, s.A, s.B) || !finite(s.C, s.D, st.Width, 0) {
		return
	}
	s.Tint = st.Color
	if s.Tint == 0 {
		s.Tint = White
	}
	if s.Width == 0 {
		s.Width = max(st.Width, 0)
	}
	s.Layer = st.Layer
	if st.Screen {
		s.Flags = snapshot.ShapeScreen
	}
	if st.Screen {
		st.On = ID{}
	}
	s.Key = drawKey(st.Key, part, st.On)
	if st.On != (ID{}) {
		w.anchors = append(w.anchors, drawAnchor{index: int32(len(w.draw.Shapes)), on: st.On})
	}
	w.draw.Shapes = append(w.draw.Shapes, s)
}

// drawKey is the snapshot's key of a shape or run: 0 (never blended)
// for key 0 off any entity; else a hash of the key, the part and the
// entity, so that keys of different entities never meet.
func drawKey(key, part uint32, on ID) uint64 {
	if key == 0 && on == (ID{}) {
		return 0
	}
	k := uint64(key) | uint64(part)<<32
	if on != (ID{}) {
		k = mix(k ^ mix(uint64(on.layer)<<56|on.e.Key()))
	}
	return k | 1<<63
}

// mix is splitmix64's finalizer.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

func finite(a, b, c, d float32) bool {
	// Inf - Inf and NaN - NaN are NaN: one test for the four.
	x := float64(a) + float64(b) + float64(c) + float64(d)
	return !math.IsNaN(x - x)
}

// publishDraw writes the tick's shapes and text into dst, placing what
// was drawn On an entity at the entity's centre: where the tick left it,
// whatever the order of the calls.
func (w *World) publishDraw(dst *snapshot.Draw) {
	dst.CopyFrom(&w.draw)
	for _, a := range w.anchors {
		x, y, _, gen, ok := w.table(a.on.layer).Anchor(a.on.e)
		if a.text {
			t := &dst.Texts[a.index]
			if !ok {
				t.To = t.From // a dead entity's text is drawn no more
			}
			t.X, t.Y, t.Gen = t.X+x, t.Y+y, gen
			continue
		}
		s := &dst.Shapes[a.index]
		if !ok {
			s.Tint = 0 // fully transparent: drawn as nothing
		}
		s.X, s.Y, s.Gen = s.X+x, s.Y+y, gen
	}
	at := int32(0)
	for k := range w.layers {
		at += int32(w.layers[k].Slots())
		dst.SpriteLayerEnd[k] = at
	}
	dst.Uniforms = append(dst.Uniforms[:0], w.uniforms...)
}

// resetDraw starts a tick with nothing drawn.
func (w *World) resetDraw() {
	w.draw.Reset()
	w.anchors = w.anchors[:0]
}
