package cli

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/bench"
)

// TestScalingRepsAuto runs -reps auto's reps on made-up pairs: a count
// whose game holds the ceiling is decided "at least" at the first look and
// runs no more, one at half the ceiling "below" likewise, and one whose
// pairs straddle 0.9 runs to the last rep, undecided.
func TestScalingRepsAuto(t *testing.T) {
	o, err := testProgram.parseFlags("bench", []string{"-scaling", "-reps", "auto"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	plan := newScalingPlan(o)
	if plan.looks == nil || plan.looks.First != 7 || plan.looks.Max != autoMaxReps || plan.budget != 30*time.Minute {
		t.Fatalf("-scaling -reps auto: plan %+v, looks %+v; want looks from 7 to %d, 30m", plan, plan.looks, autoMaxReps)
	}
	for _, want := range []string{"after 7 reps (its interval at 97.5%)", "then after 11 17 26 30 (each at 99.38%)", "until 30 reps"} {
		if !strings.Contains(plan.text(), want) {
			t.Errorf("plan %q: want %q in it", plan.text(), want)
		}
	}
	game := map[int]func(rep int) float64{
		1000: func(int) float64 { return 100 },
		5000: func(int) float64 { return 50 },
		20000: func(rep int) float64 {
			if rep%2 == 0 {
				return 85
			}
			return 95
		},
	}
	counts := []int{1000, 5000, 20000}
	var order []string
	run := func(k int, ceiling bool, rep int) (scalingRun, error) {
		order = append(order, fmt.Sprintf("%d/%v/%d", counts[k], ceiling, rep))
		if ceiling {
			return scalingRun{FPS: 100}, nil
		}
		return scalingRun{FPS: game[counts[k]](rep), TPS: 60}, nil
	}
	var said strings.Builder
	rows, err := plan.runReps(counts, run, func() bool { return false }, &said)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"bench: the look after 7 reps decided 1000 sprites: at least 0.9× the ceiling (pairs 1.00–1.00 at 97.5%)\n",
		"bench: the look after 7 reps decided 5000 sprites: below 0.9× the ceiling (pairs 0.50–0.50 at 97.5%)\n",
		"bench: the look after 7 reps: 20000 sprites undecided, running on\n", "bench: the last look, after 30 reps: 20000 sprites undecided\n"} {
		if !strings.Contains(said.String(), want) {
			t.Errorf("stderr lacks %q", want)
		}
	}
	for k, want := range []struct {
		reps    int
		verdict string
		look    int
	}{{7, "at least", 7}, {7, "below", 7}, {30, "can't tell", 0}} {
		r := rows[k]
		c := r.count()
		if len(r.game) != want.reps || len(r.ceiling) != want.reps || c.Verdict != want.verdict || c.VerdictLook != want.look || c.VerdictPairs != want.reps {
			t.Errorf("%d sprites: %d and %d runs, %+v; want %d reps, %q at look %d", r.sprites, len(r.game), len(r.ceiling), c, want.reps, want.verdict, want.look)
		}
	}
	// Even reps run the counts up, the game first; odd reps down, the
	// ceiling first; a decided count is left out.
	if want := []string{"1000/false/0", "1000/true/0", "5000/false/0", "5000/true/0", "20000/false/0", "20000/true/0",
		"20000/true/1", "20000/false/1", "5000/true/1"}; !slices.Equal(order[:len(want)], want) {
		t.Errorf("the first runs: %q, want %q", order[:len(want)], want)
	}
	if want := []string{"20000/true/7", "20000/false/7", "20000/false/8"}; !slices.Equal(order[42:45], want) {
		t.Errorf("after the first look: %q, want %q", order[42:45], want)
	}
	var b strings.Builder
	writeScaling(&b, "title", rows)
	for _, want := range []string{"at least (1.00–1.00), 7 pairs at 97.5%", "below (0.50–0.50), 7 pairs at 97.5%", "can't tell (0.85–0.95), 30 pairs at 99.4%", "after 7 11 17 26 30 pairs"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the table does not say %q:\n%s", want, b.String())
		}
	}

	// A stop or a failed run ends the reps with what ran.
	n := 0
	stopped := func() bool { return n == 3 }
	rows, err = plan.runReps(counts, func(k int, ceiling bool, rep int) (scalingRun, error) { n++; return run(k, ceiling, rep) }, stopped, io.Discard)
	if err != nil || len(rows[0].game)+len(rows[0].ceiling)+len(rows[1].game) != 2 || len(rows[1].ceiling) != 0 {
		t.Errorf("stopped at the third run: %v, rows %+v", err, rows)
	}
	// A fixed number of reps runs every count each rep, and says how many
	// runs there are.
	said.Reset()
	rows, err = scalingPlan{reps: 2}.runReps(counts, run, func() bool { return false }, &said)
	if err != nil || len(rows[0].game) != 2 || len(rows[2].ceiling) != 2 || !strings.Contains(said.String(), "bench: run 12 of 12: game, 1000 sprites, rep 1;") {
		t.Errorf("-reps 2: %v, %d and %d runs; stderr:\n%s", err, len(rows[0].game), len(rows[2].ceiling), said.String())
	}
	boom := errors.New("boom")
	if _, err := plan.runReps(counts, func(int, bool, int) (scalingRun, error) { return scalingRun{}, boom }, func() bool { return false }, io.Discard); !errors.Is(err, boom) {
		t.Errorf("a failed run: %v", err)
	}
}

// TestScalingBudget checks that -reps auto starts no rep past the first
// look that would end past -reps-budget at the pace so far, counting the
// undecided counts only.
func TestScalingBudget(t *testing.T) {
	plan := scalingPlan{looks: &bench.Looks{First: 7, Max: 30}, budget: 10 * time.Minute}
	rows := []scalingRow{{sprites: 1000}, {sprites: 5000}}
	for k := range rows {
		for range 8 {
			rows[k].game = append(rows[k].game, scalingRun{FPS: 100})
			rows[k].ceiling = append(rows[k].ceiling, scalingRun{FPS: 100})
		}
	}
	rows[1].game[0].FPS = 80 // undecided: its pairs straddle 0.9 at 97.5%
	rows[1].game[1].FPS = 80
	rows[1].game[2].FPS = 80
	rows[1].game[3].FPS = 80
	spent := []time.Duration{8 * time.Minute, 8 * time.Minute} // a minute a pair
	if got := plan.todo(rows, 8, spent, 9*time.Minute); len(got) != 1 || !got[1] {
		t.Errorf("a minute left, a minute a rep: %v, want the undecided count", got)
	}
	if got := plan.todo(rows, 8, spent, 9*time.Minute+time.Second); len(got) != 0 {
		t.Errorf("under a minute left: %v, want none", got)
	}
	// Before the first look the reps run whatever the budget.
	short := rows[1]
	short.game, short.ceiling = short.game[:5], short.ceiling[:5]
	if got := plan.todo([]scalingRow{short}, 5, spent[:1], time.Hour); len(got) != 1 {
		t.Errorf("before the first look, past the budget: %v, want the count", got)
	}
}

// TestJudgeLooks checks the verdict of -reps auto's looks: a count is
// decided at a look only; reps past the last look count as one more look
// in the report only, at the next look's level.
func TestJudgeLooks(t *testing.T) {
	looks := &bench.Looks{First: 7, Max: 30}
	pairs := []float64{0.85, 0.85, 0.95, 0.95, 0.95, 0.95, 0.95, 0.95, 0.95}
	v, lo, _, n, level, look := judge(pairs[:7], looks, false)
	if v != "can't tell" || lo == nil || *lo != 0.85 || n != 7 || level != 0.975 || look != 0 {
		t.Errorf("7 pairs: %q from %v, %d pairs at %v, look %d", v, lo, n, level, look)
	}
	if v, _, _, _, _, look := judge(pairs, looks, false); v != "can't tell" || look != 0 {
		t.Errorf("9 pairs, between looks: %q at look %d; want it undecided until the next look", v, look)
	}
	v, lo, _, n, level, look = judge(pairs, looks, true)
	if v != "can't tell" || n != 9 || level != 1-0.025/4 || look != 0 {
		t.Errorf("9 pairs, the report: %q from %v, %d pairs at %v, look %d", v, lo, n, level, look)
	}
	for range 10 {
		pairs = append(pairs, 0.95)
	}
	// At 11 pairs the 99.4% interval is still the whole range; at 17 it
	// leaves out the two lowest.
	if v, lo, _, n, _, look := judge(pairs, looks, true); v != "at least" || *lo != 0.95 || n != 17 || look != 17 {
		t.Errorf("19 pairs: %q from %v, %d pairs, look %d; want at least, decided at the look after 17", v, lo, n, look)
	}
	// Without looks, the 95% interval of every pair.
	if v, lo, _, n, level, look := judge(pairs[:6], nil, true); v != "can't tell" || *lo != 0.85 || n != 6 || level != bench.Confidence || look != 0 {
		t.Errorf("6 pairs, fixed reps: %q from %v, %d pairs at %v, look %d", v, lo, n, level, look)
	}
}
