package soundtest

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFitRecording reads a recording whose sink runs ppm off 1/Rate, in 2
// ms fragments that arrive 0 to 3 ms after they are rendered (1 in 50
// reads with no delay, as the least reads do), and wants every frame's
// time within 80 µs: a fit at the nominal rate, the least read alone, is
// off by ppm × the record's length at its start.
func TestFitRecording(t *testing.T) {
	const start = int64(5e9)
	for _, c := range []struct {
		ppm     float64
		seconds int
	}{{0, 30}, {60, 30}, {-45, 30}, {120, 8}, {60, 1}} {
		rng := rand.New(rand.NewPCG(uint64(c.seconds), uint64(c.ppm+1000)))
		period := 1e9 / Rate * (1 + c.ppm/1e6)
		var ks, ats []int64
		for k := int64(96); k <= int64(c.seconds*Rate); k += 96 {
			late := int64(rng.Float64() * 3e6)
			if rng.IntN(50) == 0 {
				late = 0
			}
			ks, ats = append(ks, k), append(ats, start+int64(float64(k)*period)+late)
		}
		s, p := fitRecording(ks, ats)
		got := Capture{Start: s, Period: p}
		worst := 0.0
		for _, k := range []int{0, len(ks) / 2 * 96, len(ks) * 96} {
			want := start + int64(float64(k)*period)
			worst = max(worst, math.Abs(float64(got.At(k)-want)))
		}
		// A record under fitMinSpan keeps 1/Rate: its error is the drift
		// over its length, which the bound allows for 1 s at 60 ppm.
		if worst > 80e3 {
			t.Errorf("%.0f ppm, %d s: frames off by %.1f µs (period %.6f ns, want %.6f)", c.ppm, c.seconds, worst/1e3, p, period)
		}
	}
	if s, _ := fitRecording(nil, nil); s != math.MaxInt64 {
		t.Errorf("no reads: start %d, want MaxInt64 (no frame heard)", s)
	}
}
