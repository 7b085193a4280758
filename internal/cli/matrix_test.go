package cli

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/internal/engine"
)

// TestMatrixInputSource checks that -matrix's cells press real keys by
// default on tandem's own Xvfb: the parent resolves -input auto before it
// starts the server, and passes the answer to every cell, which would
// otherwise see the parent's DISPLAY and choose the synthetic button.
func TestMatrixInputSource(t *testing.T) {
	display, had := os.LookupEnv("DISPLAY")
	wayland, hadW := os.LookupEnv("WAYLAND_DISPLAY")
	t.Cleanup(func() {
		restoreEnv("DISPLAY", display, had)
		restoreEnv("WAYLAND_DISPLAY", wayland, hadW)
	})
	os.Unsetenv("WAYLAND_DISPLAY")
	for _, c := range []struct {
		display string
		args    []string
		want    string
	}{
		{"", []string{"-matrix"}, "xtest"},                            // no display: tandem's own Xvfb
		{":7", []string{"-matrix", "-headless"}, "xtest"},             // asked for its own Xvfb
		{":7", []string{"-matrix"}, "synthetic"},                      // someone's display: keys would go to their focused window
		{"", []string{"-matrix", "-input", "synthetic"}, "synthetic"}, // as given
		{":7", []string{"-matrix", "-input", "xtest"}, "xtest"},
	} {
		restoreEnv("DISPLAY", c.display, c.display != "")
		o, err := testProgram.parseFlags("bench", c.args, os.Stderr)
		if err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		input := cellInput(o)
		// Only auto on someone's display picks synthetic unasked, and only
		// then does -matrix say so, pointing at -input xtest.
		notice := syntheticNotice(o)
		if want := c.display != "" && !slices.Contains(c.args, "-headless") && !slices.Contains(c.args, "-input"); want != (notice != "") {
			t.Errorf("DISPLAY=%q %q: notice %q; want one: %v", c.display, c.args, notice, want)
		}
		if notice != "" && (!strings.Contains(notice, "synthetic") || !strings.Contains(notice, "-input xtest")) {
			t.Errorf("notice %q: want it to say synthetic and suggest -input xtest", notice)
		}
		// The cell's command line carries it, and the sweep's own -input
		// is not passed on a second time.
		var common []string
		for _, s := range o.set {
			if name := setName(s); !matrixOwn[name] {
				common = append(common, s)
			}
		}
		args := cellArgs(o, matrixCells(matrixSprites, []string{""}, matrixSimcosts)[0], "/tmp/cell", input, common)
		if i := slices.Index(args, "-input"); i < 0 || args[i+1] != c.want {
			t.Errorf("DISPLAY=%q %q: cell args %q, want -input %s", c.display, c.args, args, c.want)
		}
		if n := strings.Count(strings.Join(args, " "), "-input"); n != 1 {
			t.Errorf("%q: -input %d times in %q", c.args, n, args)
		}
		// And the cell, parsing that command line under the parent's
		// Xvfb (a DISPLAY set), presses real keys exactly when told to.
		os.Setenv("DISPLAY", ":99")
		co, err := testProgram.parseFlags("bench", args[1:], os.Stderr)
		if err != nil {
			t.Fatalf("cell %q: %v", args, err)
		}
		if co.Measure.RealInput != (c.want == "xtest") {
			t.Errorf("cell %q: real input %v, want %v", args, co.Measure.RealInput, c.want == "xtest")
		}
	}
}

func restoreEnv(k, v string, had bool) {
	if had {
		os.Setenv(k, v)
	} else {
		os.Unsetenv(k)
	}
}

// TestMatrixReps checks -matrix's default of 5 reps, enough for a
// difference to show beyond the noise.
func TestMatrixReps(t *testing.T) {
	for _, c := range []struct {
		args []string
		want int
	}{{[]string{"-matrix"}, 5}, {[]string{"-matrix", "-reps", "2"}, 2}, {[]string{"-pacing"}, 1}} {
		o, err := testProgram.parseFlags("bench", c.args, os.Stderr)
		if err != nil {
			t.Fatal(err)
		}
		if o.reps != c.want {
			t.Errorf("%q: %d reps, want %d", c.args, o.reps, c.want)
		}
	}
}

// spritesGame is a game whose set-up says whether it read -sprites.
type spritesGame struct {
	name  string
	reads bool
}

func (g spritesGame) Info() engine.Info { return engine.Info{Name: g.name, Sprites: 10, Bench: true} }
func (g spritesGame) NewSim(engine.SimConfig) (engine.Sim, error) {
	return spritesSim{reads: g.reads}, nil
}

// spritesSim is only asked whether its game read -sprites.
type spritesSim struct {
	engine.Sim
	reads bool
}

func (s spritesSim) ReadsSprites() bool { return s.reads }

// TestMatrixIgnoredAxis checks the matrix's cells: a game that reads
// -sprites gets the 1000 and 5000 cells; a game that ignores it gets its
// render axis from -rendercost at its own load, and a note saying why,
// not the 1000 and 5000 cells folded into two reps of one; both get a
// cell at the game's own load with no synthetic cost.
func TestMatrixIgnoredAxis(t *testing.T) {
	for _, reads := range []bool{true, false} {
		p := &Program{Name: "breakout", Games: []engine.Game{spritesGame{"breakout", reads}}}
		o, err := p.parseFlags("bench", []string{"-matrix"}, os.Stderr)
		if err != nil {
			t.Fatal(err)
		}
		cells, notes, err := p.matrixPlan(o)
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]bool{}
		sprites := map[int]bool{}
		render := map[string]bool{}
		own := 0
		for _, c := range cells {
			if names[c.name] {
				t.Errorf("reads %v: cell %s twice", reads, c.name)
			}
			names[c.name] = true
			sprites[c.sprites] = true
			render[c.rendercost] = true
			if c.sprites == 0 && c.rendercost == "" && strings.Contains(c.name, "simcost=0s") {
				own++
				if slices.Contains(c.args, "-sprites") || slices.Contains(c.args, "-rendercost") || c.args[slices.Index(c.args, "-simcost")+1] != "0s" {
					t.Errorf("the own-load cell %s: args %q, want no -sprites, no cost", c.name, c.args)
				}
			}
		}
		if own != 4 {
			t.Errorf("reads %v: %d cells at the game's own load, want one per loop", reads, own)
		}
		if reads {
			if len(cells) != 36 || len(sprites) != 3 || len(render) != 1 || len(notes) != 0 {
				t.Errorf("a game that reads -sprites: %d cells, sprites %v, notes %q; want 32 over 1000 and 5000 and 4 of its own, no note", len(cells), sprites, notes)
			}
			continue
		}
		if len(cells) != 32 || !sprites[0] || len(sprites) != 1 || !render["8ms"] || !names["loop=threaded/simcost=14ms/sprites=own/rendercost=8ms"] {
			t.Errorf("a game that ignores -sprites: %d cells, sprites %v, rendercosts %v; want 32 at its own load over -rendercost 0 and 8ms", len(cells), sprites, render)
		}
		if len(notes) != 1 || !strings.Contains(notes[0], "sprites: ignored") || !strings.Contains(notes[0], "breakout") || !strings.Contains(notes[0], "-rendercost (8ms)") {
			t.Errorf("notes %q: want one saying breakout ignores sprites, its render axis -rendercost", notes)
		}
	}
}

// loadsGame is a game that declares loads of its own for the matrix.
type loadsGame struct {
	spritesGame
	loads []engine.MatrixLoad
}

func (g loadsGame) Info() engine.Info {
	in := g.spritesGame.Info()
	in.Loads = g.loads
	return in
}

// TestMatrixGameLoads checks that a load a game declares is a cell of
// its own for every loop, with its flags and no cost, judged under its
// name; and that a load the matrix cannot run is refused before the
// first run, naming the game, the load and the fix.
func TestMatrixGameLoads(t *testing.T) {
	game := func(loads ...engine.MatrixLoad) *Program {
		return &Program{Name: "breakout", Games: []engine.Game{loadsGame{spritesGame{"breakout", false}, loads}}}
	}
	p := game(engine.MatrixLoad{Name: "crowd", Flags: []string{"-sprites", "3000"}})
	o, err := p.parseFlags("bench", []string{"-matrix"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	cells, _, err := p.matrixPlan(o)
	if err != nil {
		t.Fatal(err)
	}
	var got []benchCell
	for _, c := range cells {
		if c.load == "crowd" {
			got = append(got, c)
		}
	}
	if len(got) != 4 || got[0].name != "loop=coupled/simcost=0s/sprites=own/load=crowd" ||
		!slices.Equal(got[0].args, []string{"-loop", "coupled", "-simcost", "0s", "-sprites", "3000"}) || got[0].block != got[3].block {
		t.Errorf("the crowd load's cells: %+v; want one per loop, one block, with its flags", got)
	}
	r, ok := bench.ParseCellDir(bench.CellDir(got[0].name, 3))
	if !ok || r.Knobs != "crowd" || r.Rep != 3 || r.Sprites != 0 || r.Name != got[0].name {
		t.Errorf("the cell's directory reads back as %+v, %v", r, ok)
	}
	for _, c := range []struct {
		load engine.MatrixLoad
		want string
	}{
		{engine.MatrixLoad{Name: "two words"}, `breakout's Info.Loads[0] ("two words"): name it with letters, digits and '_'`},
		{engine.MatrixLoad{Name: "x", Flags: []string{"-loop", "coupled"}}, `breakout's Info.Loads[0] ("x"): -loop is the matrix's to set`},
		{engine.MatrixLoad{Name: "x", Flags: []string{"-enemies", "4"}}, `breakout's Info.Loads[0] ("x"): flags ["-enemies" "4"]: flag provided but not defined: -enemies`},
	} {
		p := game(c.load)
		o, err := p.parseFlags("bench", []string{"-matrix"}, os.Stderr)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := p.matrixPlan(o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("load %+v: %v, want %q", c.load, err, c.want)
		}
	}
}

// TestMatrixCellLink checks that a cell's directory in a -out folder from
// someone else's archive, planted as a symlink to another directory, is
// replaced by a directory of its own before the cell runs, its target
// untouched; and that a file at a cell's name is refused, naming it, and
// left as it is. The cell is a script that writes its report.md where
// -out says, as a cell's process does.
func TestMatrixCellLink(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	cell := filepath.Join(t.TempDir(), "cell.sh")
	script := "#!/bin/sh\nwhile [ \"$1\" != -out ]; do shift; done\nmkdir -p \"$2\" && echo cell > \"$2/report.md\"\nexit 1\n"
	if err := os.WriteFile(cell, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	o, err := testProgram.parseFlags("bench", []string{"-matrix", "-reps", "1"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	cells := matrixCells(matrixSprites, []string{""}, matrixSimcosts)[:1]
	name := strings.ReplaceAll(cells[0].name, "/", "-") + "-rep0"

	out, elsewhere := t.TempDir(), t.TempDir()
	victim := filepath.Join(elsewhere, "report.md")
	if err := os.WriteFile(victim, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(out, "cells"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(out, "cells", name)
	if err := os.Symlink(elsewhere, link); err != nil {
		t.Fatal(err)
	}
	sw := sweep{self: cell, dir: out, input: "synthetic", stop: &sweepStop{}}
	if _, _, _, err := sw.run(o, cells, newRepPlan(o, cells), io.Discard, io.Discard); err == nil {
		t.Fatal("the cell's script exits 1: want an error")
	}
	if b, _ := os.ReadFile(victim); string(b) != "mine" {
		t.Errorf("the link's target was written: %q", b)
	}
	if fi, err := os.Lstat(link); err != nil {
		t.Error(err)
	} else if !fi.IsDir() {
		t.Errorf("the cell's directory is %v; want a directory in the link's place", fi.Mode())
	}
	if b, _ := os.ReadFile(filepath.Join(link, "report.md")); string(b) != "cell\n" {
		t.Errorf("the cell's report.md holds %q", b)
	}

	// A file at the cell's name: refused, named, kept.
	out = t.TempDir()
	if err := os.MkdirAll(filepath.Join(out, "cells"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(out, "cells", name)
	if err := os.WriteFile(file, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	sw.dir = out
	_, _, _, err = sw.run(o, cells, newRepPlan(o, cells), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), file+" is a file") {
		t.Errorf("a file at the cell's name: %v; want it refused by name", err)
	}
	if b, _ := os.ReadFile(file); string(b) != "mine" {
		t.Errorf("the file at the cell's name holds %q", b)
	}
}

// TestMatrixNarrow checks -loops and -loads: the matrix keeps the cells
// of the loops and loads named, in its order; a name it has not is an
// error listing those it has; and neither flag goes without -matrix.
func TestMatrixNarrow(t *testing.T) {
	p := &Program{Name: "breakout", Games: []engine.Game{spritesGame{"breakout", true}}}
	o, err := p.parseFlags("bench", []string{"-matrix", "-loops", "threaded,decoupled", "-loads", "simcost=0s/sprites=own"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	cells, _, err := p.matrixPlan(o)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cells {
		names = append(names, c.name)
	}
	want := []string{"loop=decoupled/simcost=0s/sprites=own", "loop=threaded/simcost=0s/sprites=own"}
	if !slices.Equal(names, want) {
		t.Errorf("-loops threaded,decoupled -loads simcost=0s/sprites=own: cells %q, want %q", names, want)
	}
	for _, args := range [][]string{{"-matrix", "-loops", "fast"}, {"-matrix", "-loads", "simcost=1s/sprites=own"}} {
		o, err := p.parseFlags("bench", args, os.Stderr)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := p.matrixPlan(o); err == nil || !strings.Contains(err.Error(), "it has") {
			t.Errorf("%q: error %v, want one naming what the matrix has", args, err)
		}
	}
	if _, err := p.parseFlags("bench", []string{"-loops", "threaded"}, os.Stderr); err == nil || !strings.Contains(err.Error(), "-matrix") {
		t.Errorf("-loops without -matrix: error %v, want one asking for -matrix", err)
	}
}
