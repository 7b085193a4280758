package physics

import "math"

// Sweep reports whether box a, moving by da over a tick, and box b, moving
// by db over the same tick, touch at some moment of it, and the earliest
// fraction of the tick t in [0, 1] at which they do. Both move in straight
// lines at constant speed, as bodies do within one tick, so the test is
// exact at any speed: a bullet crossing a ship thinner than its step
// still hits it, where testing overlap at the tick's end would let it pass
// through.
//
// Boxes that already overlap or touch at the start hit at t = 0. Touching
// counts as a hit (closed boxes). A NaN or infinite input never hits.
//
// It is the slab test on the relative motion: a moves by da - db against
// b held still, and b grown by a's size is the region a's top-left corner
// must enter.
func Sweep(a AABB, da Vec, b AABB, db Vec) (t float64, hit bool) {
	d := da.Sub(db)
	tEnter, tExit := 0.0, 1.0
	for _, ax := range [2]struct{ amin, amax, bmin, bmax, d float64 }{
		{a.Min.X, a.Max.X, b.Min.X, b.Max.X, d.X},
		{a.Min.Y, a.Max.Y, b.Min.Y, b.Max.Y, d.Y},
	} {
		// Along this axis the boxes touch while
		// bmin - amax <= d*s <= bmax - amin.
		lo, hi := ax.bmin-ax.amax, ax.bmax-ax.amin
		if math.IsNaN(lo) || math.IsNaN(hi) || math.IsNaN(ax.d) || math.IsInf(ax.d, 0) {
			return 0, false
		}
		if ax.d == 0 {
			if lo > 0 || hi < 0 {
				return 0, false // apart along this axis the whole tick
			}
			continue
		}
		s0, s1 := lo/ax.d, hi/ax.d
		if s0 > s1 {
			s0, s1 = s1, s0
		}
		tEnter, tExit = max(tEnter, s0), min(tExit, s1)
		if tEnter > tExit {
			return 0, false
		}
	}
	return tEnter, true
}
