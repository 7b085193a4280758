//go:build cgo

package tandem

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseHitch(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want hitch
		ok   bool
	}{
		{"sim:2s:120ms", hitch{"sim", 2 * time.Second, 120 * time.Millisecond}, true},
		{"render:500ms:40ms", hitch{"render", 500 * time.Millisecond, 40 * time.Millisecond}, true},
		{"sim:1s:1m", hitch{"sim", time.Second, time.Minute}, true},
		{"gpu:1s:1ms", hitch{}, false},
		{"sim:1s:2m", hitch{}, false},
		{"sim:-1s:1ms", hitch{}, false},
		{"sim:1s:0s", hitch{}, false},
		{"sim:1s", hitch{}, false},
		{"sim:1s:1ms:1ms", hitch{}, false},
		{"sim:abc:1ms", hitch{}, false},
		{"", hitch{}, false},
	} {
		got, err := parseHitch(tc.in)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("parseHitch(%q) = %+v, %v; want %+v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestParseCostAndRate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true}, {"14ms", 14 * time.Millisecond, true}, {"500us", 500 * time.Microsecond, true},
		{"1s", time.Second, true}, {"1.5ms", 1500 * time.Microsecond, true},
		{"-1ms", 0, false}, {"14", 0, false}, {"2s", 0, false}, {"abc", 0, false},
	} {
		got, err := parseCost(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseCost(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"0", 0, true}, {"200", 200, true}, {"0.5", 0.5, true}, {"10000", 10000, true},
		{"-5", 0, false}, {"abc", 0, false}, {"NaN", 0, false}, {"Inf", 0, false}, {"10001", 0, false},
	} {
		got, err := parseRate(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseRate(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestBenchDefaults(t *testing.T) {
	o, err := parseFlags("bench", []string{"-hitch", "sim:1s:40ms", "-hitch", "render:2s:10ms", "-simcost", "14ms"}, os.Stderr, testGames)
	if err != nil {
		t.Fatal(err)
	}
	if !o.bench || !o.probe || o.vsync || o.seconds != 5 || o.warmup != 1 || !o.interp || o.loop != loopDecoupled {
		t.Fatalf("bench defaults: %+v", o)
	}
	if len(o.hitches) != 2 || o.hitches[1].who != "render" || o.simcost != 14*time.Millisecond {
		t.Fatalf("knobs: %+v", o)
	}
	// The matrix passes every flag given on to its cells, each once.
	want := []string{"-hitch=sim:1s:40ms", "-hitch=render:2s:10ms", "-simcost=14ms"}
	for _, w := range want {
		if n := countOf(o.set, w); n != 1 {
			t.Errorf("%s appears %d times in %q", w, n, o.set)
		}
	}
	r, err := parseFlags("run", nil, os.Stderr, testGames)
	if err != nil {
		t.Fatal(err)
	}
	if r.bench || r.probe || !r.vsync || r.seconds != 0 || r.warmup != 0 {
		t.Fatalf("run defaults: %+v", r)
	}
	if _, err := parseFlags("run", []string{"-warmup", "1"}, os.Stderr, testGames); err == nil {
		t.Fatal("run accepted -warmup, a bench flag")
	}
}

func countOf(s []string, v string) int {
	n := 0
	for i := slices.Index(s, v); i >= 0; i = slices.Index(s, v) {
		n++
		s = s[i+1:]
	}
	return n
}

func TestGameNames(t *testing.T) {
	// Two games of one name cannot both be picked by -scene: refused.
	_, err := parseFlags("run", nil, os.Stderr, []Game{gameFunc(nil), gameFunc(nil)})
	if err == nil || !strings.Contains(err.Error(), `games 1 and 2 are both called "game"`) {
		t.Fatalf("two games called game: %v", err)
	}
	// An explicit -sprites 0 is 0, not the game's default.
	o, err := parseFlags("run", []string{"-scene", "dots", "-sprites", "0"}, os.Stderr, testGames)
	if err != nil || o.sprites != 0 {
		t.Fatalf("-sprites 0: %d, %v", o.sprites, err)
	}
	sim, err := newSim(o.game, simConfig(o, nil, 640, 360))
	if err != nil || sim.World().Entities() != 0 {
		t.Fatalf("dots with -sprites 0: %v", err)
	}
}

func TestPacingCells(t *testing.T) {
	// -pacing: the bench game at its own sprite count, 16 px; every mode
	// at every cap the issue names, then the emulated vsync, each cell
	// once, on the decoupled loop, its flags a valid bench command line.
	o, err := parseFlags("bench", []string{"-pacing", "-scene", "walker"}, os.Stderr, testGames)
	if err != nil {
		t.Fatal(err)
	}
	if o.spriteSize != 16 || o.matrixScene != "walker" {
		t.Fatalf("-pacing -scene walker: sprite size %d, scene %q", o.spriteSize, o.matrixScene)
	}
	o, err = parseFlags("bench", []string{"-pacing"}, os.Stderr, testGames)
	if err != nil {
		t.Fatal(err)
	}
	if o.matrixScene != "dots" || o.sprites != (&dots{}).Info().Sprites {
		t.Fatalf("-pacing: scene %q with %d sprites, want the bench game at its own count", o.matrixScene, o.sprites)
	}
	cells := pacingCells(o.sprites)
	names := map[string]bool{}
	for _, c := range cells {
		if names[c.name] {
			t.Errorf("%s twice", c.name)
		}
		names[c.name] = true
		co, err := parseFlags("bench", c.args, os.Stderr, testGames)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if co.loop != loopDecoupled || co.sprites != o.sprites {
			t.Errorf("%s: loop %s, %d sprites", c.name, co.loop, co.sprites)
		}
		// The uncapped rows measure the host's floor beside them.
		if uncapped := co.fpsCap == 0 && co.emulateHz == 0; co.hostFloor != uncapped {
			t.Errorf("%s: -host-floor %v, want it on the uncapped rows only", c.name, co.hostFloor)
		}
	}
	for _, mode := range []string{"delay=auto", "delay=0", "delay=2", "hold"} {
		for _, c := range []string{"0", "30", "60", "144", "240"} {
			if !names[mode+"/cap="+c] {
				t.Errorf("no %s/cap=%s", mode, c)
			}
		}
	}
	if !names["vsync=60/delay=auto"] || !names["vsync=60/cap=50/delay=2"] {
		t.Errorf("no emulated vsync: %v", names)
	}
}
