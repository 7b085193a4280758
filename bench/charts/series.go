package charts

import "gonum.org/v1/plot/plotter"

// maxBuckets bounds the points a line chart holds: a chart is 768 pixels
// wide, and a run of a million frames drawn point by point held and drew
// gigabytes.
const maxBuckets = 1024

// series is a line's points, added in x order and kept in at most
// maxBuckets buckets: each holds the points of least and greatest y of a
// run of consecutive points, so a spike shows however many points share
// its pixel column. Its memory is bounded whatever the count of points.
type series struct {
	per int // points a bucket takes
	n   int // points in the last bucket
	b   []bucket
}

// bucket is a run's points of least (lo) and greatest (hi) y.
type bucket struct{ lo, hi plotter.XY }

// add adds p after the points added before; a point that is not finite
// is left out.
func (s *series) add(x, y float64) {
	if !finite(x) || !finite(y) {
		return
	}
	p := plotter.XY{X: x, Y: y}
	if s.per == 0 {
		s.per = 1
	}
	if len(s.b) == 0 || s.n >= s.per {
		if len(s.b) == maxBuckets {
			s.halve()
		}
		if len(s.b) == 0 || s.n >= s.per {
			s.b = append(s.b, bucket{p, p})
			s.n = 1
			return
		}
	}
	last := &s.b[len(s.b)-1]
	if p.Y < last.lo.Y {
		last.lo = p
	}
	if p.Y > last.hi.Y {
		last.hi = p
	}
	s.n++
}

// halve merges the buckets two by two: each takes twice the points.
func (s *series) halve() {
	k := len(s.b) / 2
	for i := range k {
		a, b := s.b[2*i], s.b[2*i+1]
		m := a
		if b.lo.Y < m.lo.Y {
			m.lo = b.lo
		}
		if b.hi.Y > m.hi.Y {
			m.hi = b.hi
		}
		s.b[i] = m
	}
	if len(s.b)%2 == 1 { // the last, unmerged, keeps its count
		s.b[k] = s.b[len(s.b)-1]
		s.b = s.b[:k+1]
	} else {
		s.b = s.b[:k]
		s.n = 2 * s.per
	}
	s.per *= 2
}

// xy returns the points to draw, in x order.
func (s *series) xy() plotter.XYs {
	out := make(plotter.XYs, 0, 2*len(s.b))
	for _, b := range s.b {
		first, second := b.lo, b.hi
		if second.X < first.X {
			first, second = second, first
		}
		out = append(out, first)
		if second != first {
			out = append(out, second)
		}
	}
	return out
}

// len returns how many buckets s holds.
func (s *series) len() int { return len(s.b) }
