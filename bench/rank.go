package bench

import (
	"math"
	"slices"
)

// Rank statistics for comparing two sets of runs: the Mann-Whitney U test
// (the Wilcoxon rank-sum test), exact with ties, and the Hodges-Lehmann
// shift with its interval. They assume only that the runs of each set are
// exchangeable, which the sweep's random order makes true of the machine's
// drift.

// exactMax is the largest sample, either side, for which [MannWhitneyP]
// counts the exact distribution (about 10 ms at 30 a side); above it, the
// normal approximation, which is then within a few thousandths.
const exactMax = 30

// MannWhitneyP returns the two-sided p-value of the Mann-Whitney U test of
// samples a and b: the chance, were every value drawn from one
// distribution, of ranks at least as far apart as theirs. Tied values
// take the mean of their ranks. Up to [exactMax] a side it is exact: the
// share of the ways of splitting these very values (ties and all) into
// len(a) and len(b) whose rank sum is as extreme, doubled from the nearer
// tail (as scipy's permutation_test and mannwhitneyu do), capped at 1.
// Above, [MannWhitneyNormalP]. NaN when either sample is empty. With 5 a
// side and no ties the smallest p is 2/252 = 0.008; with 3, 0.1.
func MannWhitneyP(a, b []float64) float64 {
	if len(a) == 0 || len(b) == 0 {
		return math.NaN()
	}
	if len(a) > exactMax || len(b) > exactMax {
		return MannWhitneyNormalP(a, b)
	}
	return MannWhitneyExactP(a, b)
}

// midranks2 returns twice the midrank of every value of a then b among
// all of them (whole numbers: a tie of ranks i to j has midrank (i+j)/2),
// and the sizes of the groups of tied values.
func midranks2(a, b []float64) (r2 []int, ties []int) {
	type v struct {
		x float64
		i int
	}
	all := make([]v, 0, len(a)+len(b))
	for i, x := range a {
		all = append(all, v{x, i})
	}
	for i, x := range b {
		all = append(all, v{x, len(a) + i})
	}
	slices.SortFunc(all, func(p, q v) int {
		switch {
		case p.x < q.x:
			return -1
		case p.x > q.x:
			return 1
		}
		return 0
	})
	r2 = make([]int, len(all))
	for i := 0; i < len(all); {
		j := i
		for j+1 < len(all) && all[j+1].x == all[i].x {
			j++
		}
		for k := i; k <= j; k++ {
			r2[all[k].i] = (i + 1) + (j + 1)
		}
		ties = append(ties, j-i+1)
		i = j + 1
	}
	return r2, ties
}

// MannWhitneyExactP is [MannWhitneyP]'s exact test at any size: the
// distribution of a's rank sum over every split of the values, ties kept,
// counted by dynamic programming over the values (N·m·N·m steps).
func MannWhitneyExactP(a, b []float64) float64 {
	m, n := len(a), len(b)
	if m == 0 || n == 0 {
		return math.NaN()
	}
	r2, _ := midranks2(a, b)
	obs := 0
	for _, r := range r2[:m] {
		obs += r
	}
	top := 0 // the largest sum of m doubled ranks
	sorted := slices.Sorted(slices.Values(r2))
	for _, r := range sorted[len(sorted)-m:] {
		top += r
	}
	// ways[k][s]: the subsets of k of the values seen so far whose doubled
	// ranks sum to s. Counts up to C(60,30) ≈ 1.2e17 lose their last digits
	// in a float64, not their ratio.
	ways := make([][]float64, m+1)
	for k := range ways {
		ways[k] = make([]float64, top+1)
	}
	ways[0][0] = 1
	for i, r := range r2 {
		for k := min(i+1, m); k >= 1; k-- {
			from, to := ways[k-1], ways[k]
			for s := top - r; s >= 0; s-- {
				if from[s] != 0 {
					to[s+r] += from[s]
				}
			}
		}
	}
	var below, above, total float64
	for s, w := range ways[m] {
		total += w
		if s <= obs {
			below += w
		}
		if s >= obs {
			above += w
		}
	}
	return min(1, 2*min(below, above)/total)
}

// MannWhitneyNormalP is the two-sided p of the Mann-Whitney U test from the
// normal approximation, with the variance corrected for ties and a
// continuity correction of 1/2 (scipy's mannwhitneyu, method
// "asymptotic"): 1 when every value is tied. NaN when either sample is
// empty.
func MannWhitneyNormalP(a, b []float64) float64 {
	m, n := len(a), len(b)
	if m == 0 || n == 0 {
		return math.NaN()
	}
	r2, ties := midranks2(a, b)
	s2 := 0
	for _, r := range r2[:m] {
		s2 += r
	}
	u := float64(s2)/2 - float64(m*(m+1))/2
	N := float64(m + n)
	var t float64
	for _, k := range ties {
		t += float64(k*k*k - k)
	}
	vr := float64(m*n) / 12 * ((N + 1) - t/(N*(N-1)))
	if vr <= 0 {
		return 1
	}
	z := (math.Abs(u-float64(m*n)/2) - 0.5) / math.Sqrt(vr)
	return min(1, math.Erfc(max(z, 0)/math.Sqrt2))
}

// uCounts returns how many of the C(m+n, m) orderings of m and n distinct
// values have each U from 0 to m*n: the distribution of U without ties.
func uCounts(m, n int) []float64 {
	// f(i, j, u) = f(i-1, j, u-j) + f(i, j-1, u): the largest value is one
	// of the i (beating all j) or one of the j.
	prev := make([][]float64, n+1)
	for j := range prev {
		prev[j] = []float64{1}
	}
	for i := 1; i <= m; i++ {
		cur := make([][]float64, n+1)
		cur[0] = []float64{1}
		for j := 1; j <= n; j++ {
			d := make([]float64, i*j+1)
			for u, w := range prev[j] {
				d[u+j] += w
			}
			for u, w := range cur[j-1] {
				d[u] += w
			}
			cur[j] = d
		}
		prev = cur
	}
	return prev[n]
}

// Shift is a Hodges-Lehmann estimate of how far one sample lies from
// another, with its confidence interval.
type Shift struct {
	// Est is the median of every difference b_j - a_i.
	Est float64
	// Lo and Hi bound the interval: the k-th smallest and k-th largest
	// differences, k the largest count whose chance of being cut off at
	// either end is at most (1-level)/2 when nothing shifted (Moses' rule;
	// R's wilcox.test with conf.int). ±Inf when no interval reaches the
	// level (3 a side at 95%).
	Lo, Hi float64
}

// HodgesLehmann returns the shift of b from a (b - a) and its interval at
// level (0.95: 95%). The interval's k comes from U's exact distribution
// without ties up to [exactMax] a side, from the normal approximation
// above; with ties it covers about the level, not exactly. The zero value
// with NaNs when either sample is empty.
func HodgesLehmann(a, b []float64, level float64) Shift {
	m, n := len(a), len(b)
	if m == 0 || n == 0 {
		return Shift{math.NaN(), math.NaN(), math.NaN()}
	}
	d := make([]float64, 0, m*n)
	for _, x := range a {
		for _, y := range b {
			d = append(d, y-x)
		}
	}
	slices.Sort(d)
	s := Shift{Est: Median(d), Lo: math.Inf(-1), Hi: math.Inf(1)}
	if k := shiftK(m, n, (1-level)/2); k >= 1 {
		s.Lo, s.Hi = d[k-1], d[len(d)-k]
	}
	return s
}

// shiftK returns the k of [HodgesLehmann]'s interval: the smallest u with
// P(U <= u) >= tail (R's qwilcox), 0 when the interval cannot reach it.
func shiftK(m, n int, tail float64) int {
	if m > exactMax || n > exactMax {
		mean := float64(m*n) / 2
		sd := math.Sqrt(float64(m*n*(m+n+1)) / 12)
		return max(0, int(math.Floor(mean-normalQuantile(1-tail)*sd)))
	}
	ways := uCounts(m, n)
	var total float64
	for _, w := range ways {
		total += w
	}
	var cum float64
	for u, w := range ways {
		cum += w
		if cum/total >= tail*(1-1e-12) {
			return u
		}
	}
	return 0
}

// normalQuantile returns the standard normal's p-quantile, by bisection
// on math.Erfc (to 1e-12).
func normalQuantile(p float64) float64 {
	lo, hi := -40.0, 40.0
	for range 200 {
		mid := (lo + hi) / 2
		if 0.5*math.Erfc(-mid/math.Sqrt2) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// SmallestP returns the smallest two-sided p [MannWhitneyP] can give with
// n values a side and no ties: 2/C(2n, n), every value of one side below
// every value of the other.
func SmallestP(n int) float64 {
	if n < 1 {
		return 1
	}
	c := 1.0
	for i := 1; i <= n; i++ {
		c = c * float64(n+i) / float64(i)
	}
	return min(1, 2/c)
}
