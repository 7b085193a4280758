package bench

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMedianCIOrder checks MedianCI's order statistics against the sign
// test's: the 95% interval for the median of n values is [x(k),
// x(n+1-k)], k from the binomial of n trials of one half (k = 6 at n = 20:
// P(B <= 5) = 0.0207, P(B <= 6) = 0.0577).
func TestMedianCIOrder(t *testing.T) {
	for _, c := range []struct{ n, k int }{{5, 0}, {6, 1}, {8, 1}, {9, 2}, {10, 2}, {12, 3}, {20, 6}, {30, 10}, {50, 18}} {
		xs := make([]float64, c.n)
		for i := range xs {
			xs[i] = float64(c.n - i) // descending: MedianCI sorts a copy
		}
		lo, hi, ok := MedianCI(xs, 0.95)
		if c.k == 0 {
			if ok || !math.IsNaN(lo) || !math.IsNaN(hi) {
				t.Errorf("n=%d: (%v, %v, %v), want no interval", c.n, lo, hi, ok)
			}
			continue
		}
		if !ok || lo != float64(c.k) || hi != float64(c.n+1-c.k) {
			t.Errorf("n=%d: (%v, %v, %v), want (%d, %d, true)", c.n, lo, hi, ok, c.k, c.n+1-c.k)
		}
		if xs[0] != float64(c.n) {
			t.Errorf("n=%d: MedianCI sorted its argument", c.n)
		}
	}
}

// TestMedianCICoverage draws samples of a skewed population and counts how
// often the 95% interval holds its median: at least 95% (the sign test's
// interval is conservative), here over 4,000 samples of 20.
func TestMedianCICoverage(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	med := math.Ln2 // the median of an exponential of rate 1
	const trials = 4000
	held := 0
	for range trials {
		xs := make([]float64, 20)
		for i := range xs {
			xs[i] = r.ExpFloat64()
		}
		if lo, hi, ok := MedianCI(xs, 0.95); ok && lo <= med && med <= hi {
			held++
		}
	}
	// The exact coverage at n = 20 is 1 - 2 P(B <= 5) = 0.9586; 4,000
	// draws put it within 0.012 of that almost always.
	if got := float64(held) / trials; got < 0.946 || got > 0.971 {
		t.Errorf("the interval held the median in %.4f of %d samples, want about 0.9586", got, trials)
	}
}
