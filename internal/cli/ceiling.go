package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tandem-engine/tandem/bench"
)

// -scaling: the bench game against -ceiling, the bare quads,
// at each sprite count, the two alternated, each run in a fresh process.

// scalingSprites are -scaling's sprite counts, and scalingReps its
// default -reps: the fewest pairs whose interval for the median ratio
// reaches 95% (bench.MedianCI), so that the default run can say whether
// the game holds scalingBar.
var scalingSprites = []int{1000, 5000, 20000, 50000, 100000}

const scalingReps = 6

// scalingBar is the game's frame rate over the ceiling's that the table
// holds each count to: issue 37's "at least 0.9x the ceiling".
const scalingBar = 0.9

// scalingOwn are the flags -scaling sets for each run itself.
var scalingOwn = map[string]bool{
	"scaling": true, "ceiling": true, "reps": true, "reps-budget": true, "out": true, "json": true, "headless": true, "input": true,
	"sprites": true, "scene": true, "sprite-size": true,
}

// ceilingReads are the flags -ceiling reads: the quads' count, size and
// turning, the window, the run's length, where its figures go, and the
// profiles. It refuses any other (a flag it would ignore measures
// nothing), and -scaling passes its ceiling runs only these: a -spin
// table sets turning bunnies against turning quads.
var ceilingReads = append([]string{"ceiling", "sprites", "sprite-size", "spin", "width", "height", "warmup", "seconds", "out", "json",
	"headless"}, ceilingProfiles...)

// ceilingProfiles are the profile flags among ceilingReads.
var ceilingProfiles = []string{"cpuprofile", "memprofile", "trace"}

// ceilingUnread returns the flags in set (as opts.set: -name=value) that
// -ceiling does not read, each once, as -name.
func ceilingUnread(set []string) []string {
	var unread []string
	for _, s := range set {
		if name := setName(s); !slices.Contains(ceilingReads, name) && !slices.Contains(unread, "-"+name) {
			unread = append(unread, "-"+name)
		}
	}
	return unread
}

// ceilingOnly returns the flags of set that -ceiling reads: a -scaling
// run's own flags for its ceiling runs (-mute, say, is the game's; so are
// the profiles, which a ceiling run would write over the game's).
func ceilingOnly(set []string) []string {
	return slices.DeleteFunc(slices.Clone(set), func(s string) bool {
		name := setName(s)
		return !slices.Contains(ceilingReads, name) || slices.Contains(ceilingProfiles, name)
	})
}

// scalingRun is the figures -scaling reads from one run's summary.
type scalingRun struct {
	FPS    float64 `json:"fps_mean"`
	TPS    float64 `json:"tps"`
	Allocs float64 `json:"allocs_per_frame"`
	AnimP  float64 `json:"anim_err_ms_p99"`
	P50    float64 `json:"frame_ms_p50"`
	P99    float64 `json:"frame_ms_p99"`
	// Where the CPU went (null off Linux): the render thread's a frame,
	// its wait for a core a frame, the other threads' in % of a CPU.
	RenderCPU  *float64 `json:"render_cpu_ms_per_frame"`
	RenderRunq *float64 `json:"render_runq_ms_per_frame"`
	Others     *float64 `json:"other_threads_cpu_pct"`
}

// scalingRow is one sprite count: every rep of the game and of the
// ceiling, in the order they ran.
type scalingRow struct {
	sprites       int
	game, ceiling []scalingRun
	looks         *bench.Looks // -reps auto's, for the verdict; nil: at 95%
}

// runScaling runs the game and the ceiling at each count, rep after rep
// (a rep runs every count, the two side by side at each, in scalingOrder), and prints
// (or writes into -out as report.md) a table: each one's frame rate
// (median and range), the ratio of the medians and the range of the ratios
// pair by pair, the game's TPS and allocations a frame.
func (p *Program) runScaling(opts options, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "%s bench: -scaling: %v\n", p.Name, err)
		return exitError
	}
	// A game that never reads -sprites would draw the same at every
	// count, and the table would set one frame rate against five ceilings.
	if reads, err := p.readsSprites(opts); err != nil {
		if code, ok := p.gameFlagError(stderr, "bench", err); ok {
			return code
		}
		return fail(err)
	} else if !reads {
		return fail(fmt.Errorf("%s never reads -sprites (its Setup does not call Setup.Sprites): its frame rate does not change with the count; give -scene a game that does, e.g. the bench game", p.scalingGame(opts)))
	}
	counts := scalingSprites
	if slices.ContainsFunc(opts.set, func(s string) bool { return strings.HasPrefix(s, "-sprites=") }) {
		counts = []int{opts.World.Sprites}
	}
	if opts.out != "" {
		if err := os.MkdirAll(opts.out, 0o755); err != nil {
			return fail(fmt.Errorf("-out: %w", err))
		}
	}
	input, self, stop, end, err := sweepProcess(opts, stderr)
	if err != nil {
		return fail(err)
	}
	defer end()
	common := commonFlags(opts, scalingOwn)
	plan := newScalingPlan(opts)
	fmt.Fprintln(stderr, plan.text())
	run := func(k int, ceiling bool, rep int) (scalingRun, error) {
		args := []string{"bench", "-json", "-sprites", fmt.Sprint(counts[k]), "-sprite-size", fmt.Sprint(opts.World.SpriteSize)}
		if ceiling {
			args = append(append(args, "-ceiling"), ceilingOnly(common)...)
		} else {
			args = append(args, "-input", input)
			if opts.matrixScene != "" {
				args = append(args, "-scene", opts.matrixScene)
			}
			args = append(args, common...)
		}
		return runScalingOne(self, args, stderr, stop)
	}
	rows, err := plan.runReps(counts, run, stop.stopped, stderr)
	if err != nil {
		return fail(err)
	}
	reps := fmt.Sprintf("%d reps", opts.reps)
	if plan.looks != nil {
		reps = fmt.Sprintf("-reps auto (%d reps at most, %v budget)", plan.looks.Max, plan.budget)
	}
	title := fmt.Sprintf("%s bench -scaling: %s against the ceiling, %d px, %s", p.Name, p.scalingGame(opts), opts.World.SpriteSize, reps)
	if stop.stopped() {
		title += " (interrupted)"
	}
	var out bytes.Buffer
	writeScaling(&out, title, rows)
	if opts.out != "" {
		if err := writeFile(opts.out, "report.md", func(w io.Writer) error { _, err := w.Write(out.Bytes()); return err }); err != nil {
			return fail(err)
		}
		if err := writeFile(opts.out, "runs.csv", func(w io.Writer) error { return writeScalingRuns(w, rows) }); err != nil {
			return fail(err)
		}
		if err := writeFile(opts.out, "report.json", func(w io.Writer) error { return writeScalingJSON(w, title, rows) }); err != nil {
			return fail(err)
		}
		fmt.Fprintf(stderr, "bench: -scaling: report in %s\n", filepath.Join(opts.out, "report.md"))
	}
	stdout.Write(out.Bytes())
	if stop.stopped() {
		return exitError
	}
	return exitOK
}

func (p *Program) scalingGame(opts options) string {
	if opts.matrixScene != "" {
		return opts.matrixScene
	}
	return opts.Info.Name
}

// runScalingOne runs one bench process and reads its summary's figures.
func runScalingOne(self string, args []string, stderr io.Writer, stop *sweepStop) (scalingRun, error) {
	var out bytes.Buffer
	var r scalingRun
	c, err := spawn(self, args, &out, stderr, nil, nil)
	if err == nil {
		stop.running(c.proc)
		err = c.wait()
		stop.running(nil)
	}
	if err != nil {
		return r, fmt.Errorf("%s %s: %w", self, strings.Join(args, " "), err)
	}
	line := bytes.TrimSpace(out.Bytes())
	if err := json.Unmarshal(line, &r); err != nil {
		return r, fmt.Errorf("%s %s: reading its summary %q: %w", self, strings.Join(args, " "), line, err)
	}
	return r, nil
}

// scalingOrder is the order rep runs the counts in, and within a count
// the order of the pair: even reps run the counts up, the game first;
// odd reps down, the ceiling first. So no one count's pair always
// follows the heaviest run, and neither program always runs first: a
// run of 1,000 sprites just after one of 100,000 drew 1 to 13% slower
// than a second run after it (docs/results/2026-11-27-sprites-ceiling7.md).
func scalingOrder(counts, rep int) []int {
	order := make([]int, counts)
	for i := range order {
		order[i] = i
		if rep%2 == 1 {
			order[i] = counts - 1 - i
		}
	}
	return order
}

// writeScaling writes -scaling's table in Markdown.
func writeScaling(w io.Writer, title string, rows []scalingRow) {
	fmt.Fprintf(w, "# %s\n\n", title)
	fmt.Fprintf(w, "| sprites | game FPS | ceiling FPS | game / ceiling | pair by pair | %.1f× the ceiling | game TPS | game allocs/frame |\n", scalingBar)
	fmt.Fprintln(w, "| ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |")
	for _, r := range rows {
		if len(r.game) == 0 || len(r.ceiling) == 0 {
			continue
		}
		g, c := field(r.game, func(s scalingRun) float64 { return s.FPS }), field(r.ceiling, func(s scalingRun) float64 { return s.FPS })
		cnt := r.count()
		ratio := "—"
		if cnt.CeilingFPS > 0 {
			ratio = fmt.Sprintf("%.2f×", cnt.GameFPS/cnt.CeilingFPS)
		}
		fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s | %s | %s |\n", r.sprites, spread(g, "%.1f"), spread(c, "%.1f"), ratio,
			spread(r.pairs(), "%.2f"), barVerdict(cnt), spread(field(r.game, func(s scalingRun) float64 { return s.TPS }), "%.1f"),
			spread(field(r.game, func(s scalingRun) float64 { return s.Allocs }), "%.3f"))
	}
	fmt.Fprintln(w, "\nEach figure is the median, then the range over the reps; a rep ran the game and the ceiling side by side at each count, the counts up and the game first in even reps, down and the ceiling first in odd ones. \"pair by pair\" is the game's frame rate over the ceiling's in the same rep.")
	fmt.Fprintf(w, "\"%.1f× the ceiling\" reads the pairs' 95%% interval for their median ratio (the sign test's, which assumes nothing of the spread): \"at least\" when all of it is at or above %.1f, \"below\" when all of it is under, \"can't tell\" when it straddles %.1f (more reps narrow it) or there are fewer than 6 pairs. The interval is shown rounded outward, so that 0.8999 reads 0.89.\n", scalingBar, scalingBar, scalingBar)
	if len(rows) > 0 && rows[0].looks != nil {
		reps := rows[0].looks.Reps()
		fmt.Fprintf(w, "With -reps auto the verdict reads the interval at the first look that decided the count, after %s pairs, where the count stopped; or, none having, at the last look (the reps past it, when the budget ended the run, counting as one more). Each look's interval is wider than 95%%: %.1f%% at the first, %.2f%% at each later one, so that over all of them the chance of a wrong verdict stays within 5%%.\n",
			strings.Trim(fmt.Sprint(reps), "[]"), 100*(1-bench.LookAlpha(0, len(reps))), 100*(1-bench.LookAlpha(1, len(reps))))
	}
}

// pairs returns the game's frame rate over the ceiling's, rep by rep.
func (r scalingRow) pairs() []float64 {
	var p []float64
	for i := range min(len(r.game), len(r.ceiling)) {
		if c := r.ceiling[i].FPS; c > 0 {
			p = append(p, r.game[i].FPS/c)
		}
	}
	return p
}

// scalingCount is one count's row of report.json: the table's figures,
// and the 0.9 verdict with the interval it read (null when there is none).
type scalingCount struct {
	Sprites    int      `json:"sprites"`
	Pairs      int      `json:"pairs"`
	GameFPS    float64  `json:"game_fps_median"`
	CeilingFPS float64  `json:"ceiling_fps_median"`
	PairRatio  float64  `json:"pair_ratio_median"`
	Lo         *float64 `json:"pair_ratio_ci95_lo"`
	Hi         *float64 `json:"pair_ratio_ci95_hi"`
	Bar        float64  `json:"bar"`
	Verdict    string   `json:"verdict"` // "at least", "below" or "can't tell"
	// The interval the verdict read: the 95% one above, or with -reps auto
	// the deciding look's (or the last look's), its pairs and level, and
	// the pairs at the look that decided it (0: none did, or no looks).
	VerdictLo         *float64 `json:"verdict_ci_lo"`
	VerdictHi         *float64 `json:"verdict_ci_hi"`
	VerdictPairs      int      `json:"verdict_pairs"`
	VerdictConfidence float64  `json:"verdict_confidence"`
	VerdictLook       int      `json:"verdict_look"`
	GameTPS           float64  `json:"game_tps_median"`
}

// count returns r's row of report.json.
func (r scalingRow) count() scalingCount {
	pairs := r.pairs()
	c := scalingCount{Sprites: r.sprites, Pairs: len(pairs), Bar: scalingBar, PairRatio: median(pairs),
		GameFPS:    median(field(r.game, func(s scalingRun) float64 { return s.FPS })),
		CeilingFPS: median(field(r.ceiling, func(s scalingRun) float64 { return s.FPS })),
		GameTPS:    median(field(r.game, func(s scalingRun) float64 { return s.TPS }))}
	if lo, hi, ok := bench.MedianCI(pairs, bench.Confidence); ok {
		c.Lo, c.Hi = &lo, &hi
	}
	c.Verdict, c.VerdictLo, c.VerdictHi, c.VerdictPairs, c.VerdictConfidence, c.VerdictLook = judge(pairs, r.looks, true)
	return c
}

// barVerdict is the table's cell for c's verdict. It prints the interval
// rounded outward, so that the bounds shown agree with the verdict: 0.8999
// shows as 0.89, not as the bar.
func barVerdict(c scalingCount) string {
	if c.VerdictLo == nil {
		return fmt.Sprintf("can't tell: %d pairs, %d at least", c.VerdictPairs, fewestPairs(c.VerdictConfidence))
	}
	s := fmt.Sprintf("%s (%.2f–%.2f)", c.Verdict, math.Floor(*c.VerdictLo*100+1e-9)/100, math.Ceil(*c.VerdictHi*100-1e-9)/100)
	if c.VerdictConfidence != bench.Confidence {
		s += fmt.Sprintf(", %d pairs at %.3g%%", c.VerdictPairs, 100*c.VerdictConfidence)
	}
	return s
}

// writeScalingJSON writes report.json: the title and a row for each count
// that ran, for scripts to read the verdicts from.
func writeScalingJSON(w io.Writer, title string, rows []scalingRow) error {
	counts := []scalingCount{}
	for _, r := range rows {
		if len(r.game) > 0 && len(r.ceiling) > 0 {
			counts = append(counts, r.count())
		}
	}
	b, err := json.MarshalIndent(struct {
		Title  string         `json:"title"`
		Counts []scalingCount `json:"counts"`
	}{title, counts}, "", "  ")
	if err == nil {
		_, err = w.Write(append(b, '\n'))
	}
	return err
}

// writeScalingRuns writes every run of the table, one a line, in the
// order of the reps: the figures behind each median and pair.
func writeScalingRuns(w io.Writer, rows []scalingRow) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"sprites", "rep", "program", "fps_mean", "frame_ms_p50", "frame_ms_p99", "tps", "allocs_per_frame", "anim_err_ms_p99",
		"render_cpu_ms_per_frame", "render_runq_ms_per_frame", "other_threads_cpu_pct"})
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	opt := func(v *float64) string { // empty for null
		if v == nil {
			return ""
		}
		return num(*v)
	}
	for _, r := range rows {
		for _, side := range []struct {
			name string
			runs []scalingRun
		}{{"game", r.game}, {"ceiling", r.ceiling}} {
			for rep, s := range side.runs {
				tps, allocs, anim := num(s.TPS), num(s.Allocs), num(s.AnimP)
				if side.name == "ceiling" {
					tps, anim = "", "" // the ceiling has no sim and no probe
				}
				cw.Write([]string{strconv.Itoa(r.sprites), strconv.Itoa(rep), side.name, num(s.FPS), num(s.P50), num(s.P99), tps, allocs, anim,
					opt(s.RenderCPU), opt(s.RenderRunq), opt(s.Others)})
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func field(rs []scalingRun, f func(scalingRun) float64) []float64 {
	v := make([]float64, len(rs))
	for i, r := range rs {
		v[i] = f(r)
	}
	return v
}

// median is bench.Median, 0 for none.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	return bench.Median(v)
}

// spread formats the median of v, then its range: "12.3 (11.9–12.8)".
func spread(v []float64, f string) string {
	if len(v) == 0 {
		return "—"
	}
	lo, hi := slices.Min(v), slices.Max(v)
	if len(v) == 1 {
		return fmt.Sprintf(f, v[0])
	}
	return fmt.Sprintf(f+" ("+f+"–"+f+")", median(v), lo, hi)
}
