package quantile

import (
	"math"
	"slices"
	"testing"
)

// TestRank checks the nearest-rank rule against its definition, the
// smallest value with at least a share q of the values at or below it,
// counted over every n up to 300 and q in hundredths, where q*n rounds
// badly in floating point (0.07 of 100) too.
func TestRank(t *testing.T) {
	for n := 1; n <= 300; n++ {
		for pct := 0; pct <= 100; pct++ {
			q := float64(pct) / 100
			// The definition, in whole numbers: the least k (from 1)
			// with k*100 >= pct*n.
			k := max((pct*n+99)/100, 1)
			if got := Rank(n, q); got != k-1 {
				t.Fatalf("Rank(%d, %v) = %d, want %d", n, q, got, k-1)
			}
		}
	}
	if Rank(5, -1) != 0 || Rank(5, 2) != 4 || Rank(1, 0.5) != 0 {
		t.Errorf("out-of-range q: Rank(5,-1)=%d Rank(5,2)=%d Rank(1,.5)=%d", Rank(5, -1), Rank(5, 2), Rank(1, 0.5))
	}
	// Known values: p50 of 4 is the 2nd smallest, p99 of 1000 the 990th.
	xs := []float64{4, 1, 3, 2}
	slices.Sort(xs)
	if xs[Rank(4, 0.5)] != 2 || Rank(1000, 0.99) != 989 || Rank(100, 0.07) != 6 || math.IsNaN(xs[Rank(4, 1)]) {
		t.Errorf("Rank: p50 of 1..4 = %v, p99 of 1000 at %d, p7 of 100 at %d", xs[Rank(4, 0.5)], Rank(1000, 0.99), Rank(100, 0.07))
	}
}
