//go:build cgo

package app

import (
	"math"
	"testing"
)

func TestProbeColumn(t *testing.T) {
	// The probe is drawn from a whole column, the one an outside meter
	// reads as its left edge (the first pixel whose centre is inside). At
	// an edge within the rasterizer's sub-pixel precision of a pixel's
	// centre (315.5 +- 1/512) the column is the rule's, never chance; that
	// a whole column lights exactly itself is gl's TestQuadWholeColumns.
	for _, tc := range []struct {
		x    float64
		fw   int
		want float64
	}{
		{315.5, 640, 315}, {315.501, 640, 316}, {315.499, 640, 315}, {315.5 + 1.0/512, 640, 316}, {315.5 - 1.0/512, 640, 315},
		{0, 640, 0}, {0.4, 640, 0}, {0.6, 640, 1}, {640 + 3.2, 640, 3}, {2*640 + 639.4, 640, 639},
	} {
		got := probeColumn(tc.x, tc.fw)
		if got != tc.want || got != math.Trunc(got) {
			t.Errorf("probeColumn(%v, %d) = %v, want %v", tc.x, tc.fw, got, tc.want)
		}
	}
}
