package bench

import (
	"cmp"
	"github.com/tandem-engine/tandem/internal/quantile"
	"math"
	"slices"
)

// Plain statistics over samples, shared by the figures, the host floor
// and the benchmarks.

// Percentile returns the q-quantile of xs by the nearest-rank method
// ([quantile.Rank], tandem's one rank rule: the smallest value with at
// least q of the values at or below it); q = 1 is the maximum. NaN for no
// values. xs is not modified.
func Percentile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[quantile.Rank(len(s), q)]
}

// RMS returns the root mean square of xs; NaN for none.
func RMS(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range xs {
		s += x * x
	}
	return math.Sqrt(s / float64(len(xs)))
}

// MeanSD returns the mean and the population standard deviation of xs.
func MeanSD(xs []float64) (mean, sd float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)))
}

// HistQuantile returns the q-quantile of a histogram in the form
// runtime/metrics gives (counts[i] values in [buckets[i], buckets[i+1])),
// at the upper edge of the bucket it falls in (a bound, not a guess), or
// the lower edge when the upper is infinite. NaN when the histogram is
// empty.
func HistQuantile(counts []uint64, buckets []float64, q float64) float64 {
	var n uint64
	for _, c := range counts {
		n += c
	}
	if n == 0 {
		return math.NaN()
	}
	want := uint64(quantile.Rank(int(n), q)) + 1 // the value of this rank, from 1
	var seen uint64
	for i, c := range counts {
		seen += c
		if seen >= want {
			if hi := buckets[i+1]; !math.IsInf(hi, 1) {
				return hi
			}
			return buckets[i]
		}
	}
	return buckets[len(buckets)-1]
}

// FrameWorkMs returns each frame's time from the moment it chose (its
// decision) to its present, in ms: the work a frame's pacing has to
// predict.
func FrameWorkMs(fr []FrameRecord) []float64 {
	out := make([]float64, 0, len(fr))
	for _, f := range fr {
		if f.Decide > 0 && f.Present >= f.Decide {
			out = append(out, ms(f.Present-f.Decide))
		}
	}
	return out
}

// Unevenness returns how much each of a series of durations (ns) differs
// from the one before, |d_i - d_i-1| in ms: for runs of the same work, the
// animation error a frame of that work would show if it were aimed at the
// present the run before it kept to.
func Unevenness(ns []int64) []float64 {
	if len(ns) < 2 {
		return nil
	}
	out := make([]float64, len(ns)-1)
	for i := 1; i < len(ns); i++ {
		out[i-1] = math.Abs(ms(ns[i] - ns[i-1]))
	}
	return out
}

// CountOver returns how many of xs are over limit.
func CountOver(xs []float64, limit float64) int {
	n := 0
	for _, x := range xs {
		if x > limit {
			n++
		}
	}
	return n
}

// UnevennessFigures returns the 99th percentile of [Unevenness] of ns, in
// ms, and the share of its values over 2 ms, in percent: for runs of the
// same work, what anim_err_ms_p99 and frames_anim_err_over_2ms are for
// frames. ok is false for fewer than two durations.
func UnevennessFigures(ns []int64) (p99, over2msPct float64, ok bool) {
	d := Unevenness(ns)
	if len(d) == 0 {
		return 0, 0, false
	}
	return Percentile(d, 0.99), 100 * float64(CountOver(d, 2)) / float64(len(d)), true
}

// Correlation returns Pearson's correlation coefficient of xs and ys,
// pairs of values of the same moments: 1 when they rise and fall
// together, 0 when one says nothing of the other. NaN for fewer than two
// pairs, or when either does not vary.
func Correlation(xs, ys []float64) float64 {
	n := min(len(xs), len(ys))
	if n < 2 {
		return math.NaN()
	}
	mx, _ := MeanSD(xs[:n])
	my, _ := MeanSD(ys[:n])
	var sxy, sxx, syy float64
	for i := range n {
		dx, dy := xs[i]-mx, ys[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return math.NaN()
	}
	return sxy / math.Sqrt(sxx*syy)
}

// Holm returns p-values ps corrected for being tested together by Holm's
// step-down method: the i-th smallest is multiplied by len(ps)-i (from 0),
// then each is raised to at least the one before it in that order, and
// capped at 1. A corrected p under a level rejects with at most that
// chance of any false rejection among them all. A NaN (untestable) is
// counted as 1.
func Holm(ps []float64) []float64 {
	m := len(ps)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	p := func(i int) float64 {
		if math.IsNaN(ps[i]) {
			return 1
		}
		return ps[i]
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(p(a), p(b)) })
	out := make([]float64, m)
	run := 0.0
	for k, i := range idx {
		run = max(run, min(1, float64(m-k)*p(i)))
		out[i] = run
	}
	return out
}

// MedianCI returns an interval for the median of the population xs was
// drawn from, at level (0.95: 95%), with no assumption about its shape:
// the k-th smallest and k-th largest of xs, k the largest count whose
// chance of leaving the median outside (k-1 or fewer of n values below
// it, or as many above) is at most 1-level: the sign test's interval.
// ok is false when no interval reaches the level: fewer than 6 values at
// 95%.
func MedianCI(xs []float64, level float64) (lo, hi float64, ok bool) {
	n := len(xs)
	k := signK(n, (1-level)/2)
	if k < 1 {
		return math.NaN(), math.NaN(), false
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[k-1], s[n-k], true
}

// signK returns the largest k with P(B <= k-1) <= tail, B binomial with n
// trials of one half: 0 when even k = 1 (every value inside) exceeds it.
func signK(n int, tail float64) int {
	k, cum, ways := 0, 0.0, 1.0 // ways: C(n, j), as j goes up
	scale := math.Pow(0.5, float64(n))
	for j := 0; j < n/2+1; j++ {
		cum += ways * scale // P(B <= j)
		if cum > tail*(1+1e-12) {
			break
		}
		k = j + 1
		ways = ways * float64(n-j) / float64(j+1)
	}
	return k
}
