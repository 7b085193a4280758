package bench

import (
	"math"

	"github.com/tandem-engine/tandem/internal/quantile"
)

// Histogram bounds: HistSub buckets an octave, from 2^histMinExp to
// 2^histMaxExp (in the values' unit, ms for the figures).
const (
	histSubBits = 7
	// HistSub is how many buckets a Histogram has in each octave
	// (power of two) of magnitude.
	HistSub    = 1 << histSubBits
	histMinExp = -24 // 2^-24 ms is 0.06 ns: below the records' 1 ns
	histMaxExp = 24  // 2^24 ms is 4.66 hours
	histMag    = (histMaxExp - histMinExp) * HistSub
)

// HistRelErr is a [Histogram]'s bound on relative error: a quantile it
// returns is within HistRelErr·|v| of v, the exact quantile of the values
// added (nearest rank, as [Percentile]), for |v| from 2^-24 to 2^24 (60 ps
// to 4.66 hours in ms). It is half a bucket's width over the bucket's
// lower edge, 2^-(histSubBits+1): 1/256, under 0.4%.
const HistRelErr = 1.0 / (2 * HistSub)

// Histogram is a streaming log-linear histogram of float64 values (HDR
// Histogram's layout): each octave of magnitude, [2^e, 2^(e+1)), is cut
// into [HistSub] buckets of equal width, so that a bucket's width is at
// most 1/HistSub of the values in it, and a quantile read at its middle is
// within [HistRelErr] of the exact one. Negative values have buckets of
// their own, mirrored; 0, and magnitudes under 2^-24, count as 0;
// magnitudes of 2^24 and over (and infinities) land in the top bucket. The
// exact minimum and maximum are kept, and a quantile is never reported
// outside them, so the 0- and 1-quantiles are exact. NaN is not counted.
//
// Its memory is fixed (about 100 KB, allocated by [NewHistogram]) and Add
// never allocates: percentiles over a run of any length.
type Histogram struct {
	// counts[histMag] counts zeros; above it the positive buckets by
	// magnitude, below it the negative ones, mirrored: index order is
	// value order.
	counts   []uint64
	n        uint64
	min, max float64
}

// NewHistogram returns an empty histogram.
func NewHistogram() *Histogram {
	return &Histogram{counts: make([]uint64, 2*histMag+1), min: math.Inf(1), max: math.Inf(-1)}
}

// histIndex returns the bucket of the magnitude m > 0 among the histMag
// positive ones, or -1 for a magnitude counted as 0.
func histIndex(m float64) int {
	b := math.Float64bits(m)
	e := int(b>>52&0x7ff) - 1023
	switch {
	case e < histMinExp:
		return -1
	case e >= histMaxExp:
		return histMag - 1
	}
	return (e-histMinExp)<<histSubBits | int(b>>(52-histSubBits)&(HistSub-1))
}

// histMid returns the middle of magnitude bucket i.
func histMid(i int) float64 {
	e, sub := i>>histSubBits+histMinExp, i&(HistSub-1)
	return math.Ldexp(1+(float64(sub)+0.5)/HistSub, e)
}

// Add counts v.
func (h *Histogram) Add(v float64) {
	if math.IsNaN(v) {
		return
	}
	i := histMag // 0
	if v > 0 {
		if k := histIndex(v); k >= 0 {
			i = histMag + 1 + k
		}
	} else if v < 0 {
		if k := histIndex(-v); k >= 0 {
			i = histMag - 1 - k
		}
	}
	h.counts[i]++
	h.n++
	h.min, h.max = min(h.min, v), max(h.max, v)
}

// Count returns how many values were added.
func (h *Histogram) Count() uint64 { return h.n }

// Max returns the largest value added, exactly; NaN for none.
func (h *Histogram) Max() float64 {
	if h.n == 0 {
		return math.NaN()
	}
	return h.max
}

// Quantile returns the q-quantile of the values added by the nearest-rank
// method, as [Percentile] defines it, within [HistRelErr] (see
// [Histogram]); q = 1 is the maximum. NaN for no values.
func (h *Histogram) Quantile(q float64) float64 {
	if h.n == 0 {
		return math.NaN()
	}
	// The value of rank k (from 0) in sorted order, as Percentile picks it.
	k := uint64(quantile.Rank(int(h.n), q))
	if k == h.n-1 {
		return h.max
	}
	if k == 0 {
		return h.min
	}
	var seen uint64
	for i, c := range h.counts {
		if seen += c; seen > k {
			var v float64
			switch {
			case i > histMag:
				v = histMid(i - histMag - 1)
			case i < histMag:
				v = -histMid(histMag - 1 - i)
			}
			return min(max(v, h.min), h.max)
		}
	}
	return h.max // not reached: the counts add up to n
}
