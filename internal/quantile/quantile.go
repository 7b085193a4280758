// Package quantile holds tandem's one rank rule for quantiles, so that a
// figure such as a p99 means the same wherever it is computed: the
// frames' figures, the HUD, the pacing's predictions, the sound's start
// errors, the host floor, the ceiling.
package quantile

import "math"

// Rank returns the index, counting from 0, of the q-quantile among n
// values in ascending order, by the nearest-rank method: the smallest
// value with at least a share q of the n values at or below it, the
// ceil(q*n)-th smallest. q <= 0 gives the least value (0), q >= 1 the
// greatest (n-1). n must be at least 1.
//
// q*n is taken as exact when it is within a relative 1e-12 of a whole
// number, so that 0.07 of 100 values is the 7th smallest, not the 8th
// that the rounding of 0.07*100 to 7.000000000000001 would give.
func Rank(n int, q float64) int {
	x := q * float64(n)
	k := math.Ceil(x)
	if r := math.Round(x); r < k && x-r <= 1e-12*x {
		k = r
	}
	return min(max(int(k)-1, 0), n-1)
}
