package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/tandem-engine/tandem/cmd/tandem/scene"
)

// options are the run subcommand's flags.
type options struct {
	scene       scene.Kind
	level       string
	sprites     int
	spriteSize  int
	loop        string
	hz          int
	vsync       bool
	seconds     float64
	screenshot  string
	json        bool
	width       int
	height      int
	seed        uint64
	extrapolate float64
	hud         bool
	fullscreen  bool
	shotDir     string
	autoplay    bool
	interpDelay float64
	spin        bool
	cpuprofile  string
	memprofile  string
	trace       string
}

// Loops.
const (
	loopDecoupled = "decoupled"
	loopCoupled   = "coupled"
)

func parseRunFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	var sceneName string
	fs := flag.NewFlagSet("tandem run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&sceneName, "scene", "platformer", "scene: platformer or bunnymark")
	fs.StringVar(&o.level, "level", "", "level `file` for the platformer (default: the demo level, built in)")
	fs.IntVar(&o.sprites, "sprites", 0, "bouncing bunnies for load (0 in the platformer; unset in the bunnymark: 5000)")
	fs.IntVar(&o.spriteSize, "sprite-size", 32, "bunny size in px (bunnymark)")
	fs.StringVar(&o.loop, "loop", loopDecoupled, "loop: decoupled (sim on its own thread) or coupled (classic single-thread)")
	fs.IntVar(&o.hz, "hz", 60, "simulation rate, ticks per second")
	fs.BoolVar(&o.vsync, "vsync", true, "wait for vertical sync on swap")
	fs.Float64Var(&o.seconds, "seconds", 0, "quit after this many seconds (0: run until closed)")
	fs.StringVar(&o.screenshot, "screenshot", "", "write a PNG of the last frame to this `file` at exit")
	fs.BoolVar(&o.json, "json", false, "print one JSON summary line at exit")
	fs.IntVar(&o.width, "width", 1280, "window width in screen coordinates")
	fs.IntVar(&o.height, "height", 720, "window height in screen coordinates")
	fs.Uint64Var(&o.seed, "seed", 1, "random seed of the world")
	fs.Float64Var(&o.extrapolate, "extrapolate", 0, "let a late frame extrapolate up to this fraction of a tick (0: never)")
	fs.BoolVar(&o.hud, "hud", false, "show the HUD at start (F3 toggles it; off by default so that measured runs draw only the scene)")
	fs.BoolVar(&o.fullscreen, "fullscreen", false, "start fullscreen (F11 toggles)")
	fs.StringVar(&o.shotDir, "screenshot-dir", ".", "where F12 writes its timestamped PNGs")
	fs.Float64Var(&o.interpDelay, "interp-delay", 2, "draw the world this many `ms` further in the past, so a sim tick that starts late still arrives in time")
	fs.BoolVar(&o.spin, "spin", false, "draw the bunnies turning (the classic bunnymark keeps them upright)")
	fs.BoolVar(&o.autoplay, "autoplay", false, "play by itself: run right and jump, through the same timestamped input as the keys")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile (pprof) of the run to `file`")
	fs.StringVar(&o.memprofile, "memprofile", "", "write an allocation profile (pprof, every allocation sampled) to `file` at exit")
	fs.StringVar(&o.trace, "trace", "", "write a runtime/trace of the run to `file`")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("run: unexpected argument %q (flags go before it? see tandem run -h)", fs.Arg(0))
	}
	k, err := scene.ParseKind(sceneName)
	if err != nil {
		return o, fmt.Errorf("-scene: %q is not a scene (use platformer or bunnymark)", sceneName)
	}
	o.scene = k
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if o.scene == scene.Bunnymark && !set["sprites"] {
		o.sprites = 5000
	}
	var bad []string
	check := func(ok bool, msg string, a ...any) {
		if !ok {
			bad = append(bad, fmt.Sprintf(msg, a...))
		}
	}
	check(o.sprites >= 0 && o.sprites <= 1_000_000, "-sprites %d out of range (use 0 to 1000000)", o.sprites)
	check(o.spriteSize >= 1 && o.spriteSize <= 512, "-sprite-size %d out of range (use 1 to 512)", o.spriteSize)
	check(o.loop == loopDecoupled || o.loop == loopCoupled, "-loop %q is not a loop (use decoupled or coupled)", o.loop)
	check(o.hz >= 1 && o.hz <= 1000, "-hz %d out of range (use 1 to 1000)", o.hz)
	check(o.seconds >= 0, "-seconds %v is negative (use 0 to run until closed)", o.seconds)
	check(o.width >= 64 && o.height >= 64 && o.width <= 16384 && o.height <= 16384,
		"-width %d -height %d out of range (use 64 to 16384)", o.width, o.height)
	check(o.interpDelay >= 0 && o.interpDelay <= 100, "-interp-delay %v out of range (use 0 to 100 ms)", o.interpDelay)
	check(o.extrapolate >= 0 && o.extrapolate <= 1, "-extrapolate %v out of range (use 0 to 1)", o.extrapolate)
	if len(bad) > 0 {
		return o, fmt.Errorf("%s", strings.Join(bad, "; "))
	}
	return o, nil
}
