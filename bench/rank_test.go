package bench

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The reference values in rankref_test.go come from scipy, statsmodels and
// R (bench/testdata/rankref.py says which function gave which, and how to
// make them again).

func TestMannWhitneyReference(t *testing.T) {
	for _, c := range mwuRefs {
		if got := MannWhitneyExactP(c.a, c.b); !closeRel(got, c.exact, 1e-9) {
			t.Errorf("%s: exact p = %.12g, want %.12g", c.name, got, c.exact)
		}
		if got := MannWhitneyExactP(c.b, c.a); !closeRel(got, c.exact, 1e-9) {
			t.Errorf("%s, b first: exact p = %.12g, want %.12g", c.name, got, c.exact)
		}
		if got := MannWhitneyNormalP(c.a, c.b); !closeRel(got, c.normal, 1e-9) {
			t.Errorf("%s: normal p = %.12g, want %.12g", c.name, got, c.normal)
		}
		if got := MannWhitneyP(c.a, c.b); got != MannWhitneyExactP(c.a, c.b) {
			t.Errorf("%s: MannWhitneyP = %g, not the exact p up to %d a side", c.name, got, exactMax)
		}
	}
}

func TestHolmReference(t *testing.T) {
	for _, c := range holmRefs {
		got := Holm(c.ps)
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("Holm(%v) = %v, want %v", c.ps, got, c.want)
				break
			}
		}
	}
}

func TestHodgesLehmannReference(t *testing.T) {
	for _, c := range hlRefs {
		s := HodgesLehmann(c.a, c.b, 0.95)
		if !closeRel(s.Est, c.est, 1e-9) || !closeRel(s.Lo, c.lo, 1e-9) || !closeRel(s.Hi, c.hi, 1e-9) {
			t.Errorf("%dx%d: shift %.6g (%.6g to %.6g), want %.6g (%.6g to %.6g)",
				len(c.a), len(c.b), s.Est, s.Lo, s.Hi, c.est, c.lo, c.hi)
		}
	}
}

// closeRel reports whether got is want to within rel of want (absolutely
// for a want under 1e-300).
func closeRel(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Max(math.Abs(want), 1e-300)
}

// TestMannWhitneyProperties checks what holds at any size: p = 1 for
// equal samples, the same p either way round and for shifted or scaled
// values (ranks only), and at most 2/C(2n, n) (SmallestP) for two
// samples apart.
func TestMannWhitneyProperties(t *testing.T) {
	if p := MannWhitneyP([]float64{1, 1, 1}, []float64{1, 1, 1}); p != 1 {
		t.Errorf("all tied: p = %g, want 1", p)
	}
	if p := MannWhitneyNormalP([]float64{2, 2}, []float64{2, 2, 2}); p != 1 {
		t.Errorf("all tied, normal: p = %g, want 1", p)
	}
	if !math.IsNaN(MannWhitneyP(nil, []float64{1})) || !math.IsNaN(MannWhitneyNormalP([]float64{1}, nil)) {
		t.Error("an empty sample: want NaN")
	}
	for n := 2; n <= 12; n++ {
		var a, b, a2, b2 []float64
		for i := range n {
			a, b = append(a, float64(i)), append(b, float64(i+n))
			a2, b2 = append(a2, 3*float64(i)+7), append(b2, 3*float64(i+n)+7)
		}
		p := MannWhitneyP(a, b)
		if !closeRel(p, SmallestP(n), 1e-12) || p != MannWhitneyP(b, a) || p != MannWhitneyP(a2, b2) {
			t.Errorf("%d a side apart: p %g, b first %g, scaled %g; want %g each", n, p, MannWhitneyP(b, a), MannWhitneyP(a2, b2), SmallestP(n))
		}
	}
	// Above exactMax, the normal approximation: far apart is tiny.
	var a, b []float64
	for i := range 40 {
		a, b = append(a, float64(i)), append(b, float64(i+100))
	}
	if p := MannWhitneyP(a, b); p > 1e-6 || p != MannWhitneyNormalP(a, b) {
		t.Errorf("40 vs 40 far apart: p = %g, want the normal approximation's, tiny", p)
	}
}

// TestHodgesLehmannSmall checks the interval's edges: none at 3 a side
// (no interval reaches 95%), the widest (every difference) at 4, and the
// estimate the median of the differences.
func TestHodgesLehmannSmall(t *testing.T) {
	s := HodgesLehmann([]float64{1, 2, 3}, []float64{11, 12, 13}, 0.95)
	if s.Est != 10 || !math.IsInf(s.Lo, -1) || !math.IsInf(s.Hi, 1) {
		t.Errorf("3 a side: %+v, want 10 with no interval", s)
	}
	s = HodgesLehmann([]float64{1, 2, 3, 4}, []float64{11, 12, 13, 14}, 0.95)
	if s.Est != 10 || s.Lo != 7 || s.Hi != 13 {
		t.Errorf("4 a side: %+v, want 10 (7 to 13)", s)
	}
	if s := HodgesLehmann(nil, []float64{1}, 0.95); !math.IsNaN(s.Est) {
		t.Errorf("empty: %+v, want NaN", s)
	}
}

// TestLooksNullRate checks -reps auto's looks on made-up data with no
// difference: four loops from one distribution (σ 1.5%), reps added and
// judged at the looks (6, 9, 14, 21, 30) until every pair is decided, 200
// matrices: some loop is called behind at some look in at most 5% of them.
func TestLooksNullRate(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 3))
	looks := &Looks{First: FewestReps(4, 30, Alpha/2), Max: 30}
	fig := decideFigures[0]
	wrong, stops := 0, map[int]int{}
	const matrices = 200
	for range matrices {
		c := &Cell{SimCost: "0s", Sprites: 1000}
		for _, loop := range []string{"coupled", "decoupled", "pipelined", "threaded"} {
			l := &CellLoop{Loop: loop}
			for rep := range 30 {
				l.Results = append(l.Results, Result{Rep: rep, Summary: sm(map[string]any{"fps_mean": 500 * math.Exp(0.015*rng.NormFloat64())})})
			}
			c.Loops = append(c.Loops, l)
		}
		// One judgement of all 30 reps gives each pair the look that
		// decided it (decisions stand): the run stops at the latest of
		// those, or at 30 when some pair is never decided.
		v := judge(c, fig, looks)
		stop := 0
		for _, p := range v.pairs {
			stop = max(stop, p.look)
			if p.word == CannotTell {
				stop = looks.Max
			}
		}
		stops[stop]++
		if slices.ContainsFunc(v.pairs, func(p pairVerdict) bool { return p.word == Behind }) {
			wrong++
		}
	}
	t.Logf("no difference: some loop behind in %d of %d matrices; stopped after %v reps", wrong, matrices, stops)
	if float64(wrong)/matrices > Alpha {
		t.Errorf("no difference: some loop behind in %d of %d matrices, want at most 5%%", wrong, matrices)
	}
}
