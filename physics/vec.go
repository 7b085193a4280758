package physics

// Vec is a point or a displacement in pixels (y grows down).
type Vec struct{ X, Y float64 }

// Add returns v+u.
func (v Vec) Add(u Vec) Vec { return Vec{v.X + u.X, v.Y + u.Y} }

// Sub returns v-u.
func (v Vec) Sub(u Vec) Vec { return Vec{v.X - u.X, v.Y - u.Y} }

// Mul returns v scaled by k.
func (v Vec) Mul(k float64) Vec { return Vec{float64(v.X * k), float64(v.Y * k)} }

// AABB is an axis-aligned box in pixels. Like image.Rectangle it is
// half-open: it contains the points p with Min.X <= p.X < Max.X and
// Min.Y <= p.Y < Max.Y, so two boxes that only share an edge do not overlap.
//
// Invariant: Min.X <= Max.X and Min.Y <= Max.Y. Functions in this package
// return boxes that keep it; a box with Min == Max on either axis is empty.
type AABB struct{ Min, Max Vec }

// Box returns the box with top-left corner pos and the given size
// (size.X, size.Y >= 0).
func Box(pos, size Vec) AABB { return AABB{pos, pos.Add(size)} }

// Size returns the width and height of a.
func (a AABB) Size() Vec { return a.Max.Sub(a.Min) }

// Center returns the middle of a.
func (a AABB) Center() Vec {
	return Vec{float64(a.Min.X+a.Max.X) * 0.5, float64(a.Min.Y+a.Max.Y) * 0.5}
}

// Empty reports whether a contains no points.
func (a AABB) Empty() bool { return !(a.Min.X < a.Max.X && a.Min.Y < a.Max.Y) }

// Overlaps reports whether a and b share at least one point. Empty boxes
// overlap nothing.
func (a AABB) Overlaps(b AABB) bool {
	return a.Min.X < b.Max.X && b.Min.X < a.Max.X &&
		a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y &&
		!a.Empty() && !b.Empty()
}

// Contains reports whether p is in a.
func (a AABB) Contains(p Vec) bool {
	return a.Min.X <= p.X && p.X < a.Max.X && a.Min.Y <= p.Y && p.Y < a.Max.Y
}

// In reports whether every point of a is also in b. An empty box is in
// every box.
func (a AABB) In(b AABB) bool {
	if a.Empty() {
		return true
	}
	return b.Min.X <= a.Min.X && a.Max.X <= b.Max.X && b.Min.Y <= a.Min.Y && a.Max.Y <= b.Max.Y
}

// Add returns a moved by d.
func (a AABB) Add(d Vec) AABB { return AABB{a.Min.Add(d), a.Max.Add(d)} }

// Union returns the smallest box containing both a and b (ignoring empty
// boxes).
func (a AABB) Union(b AABB) AABB {
	if a.Empty() {
		return b
	}
	if b.Empty() {
		return a
	}
	return AABB{
		Vec{min(a.Min.X, b.Min.X), min(a.Min.Y, b.Min.Y)},
		Vec{max(a.Max.X, b.Max.X), max(a.Max.Y, b.Max.Y)},
	}
}

// Inset returns a shrunk by n on every side (grown if n < 0). If a is
// smaller than 2n on an axis, the result collapses to a's centre on that
// axis, keeping the invariant.
func (a AABB) Inset(n float64) AABB {
	c := a.Center()
	r := AABB{Vec{a.Min.X + n, a.Min.Y + n}, Vec{a.Max.X - n, a.Max.Y - n}}
	if r.Min.X > r.Max.X {
		r.Min.X, r.Max.X = c.X, c.X
	}
	if r.Min.Y > r.Max.Y {
		r.Min.Y, r.Max.Y = c.Y, c.Y
	}
	return r
}
