package cli

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/app"
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/levels"
)

func TestParseHitch(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want app.Hitch
		ok   bool
	}{
		{"sim:2s:120ms", app.Hitch{Who: "sim", Every: 2 * time.Second, Duration: 120 * time.Millisecond}, true},
		{"render:500ms:40ms", app.Hitch{Who: "render", Every: 500 * time.Millisecond, Duration: 40 * time.Millisecond}, true},
		{"sim:1s:1m", app.Hitch{Who: "sim", Every: time.Second, Duration: time.Minute}, true},
		{"gpu:1s:1ms", app.Hitch{}, false},
		{"sim:1s:2m", app.Hitch{}, false},
		{"sim:-1s:1ms", app.Hitch{}, false},
		{"sim:1s:0s", app.Hitch{}, false},
		{"sim:1s", app.Hitch{}, false},
		{"sim:1s:1ms:1ms", app.Hitch{}, false},
		{"sim:abc:1ms", app.Hitch{}, false},
		{"", app.Hitch{}, false},
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
	o, err := testProgram.parseFlags("bench", []string{"-hitch", "sim:1s:40ms", "-hitch", "render:2s:10ms", "-simcost", "14ms"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if !o.Measure.Bench || !o.Measure.Probe || o.Window.VSync || o.Seconds != 5*time.Second || o.Measure.Warmup != time.Second || o.Pacing.Snap || o.Loop != app.Decoupled {
		t.Fatalf("bench defaults: %+v", o)
	}
	if len(o.Load.Hitches) != 2 || o.Load.Hitches[1].Who != "render" || o.Load.SimCost != 14*time.Millisecond {
		t.Fatalf("knobs: %+v", o)
	}
	// The matrix passes every flag given on to its cells, each once.
	want := []string{"-hitch=sim:1s:40ms", "-hitch=render:2s:10ms", "-simcost=14ms"}
	for _, w := range want {
		if n := countOf(o.set, w); n != 1 {
			t.Errorf("%s appears %d times in %q", w, n, o.set)
		}
	}
	r, err := testProgram.parseFlags("run", nil, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if r.Measure.Bench || r.Measure.Probe || !r.Window.VSync || r.Seconds != 0 || r.Measure.Warmup != 0 {
		t.Fatalf("run defaults: %+v", r)
	}
	if _, err := testProgram.parseFlags("run", []string{"-warmup", "1"}, os.Stderr); err == nil {
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
	_, err := (&Program{Games: []engine.Game{infoGame{engine.Info{Name: "game"}}, infoGame{engine.Info{Name: "game"}}}}).parseFlags("run", nil, os.Stderr)
	if err == nil || !strings.Contains(err.Error(), `games 1 and 2 are both called "game"`) {
		t.Fatalf("two games called game: %v", err)
	}
	// An explicit -sprites 0 is 0, not the game's default.
	o, err := testProgram.parseFlags("run", []string{"-scene", "dots", "-sprites", "0"}, os.Stderr)
	if err != nil || o.World.Sprites != 0 {
		t.Fatalf("-sprites 0: %d, %v", o.World.Sprites, err)
	}
	if cfg := app.SimConfig(o.Options, nil, 640, 360); cfg.Sprites != 0 {
		t.Fatalf("dots with -sprites 0 is set up with %d sprites", cfg.Sprites)
	}
}

func TestPacingCells(t *testing.T) {
	// -pacing: the bench game at its own sprite count, 16 px; every mode
	// at every cap the issue names, then the emulated vsync, each cell
	// once, on the decoupled loop, its flags a valid bench command line.
	o, err := testProgram.parseFlags("bench", []string{"-pacing", "-scene", "walker"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if o.World.SpriteSize != 16 || o.matrixScene != "walker" {
		t.Fatalf("-pacing -scene walker: sprite size %d, scene %q", o.World.SpriteSize, o.matrixScene)
	}
	o, err = testProgram.parseFlags("bench", []string{"-pacing"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if o.matrixScene != "dots" || o.World.Sprites != testProgram.Games[1].Info().Sprites {
		t.Fatalf("-pacing: scene %q with %d sprites, want the bench game at its own count", o.matrixScene, o.World.Sprites)
	}
	cells := pacingCells(o.World.Sprites)
	names := map[string]bool{}
	for _, c := range cells {
		if names[c.name] {
			t.Errorf("%s twice", c.name)
		}
		names[c.name] = true
		co, err := testProgram.parseFlags("bench", c.args, os.Stderr)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		want := app.Decoupled
		if strings.HasPrefix(c.name, "threaded/") {
			want = app.Threaded
		}
		if co.Loop != want || co.World.Sprites != o.World.Sprites {
			t.Errorf("%s: loop %s, %d sprites", c.name, co.Loop, co.World.Sprites)
		}
		// The uncapped rows measure the host's floor beside them.
		if uncapped := co.Pacing.FPSCap == 0 && co.Pacing.EmulateHz == 0; co.Measure.HostFloor != uncapped {
			t.Errorf("%s: -host-floor %v, want it on the uncapped rows only", c.name, co.Measure.HostFloor)
		}
	}
	for _, mode := range []string{"delay=auto", "delay=0", "delay=2", "hold", "threaded/delay=auto"} {
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

// infoGame is a game as the command line sees it before a run: its Info.
type infoGame struct{ info engine.Info }

func (g infoGame) Info() engine.Info { return g.info }
func (g infoGame) NewSim(engine.SimConfig) (engine.Sim, error) {
	return nil, errors.New("infoGame: not a game to run")
}

// testProgram has the root package's test games' names and defaults.
var testProgram = &Program{Name: "tandem", Games: []engine.Game{
	infoGame{engine.Info{Name: "walker", Level: levels.Demo}},
	infoGame{engine.Info{Name: "dots", Sprites: 100, Bench: true}},
}}
