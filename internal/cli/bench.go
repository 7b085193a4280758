package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tandem-engine/tandem/audio"
	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/internal/app"
	"github.com/tandem-engine/tandem/internal/atomicfile"
	"github.com/tandem-engine/tandem/internal/engine"
)

// benchLPThreads is the LP_NUM_THREADS the bench sets when the
// environment does not: 0, llvmpipe rasterizing on the render thread
// itself. On a 2-core machine that leaves one core to the render thread
// and one to the sim thread; with llvmpipe's default (a thread per core)
// its rasterizer threads take both cores while a frame is drawn, and the
// sim's ticks start late (docs/results/2026-11-22-loops.md).
const benchLPThreads = "0"

// setBenchEnv sets what the bench fixes so that runs compare: Mesa reads
// LP_NUM_THREADS when the GL context is made (and a -matrix cell inherits
// it from its parent).
func setBenchEnv() {
	if os.Getenv("LP_NUM_THREADS") == "" {
		os.Setenv("LP_NUM_THREADS", benchLPThreads)
	}
}

// result turns a finished run into what the reports need: its summary's
// sections as they are, not read back from its JSON.
func result(s *app.Summary) (bench.Result, error) {
	r := bench.Result{
		Name: bench.CellName(s.Loop, s.SimCost, s.Sprites, "", ""), Loop: s.Loop, SimCost: s.SimCost, Sprites: s.Sprites,
		Summary: s.Summary,
	}
	if run := s.Records(); run != nil {
		r.Frames, r.Ticks = run.Window()
	}
	return r, nil
}

// writeReport writes one bench run's report into dir: the files of
// runFiles, then the charts when the program draws them.
func (p *Program) writeReport(dir string, sum *app.Summary) error {
	r, err := result(sum)
	if err != nil {
		return err
	}
	for _, f := range runFiles(sum, r) {
		if f.write == nil {
			continue
		}
		if err := writeFile(dir, f.name, f.write); err != nil {
			return err
		}
	}
	if p.Charts.Run == nil {
		return nil
	}
	_, err = p.Charts.Run(dir, r.Frames, r.Ticks, r.Name)
	return err
}

// reportFile is one file of a bench run's report: its name in -out's
// directory, and what writes it (nil: nothing this run).
type reportFile struct {
	name  string
	write func(io.Writer) error
}

// runFiles are the files of one bench run's report, in the order they are
// written: report.json (the summary), report.md, bench.txt, the raw
// frames.csv and ticks.csv (the newest records of the measured window,
// records_frames of them; the figures cover all of it), sounds.csv (every
// sound the run started) and inputs.csv (every real key press measured),
// the last two only when there were any. With a nil sum only the names
// are of use: reportNames takes them from here, so that the files
// checkOutputs keeps outputs off and the files written cannot drift apart.
func runFiles(sum *app.Summary, r bench.Result) []reportFile {
	rs := []bench.Result{r}
	var summary, sounds, presses func(io.Writer) error
	if sum != nil {
		summary = sum.WriteJSON
		if rows := sum.Sounds(); rows != nil {
			sounds = func(w io.Writer) error { return writeSoundsCSV(w, rows) }
		}
		if rows := sum.Presses(); rows != nil {
			presses = func(w io.Writer) error { return bench.WritePressesCSV(w, rows) }
		}
	}
	return []reportFile{
		{"report.json", summary},
		{"report.md", func(w io.Writer) error { return bench.WriteMarkdown(w, "tandem bench", rs) }},
		{"bench.txt", func(w io.Writer) error { return bench.WriteBenchTxt(w, rs) }},
		{"frames.csv", func(w io.Writer) error { return bench.WriteFramesCSV(w, r.Frames) }},
		{"ticks.csv", func(w io.Writer) error { return bench.WriteTicksCSV(w, r.Ticks) }},
		{"sounds.csv", sounds},
		{"inputs.csv", presses},
	}
}

// reportNames are the names of every file bench -out DIR may write into
// DIR: runFiles' and the charts'.
func reportNames() []string {
	var names []string
	for _, f := range runFiles(nil, bench.Result{}) {
		names = append(names, f.name)
	}
	return append(names, bench.RunCharts()...)
}

// writeResults writes report.md (with report) and bench.txt for results
// into dir.
func writeResults(dir string, rs []bench.Result, report func(io.Writer) error) error {
	if err := writeFile(dir, "report.md", report); err != nil {
		return err
	}
	return writeFile(dir, "bench.txt", func(w io.Writer) error { return bench.WriteBenchTxt(w, rs) })
}

// writeFile writes dir/name with write, whole or not at all: a symlink
// at the name (a bench folder from someone else's archive) is replaced,
// not written through.
func writeFile(dir, name string, write func(io.Writer) error) error {
	path := filepath.Join(dir, name)
	if err := atomicfile.WriteFileIn(path, write); err != nil {
		return fmt.Errorf("bench: write %s: %w", path, err)
	}
	return nil
}

// The standard comparison of -matrix.
var (
	matrixSimcosts = []string{"0s", "8ms", "14ms", "25ms"}
	matrixSprites  = []int{1000, 5000}
	// matrixRendercosts is the render axis of a game that ignores
	// -sprites: none, and about what 5000 sprites cost a frame on
	// llvmpipe.
	matrixRendercosts = []string{"", "8ms"}
)

// matrixReps is -reps' default with -matrix: with 5 reps a side, a
// Mann-Whitney test can tell two loops apart at p < 0.05 (with 3 it never
// can), and benchstat wants at least 4.
const matrixReps = 5

// matrixOwn are the flags the matrix sets for each cell itself, or that
// make no sense per cell.
var matrixOwn = map[string]bool{
	"matrix": true, "reps": true, "reps-budget": true, "out": true, "json": true, "headless": true, "input": true,
	"loop": true, "simcost": true, "sprites": true, "scene": true, "sprite-size": true, "order-seed": true,
	"loops": true, "loads": true,
}

// benchCell is one run of a sweep: its name in Go benchmark form, its
// flags, and the -sprites it asks for (its place on the axis, whatever the
// game made of it). Cells of one block (one load, every loop) run next to
// each other in a rep (sweepOrder).
type benchCell struct {
	name    string
	args    []string
	sprites int // 0: the game's own
	block   string
	// rendercost and load are the cell's -rendercost and game load, ""
	// for none.
	rendercost, load string
}

// loop is the loop the cell runs, from its name (loop=L/...).
func (c benchCell) loop() string {
	return strings.TrimPrefix(strings.SplitN(c.name, "/", 2)[0], "loop=")
}

// runMatrix runs every loop x simcost x sprites cell and writes the
// side-by-side report. An axis the game ignores is run at one value and
// said to be ignored, so that its cells are never taken for repetitions
// of one cell.
func (p *Program) runMatrix(opts options, stdout, stderr io.Writer) int {
	cells, notes, err := p.matrixPlan(opts)
	if code, ok := p.gameFlagError(stderr, "bench", err); ok {
		return code // a bad value of the game's own flag, found setting it up
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s bench: -matrix: %v\n", p.Name, err)
		return exitError
	}
	if len(notes) > 0 {
		fmt.Fprintf(stderr, "bench: %s ignores -sprites: its render axis is -rendercost %s, at its own load\n", p.matrixGameName(opts), strings.Join(matrixRendercosts[1:], ", "))
	}
	if n := syntheticNotice(opts); n != "" {
		fmt.Fprintln(stderr, n)
	}
	return p.runSweep(opts, "-matrix", cells, matrixOwn, func(w io.Writer, title string, rs []bench.Result, sweepNotes []string, looks *bench.Looks) error {
		return bench.WriteMatrixMarkdownAt(w, title, rs, append(slices.Clip(notes), sweepNotes...), looks)
	}, p.Charts.Sweep, stdout, stderr)
}

// matrixPlan returns -matrix's cells for the game it runs, and the notes
// its report opens with. Every matrix has a cell at the game's own load
// (no -sprites, no cost) and one per load the game declares (Info.Loads);
// a game that ignores -sprites gets its render axis from -rendercost
// instead, at its own load, and a note that says so.
func (p *Program) matrixPlan(opts options) ([]benchCell, []string, error) {
	reads, err := p.readsSprites(opts)
	if err != nil {
		return nil, nil, err
	}
	game := p.matrixGame(opts).Info()
	if err := p.checkLoads(opts, game); err != nil {
		return nil, nil, err
	}
	var cells []benchCell
	var notes []string
	if reads {
		cells = matrixCells([]int{0}, []string{""}, matrixSimcosts[:1])
		cells = append(cells, matrixCells(matrixSprites, []string{""}, matrixSimcosts)...)
	} else {
		cells = matrixCells([]int{0}, matrixRendercosts, matrixSimcosts)
		notes = append(notes, fmt.Sprintf("**sprites: ignored.** %s never reads -sprites (its Setup does not call Setup.Sprites), so the matrix ran it at its own load and took its render axis from -rendercost (%s) instead of sprites (%s).",
			game.Name, strings.Join(matrixRendercosts[1:], ", "), strings.Trim(fmt.Sprint(matrixSprites), "[]")))
	}
	for _, l := range game.Loads {
		for _, loop := range app.Loops {
			name := bench.CellName(string(loop), "0s", 0, "", l.Name)
			cells = append(cells, benchCell{name, append([]string{"-loop", string(loop), "-simcost", "0s"}, l.Flags...), 0,
				strings.TrimPrefix(name, "loop="+string(loop)+"/"), "", l.Name})
		}
	}
	cells, err = narrowCells(cells, opts.loops, opts.loads)
	return cells, notes, err
}

// narrowCells keeps the cells of the loops and loads named (-loops,
// -loads: comma-separated; "" keeps all), in their order. A name that
// names none is an error listing the names there are.
func narrowCells(cells []benchCell, loops, loads string) ([]benchCell, error) {
	var loopNames, loadNames []string
	for _, c := range cells {
		loop := c.loop()
		if !slices.Contains(loopNames, loop) {
			loopNames = append(loopNames, loop)
		}
		if !slices.Contains(loadNames, c.block) {
			loadNames = append(loadNames, c.block)
		}
	}
	pick := func(flag, list string, names []string) ([]string, error) {
		if list == "" {
			return names, nil
		}
		var out []string
		for _, n := range strings.Split(list, ",") {
			n = strings.TrimSpace(n)
			if !slices.Contains(names, n) {
				return nil, fmt.Errorf("-%s %q: the matrix has no %q; it has %s", flag, list, n, strings.Join(names, ", "))
			}
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
		return out, nil
	}
	keepLoops, err := pick("loops", loops, loopNames)
	if err != nil {
		return nil, err
	}
	keepLoads, err := pick("loads", loads, loadNames)
	if err != nil {
		return nil, err
	}
	var out []benchCell
	for _, c := range cells {
		if slices.Contains(keepLoops, c.loop()) && slices.Contains(keepLoads, c.block) {
			out = append(out, c)
		}
	}
	return out, nil
}

// checkLoads checks the loads a game declares for the matrix before its
// first run: a name for its cells, and flags a cell of the game takes.
func (p *Program) checkLoads(opts options, game engine.Info) error {
	var seen []string
	for i, l := range game.Loads {
		where := fmt.Sprintf("%s's Info.Loads[%d] (%q)", game.Name, i, l.Name)
		if l.Name == "" || strings.IndexFunc(l.Name, func(r rune) bool {
			return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) >= 0 {
			return fmt.Errorf("%s: name it with letters, digits and '_', e.g. horde", where)
		}
		if slices.Contains(seen, l.Name) {
			return fmt.Errorf("%s: two loads of that name: give each its own", where)
		}
		seen = append(seen, l.Name)
		for _, f := range l.Flags {
			name := strings.TrimLeft(strings.SplitN(f, "=", 2)[0], "-")
			if strings.HasPrefix(f, "-") && matrixOwn[name] && name != "sprites" {
				return fmt.Errorf("%s: %s is the matrix's to set: a load sets the game's own flags and the world's, e.g. -sprites 2000", where, f)
			}
		}
		args := slices.Clone(l.Flags)
		if opts.matrixScene != "" {
			args = append([]string{"-scene", opts.matrixScene}, args...)
		}
		if _, err := p.parseFlags("bench", args, io.Discard); err != nil {
			return fmt.Errorf("%s: flags %q: %w", where, l.Flags, err)
		}
	}
	return nil
}

// matrixCells are -matrix's runs: every loop at every sim cost, each of
// sprites (0: the game's own, no -sprites) and each of rendercosts (""
// for none), the loops of one load a block.
func matrixCells(sprites []int, rendercosts, simcosts []string) []benchCell {
	var cells []benchCell
	for _, cost := range simcosts {
		for _, n := range sprites {
			for _, rc := range rendercosts {
				for _, loop := range app.Loops {
					name := bench.CellName(string(loop), cost, n, rc, "")
					args := []string{"-loop", string(loop), "-simcost", cost}
					if n > 0 {
						args = append(args, "-sprites", fmt.Sprint(n))
					}
					if rc != "" {
						args = append(args, "-rendercost", rc)
					}
					cells = append(cells, benchCell{name, args, n, strings.TrimPrefix(name, "loop="+string(loop)+"/"), rc, ""})
				}
			}
		}
	}
	return cells
}

// matrixGame returns the game -matrix runs and its name.
func (p *Program) matrixGame(opts options) engine.Game {
	if opts.matrixScene != "" {
		for _, g := range p.Games {
			if g.Info().Name == opts.matrixScene {
				return g
			}
		}
	}
	return opts.Game
}

func (p *Program) matrixGameName(opts options) string { return p.matrixGame(opts).Info().Name }

// readsSprites reports whether the game -matrix runs reads -sprites: it
// sets the game up once, without a window (as replay -fast does), and asks
// (engine.SpritesReader). A game that cannot say is taken to read it.
func (p *Program) readsSprites(opts options) (bool, error) {
	o := opts.Options
	o.Game = p.matrixGame(opts)
	o.Info = o.Game.Info()
	if o.Info.Name != opts.Info.Name {
		o.World.LevelFile = "" // -level was for the other game
	}
	level, err := app.GameLevel(o)
	if err != nil {
		return false, err
	}
	sim, err := o.Game.NewSim(app.SimConfig(o, level, o.Window.Width, o.Window.Height))
	if err != nil {
		return false, fmt.Errorf("setting up %s: %w", o.Info.Name, err)
	}
	r, ok := sim.(engine.SpritesReader)
	return !ok || r.ReadsSprites(), nil
}

// cellInput is the -input each cell of a sweep runs with: -input as
// given, or for auto what auto means for the sweep itself (a cell, whose
// parent started the Xvfb, would otherwise see a display and think it in
// use): xtest on tandem's own Xvfb, synthetic on a display someone may be
// using. Where XTest turns out to be missing, a cell falls back to
// synthetic, and its input_source says so.
func cellInput(opts options) string {
	switch {
	case opts.input != "" && opts.input != "auto":
		return opts.input
	case needXvfb(opts):
		return "xtest"
	}
	return "synthetic"
}

// syntheticNotice is the line -matrix prints when its cells will press
// the synthetic button only because -input was left to auto on a display
// someone may be using (real key presses would go to their focused
// window): the input latencies then leave out the wait for the poll,
// which is what the threaded loop removes. "" otherwise.
func syntheticNotice(opts options) string {
	if cellInput(opts) != "synthetic" || (opts.input != "" && opts.input != "auto") {
		return ""
	}
	return "bench: -matrix on your display measures input with the synthetic button (real key presses would go to your focused window), " +
		"which leaves out the wait for the poll: for the loops' real input latency, run it with -input xtest, or with no DISPLAY (-headless) on tandem's own Xvfb"
}

// pacingModes and pacingCaps are -pacing's rows: each mode of choosing
// the moment at each -fps-cap (0: none), then the same on an emulated
// 60 Hz display with vsync, free-running and at 50 frames a second.
var (
	pacingModes = []benchCell{
		{name: "delay=auto", args: nil},
		{name: "delay=0", args: []string{"-interp-delay", "0"}},
		{name: "delay=2", args: []string{"-interp-delay", "2"}},
		{name: "hold", args: []string{"-present-hold"}},
		// The threaded loop paces as the decoupled loop does, from a
		// render thread of its own.
		{name: "threaded/delay=auto", args: []string{"-loop", string(app.Threaded)}},
	}
	pacingCaps  = []int{0, 30, 60, 144, 240}
	pacingVSync = []benchCell{
		{name: "vsync=60/delay=auto", args: []string{"-emulate-vsync", "60"}},
		{name: "vsync=60/delay=2", args: []string{"-emulate-vsync", "60", "-interp-delay", "2"}},
		{name: "vsync=60/cap=50/delay=auto", args: []string{"-emulate-vsync", "60", "-fps-cap", "50"}},
		{name: "vsync=60/cap=50/delay=2", args: []string{"-emulate-vsync", "60", "-fps-cap", "50", "-interp-delay", "2"}},
	}
)

// pacingOwn are the flags -pacing sets for each cell itself.
var pacingOwn = map[string]bool{
	"pacing": true, "reps": true, "reps-budget": true, "out": true, "json": true, "headless": true, "input": true, "loop": true, "scene": true,
	"sprites": true, "sprite-size": true, "interp-delay": true, "present-hold": true, "fps-cap": true,
	"emulate-vsync": true, "vsync": true, "order-seed": true,
}

// runPacing runs the frame-pacing comparison on the decoupled loop: every
// way of choosing the moment at every cap, and on an emulated vsync.
func (p *Program) runPacing(opts options, stdout, stderr io.Writer) int {
	return p.runSweep(opts, "-pacing", pacingCells(opts.World.Sprites), pacingOwn, func(w io.Writer, title string, rs []bench.Result, notes []string, _ *bench.Looks) error {
		return bench.WriteSweepMarkdown(w, title, rs, notes)
	}, nil, stdout, stderr)
}

// pacingCells are -pacing's runs, each on the decoupled loop with sprites.
func pacingCells(sprites int) []benchCell {
	var cells []benchCell
	for _, m := range pacingModes {
		for _, c := range pacingCaps {
			args := append([]string{"-fps-cap", fmt.Sprint(c)}, m.args...)
			if c == 0 {
				// Uncapped, the frame's work from one frame to the next
				// is all the pacing has: the machine's unevenness at
				// that work is the row's floor.
				args = append(args, "-host-floor")
			}
			name := fmt.Sprintf("%s/cap=%d", m.name, c)
			cells = append(cells, benchCell{name, args, sprites, name, "", ""})
		}
	}
	for _, v := range pacingVSync {
		cells = append(cells, benchCell{v.name, slices.Clone(v.args), sprites, v.name, "", ""})
	}
	for i := range cells {
		// A cell's own -loop, after this one, wins.
		cells[i].args = append([]string{"-loop", string(app.Decoupled), "-sprites", fmt.Sprint(sprites)}, cells[i].args...)
	}
	return cells
}

// writeSoundsCSV writes sounds.csv: a row a sound the run started, its
// tick, the instant it was aimed at and its start at the device (ns on
// the bench's clock).
func writeSoundsCSV(w io.Writer, rows []audio.Onset) error {
	b := []byte(audio.StartsHeader)
	for _, r := range rows {
		b = r.AppendCSV(b)
	}
	_, err := w.Write(b)
	return err
}
