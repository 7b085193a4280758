package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tandem-engine/tandem/internal/app"
	"github.com/tandem-engine/tandem/internal/engine"
)

// options are the flags of run, bench and replay: the loop's options and
// the command line's own.
type options struct {
	app.Options
	matrixScene string // the game -matrix runs; "" when there is only one
	json        bool
	headless    bool

	// Profiles.
	cpuprofile, memprofile, trace string
	pprofAddr                     string
	pprofAny                      bool

	// bench only.
	out     string
	matrix  bool
	pacing  bool
	ceiling bool // the bare quads instead of the game
	scaling bool // the game against -ceiling at each sprite count
	reps    int
	// repsAuto (-reps auto) adds reps until every comparison is decided or
	// repsBudget is spent.
	repsAuto   bool
	repsBudget time.Duration
	input      string // -input as given: auto, xtest or synthetic
	// orderSeed seeds a sweep's order of cells in each rep; 0: from the clock.
	orderSeed uint64
	// loops and loads (-loops, -loads) narrow -matrix to some of its loops
	// and loads, comma-separated; "" runs them all.
	loops, loads string

	// replay only.
	fast     bool // the sim alone, as fast as it steps
	verify   bool // exit 1 unless every checkpoint matches
	allowCut bool // -verify checks a cut file as far as it goes

	// set holds the flags given on the command line, by name, as given
	// (the matrix passes them on to each cell).
	set []string
}

// gameTable is what the flags say of the games: their names and infos,
// the games that take a level, and each one's default load.
type gameTable struct {
	names          []string
	infos          []engine.Info
	levelGames     []string
	spriteDefaults []string
}

func (p *Program) gameTable() (gameTable, error) {
	var g gameTable
	if len(p.Games) == 0 {
		return g, errors.New("no game to run")
	}
	for i, game := range p.Games {
		in := game.Info()
		if j := slices.Index(g.names, in.Name); j >= 0 {
			return g, fmt.Errorf("games %d and %d are both called %q: give each an Info with a Name of its own", j+1, i+1, in.Name)
		}
		g.names, g.infos = append(g.names, in.Name), append(g.infos, in)
		if in.Level != nil {
			g.levelGames = append(g.levelGames, in.Name)
		}
		g.spriteDefaults = append(g.spriteDefaults, fmt.Sprintf("%s %d", in.Name, in.Sprites))
	}
	return g, nil
}

// flagText holds the flags that parse into text first: what they say is
// checked and mapped onto the options after parsing. raw keeps each load
// knob as given, for the matrix to pass on (a Func flag's Value prints
// nothing).
type flagText struct {
	scene, interp, delay, loop, input string
	raw                               map[string][]string
}

// parseFlags parses the flags of sub ("run", "bench" or "replay") over
// the loop's defaults. A replay takes its world (scene, level, seed, rate,
// sprites, arena) from the recording, so it has none of the flags that
// set them. On -h it prints the flags to stderr and returns
// flag.ErrHelp; on a bad flag it returns one line naming the flag, the
// value and the form it wants.
func (p *Program) parseFlags(sub string, args []string, stderr io.Writer) (options, error) {
	o := options{Options: app.Defaults()}
	if sub == "bench" {
		o.Options = app.BenchDefaults()
	}
	g, err := p.gameTable()
	if err != nil {
		return o, err
	}
	t := flagText{scene: g.names[0], interp: "on", delay: "auto", loop: string(o.Loop), input: "auto", raw: map[string][]string{}}
	fs := flag.NewFlagSet(p.Name+" "+sub, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported in one line by the caller
	if sub == "replay" {
		o.replayFlags(fs)
	} else {
		o.worldFlags(fs, g, &t)
	}
	o.viewFlags(fs, &t)
	o.profileFlags(fs)
	o.loadFlags(fs, &t)
	if o.Measure.Bench {
		o.benchFlags(fs, &t)
	}
	if err := p.addGameFlags(fs); err != nil {
		return o, err
	}
	if err := p.parse(fs, sub, args, &o, stderr); err != nil {
		return o, err
	}
	return o, p.settle(&o, fs, g, t)
}

func (o *options) worldFlags(fs *flag.FlagSet, g gameTable, t *flagText) {
	if len(g.names) > 1 {
		fs.StringVar(&t.scene, "scene", g.names[0], "the game to run: "+orList(g.names))
	}
	if len(g.levelGames) > 0 {
		fs.StringVar(&o.World.LevelFile, "level", "", "level `file` ("+orList(g.levelGames)+"; default: its own level)")
	}
	fs.IntVar(&o.World.Sprites, "sprites", 0, "how much load the game makes (default: "+strings.Join(g.spriteDefaults, ", ")+")")
	fs.IntVar(&o.World.Hz, "hz", o.World.Hz, "simulation rate, ticks per second")
	fs.IntVar(&o.Window.Width, "width", o.Window.Width, "window width in screen coordinates")
	fs.IntVar(&o.Window.Height, "height", o.Window.Height, "window height in screen coordinates")
	fs.Uint64Var(&o.World.Seed, "seed", o.World.Seed, "random seed of the world")
	fs.BoolVar(&o.Autoplay, "autoplay", false, "play by itself, through the same timestamped input as the keys: the game's own autoplay (Setup.Autoplay) when it has one, else run right and jump")
	fs.StringVar(&o.Record, "record", "", "record every input event with the tick it was applied at, checkpoints and the final state hash to this `file` (replay plays it back)")
}

func (o *options) replayFlags(fs *flag.FlagSet) {
	fs.StringVar(&o.World.LevelFile, "level", "", "replay on this level `file` instead of the one the recording holds (a recording made before version 3 names its level: give it here unless it lies beside the recording)")
	fs.BoolVar(&o.fast, "fast", false, "run the sim alone, without a window, as fast as it steps")
	fs.BoolVar(&o.verify, "verify", false, "check every checkpoint and the final state hash; exit 1 on a mismatch, naming the first tick that differs, and on a file cut short or holding no checkpoint")
	fs.BoolVar(&o.allowCut, "allow-cut", false, "with -verify, check a file that was cut short as far as it goes instead of failing")
}

func (o *options) viewFlags(fs *flag.FlagSet, t *flagText) {
	fs.IntVar(&o.World.SpriteSize, "sprite-size", o.World.SpriteSize, "the size in px the game draws its load sprites at (the bunnymark's bunnies)")
	fs.StringVar(&t.loop, "loop", t.loop, "loop: decoupled (sim on its own thread), coupled (classic single-thread), pipelined (Bevy's: the sim runs the next frame's ticks while this frame draws) or threaded (decoupled, drawn on a render thread of its own: the main thread only takes input)")
	fs.StringVar(&t.interp, "interp", t.interp, "interpolation between the two newest snapshots: on, or off to draw the newest as it is")
	fs.BoolVar(&o.Window.VSync, "vsync", o.Window.VSync, "wait for vertical sync on swap")
	fs.Var(seconds{&o.Seconds}, "seconds", "quit after this many `seconds` (0: run until closed)")
	fs.StringVar(&o.Output.Screenshot, "screenshot", "", "write a PNG of the last frame to this `file` at exit")
	fs.BoolVar(&o.json, "json", false, "print one JSON summary line at exit")
	fs.Float64Var(&o.Pacing.Extrapolate, "extrapolate", o.Pacing.Extrapolate, "let a late frame extrapolate up to this fraction of a tick (0: never)")
	fs.BoolVar(&o.Window.HUD, "hud", false, "show the HUD at start (F3 toggles it; off by default so that measured runs draw only the scene)")
	fs.BoolVar(&o.Window.Fullscreen, "fullscreen", false, "start fullscreen (F11 toggles)")
	fs.BoolVar(&o.headless, "headless", false, "run on a private Xvfb even when a display exists (without DISPLAY this is automatic)")
	fs.StringVar(&o.Output.ShotDir, "screenshot-dir", o.Output.ShotDir, "where F12 writes its timestamped PNGs")
	fs.StringVar(&t.delay, "interp-delay", t.delay, "draw the world this many `ms` further in the past, so a sim tick that starts late still arrives in time; auto sizes it from how late snapshots arrive and aims each frame at its predicted present")
	fs.Float64Var(&o.Pacing.CatchUp, "catch-up", o.Pacing.CatchUp, "after a stall, let the picture run up to 1+F times as fast until it is back on schedule (0: jump)")
	fs.IntVar(&o.Pacing.FPSCap, "fps-cap", 0, "render at most this many frames a second, paced by sleeping to a deadline (0: no cap); without vsync in the decoupled loop each frame starts early enough to finish and holds its swap to its deadline, so the presents are evenly paced")
	fs.IntVar(&o.Pacing.EmulateHz, "emulate-vsync", 0, "emulate vsync on a display refreshing this many `Hz`, for a display that has none (Xvfb): each frame finishes its GL work and swaps at the next blank of that grid on the monotonic clock, and the frame pacing treats it as vsync; replaces -vsync (0: off)")
	fs.BoolVar(&o.Pacing.PresentHold, "present-hold", false, "without vsync, in the decoupled loop: finish each frame and hold its swap to a fixed lead after the moment it chose (the 75th percentile of recent frames' work; a late frame's lateness is let go 1 ms a frame), so the picture moves as much as the presents do; costs frame rate and latency")
	fs.BoolVar(&o.Audio.Mute, "mute", false, "play no sound (the summary's audio says muted)")
	fs.DurationVar(&o.Audio.Buffer, "audio-buffer", 0, "the sound device's buffer, a `duration` (e.g. 60ms), which sets how soon a sound is heard; 0: the default, the least of those measured on a 2-core machine (docs/sound.md); raise it where audio_underruns is above 0")
	fs.BoolVar(&o.Audio.AVLock, "av-lock", false, "raise the picture's delay to the sound device's latency, so that a tick's picture and its sound meet within a frame; costs input latency (docs/sound.md)")
	fs.BoolVar(&o.World.Spin, "spin", false, "draw the game's load sprites turning (the classic bunnymark keeps them upright)")
	fs.BoolVar(&o.Measure.Probe, "probe", o.Measure.Probe, "draw the probe: a magenta 8x8 px square at the top moving 240 px per second of sim time")
	fs.BoolVar(&o.Measure.ProbeShape, "probe-shape", false, "draw the probe as a game draws a shape and text: a keyed rectangle and a label published by the sim and blended between snapshots on the GPU, over a black band along the top (instead of -probe's quad)")
	fs.BoolVar(&o.Measure.ProbeCheck, "probe-check", false, "read the probe's pixels back on every 8th measured frame, before its swap, and report how far they are from where the frame's record puts it (probe_err_px_*)")
}

func (o *options) profileFlags(fs *flag.FlagSet) {
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile (pprof) of the run to `file`")
	fs.StringVar(&o.memprofile, "memprofile", "", "write an allocation profile (pprof, every allocation sampled) to `file` at exit")
	fs.StringVar(&o.trace, "trace", "", "write a runtime/trace of the run to `file`")
	fs.StringVar(&o.pprofAddr, "pprof", "", "serve net/http/pprof at this loopback `address` while the app runs, e.g. localhost:6060")
	fs.BoolVar(&o.pprofAny, "pprof-any-addr", false, "let -pprof listen on a non-loopback address (exposes the process to the network)")
}

// loadFlags are the bench's load knobs, which run takes too: they parse
// into typed values, and t.raw keeps each as given.
func (o *options) loadFlags(fs *flag.FlagSet, t *flagText) {
	knob := func(name, usage string, set func(string) error) {
		fs.Func(name, usage, func(s string) error {
			t.raw[name] = append(t.raw[name], s)
			return set(s)
		})
	}
	knob("simcost", "busy work inside every tick, a `duration` spun on the monotonic clock (e.g. 14ms)", func(s string) (err error) {
		o.Load.SimCost, err = parseCost(s)
		return err
	})
	knob("rendercost", "busy work inside every frame on the render thread, a `duration` (e.g. 5ms)", func(s string) (err error) {
		o.Load.RenderCost, err = parseCost(s)
		return err
	})
	knob("hitch", "a stall of a thread every so often, `WHO:EVERY:DURATION` (WHO sim or render; repeatable), e.g. sim:2s:120ms", func(s string) error {
		h, err := parseHitch(s)
		o.Load.Hitches = append(o.Load.Hitches, h)
		return err
	})
	knob("gcload", "a goroutine allocating and dropping garbage at this many `MB/s`", func(s string) (err error) {
		o.Load.GCLoad, err = parseRate(s)
		return err
	})
}

func (o *options) benchFlags(fs *flag.FlagSet, t *flagText) {
	fs.Var(seconds{&o.Measure.Warmup}, "warmup", "`seconds` run before measuring")
	fs.StringVar(&o.out, "out", "", "write report.json, report.md, bench.txt, charts and raw CSVs into this `directory`")
	fs.BoolVar(&o.matrix, "matrix", false, "run the standard comparison: every loop x simcost {0, 8ms, 14ms, 25ms} x sprites {1000, 5000}, 16 px")
	fs.BoolVar(&o.pacing, "pacing", false, "run the frame-pacing comparison on the decoupled loop (and the threaded loop's auto delay): -interp-delay auto, 0 and 2 and -present-hold, each at -fps-cap 0, 30, 60, 144 and 240, then -emulate-vsync 60 with and without -fps-cap 50 (auto and 2); the bench game, 16 px")
	fs.BoolVar(&o.ceiling, "ceiling", false, "draw the bench game's quads with nothing else instead of the game: -sprites quads of the bunnymark bunny's shape (26x37) drawn -sprite-size px tall, as the bench game draws its bunnies, moving as bunnies do, one draw a frame on the main thread, no sim, no interpolation (fps_mean, frame_ms_p50/p99): the machine's frame rate for the same fill, the engine's ceiling")
	fs.BoolVar(&o.scaling, "scaling", false, "the bench game against -ceiling at 1000, 5000, 20000, 50000 and 100000 sprites (or -sprites alone), 16 px, the two alternated, each run in a process of its own, -reps times (default 6): frame rates, the ratio and whether it holds 0.9, the sim's TPS")
	fs.Var(repsValue{o}, "reps", "with -matrix, -pacing or -scaling, run every cell this many `times` (default 5 with -matrix: the fewest at which Holm over the six pairs of four loops can call one behind; 6 with -scaling: the fewest whose interval for the median ratio reaches 95%; 1 with -pacing); auto, with -matrix: from that fewest, a rep at a time until every pair of loops on every figure is behind or level, or -reps-budget is spent; a run that other processes disturbed (10% of the machine or more) is run again; auto, with -scaling: each count from 7 reps until its 0.9 verdict is decided, 30 reps, or -reps-budget")
	fs.DurationVar(&o.repsBudget, "reps-budget", 30*time.Minute, "with -reps auto, the `time` it may take, waits for a quiet machine and runs again included (-matrix): past the first reps (the fewest that can decide), no rep is started that would end past it at the pace so far")
	fs.StringVar(&o.loops, "loops", "", "with -matrix, the `loops` it compares, comma-separated (e.g. decoupled,threaded); all four when not given")
	fs.StringVar(&o.loads, "loads", "", "with -matrix, the `loads` it runs, comma-separated, named as its plan names them (e.g. simcost=0s/sprites=own); all when not given")
	fs.Uint64Var(&o.orderSeed, "order-seed", 0, "with -matrix or -pacing, the `seed` of the random order each rep runs its cells in (the loops of one load next to each other); 0 draws one, which the report states")
	fs.StringVar(&t.input, "input", t.input, "the bench's input: xtest (a real key, F9, pressed and released through the X server, or SendInput on Windows, at random moments; input_latency_ms_* start at the press), synthetic (a button pushed into the queue every 250 ms, stamped when a frame polls; they start at the stamp), or auto: xtest on tandem's own Xvfb, synthetic on a display someone may be using (a key pressed there goes to whichever window has the focus); without XTest, synthetic")
	fs.BoolVar(&o.Audio.OnCall, "audio-on-call", false, "start each sound at the next buffer the sound device pulls, as engines that play on call do, instead of on its tick's sample: to compare the two through the whole loop (audio_timing says which; docs/sound.md)")
	fs.BoolVar(&o.Measure.HostFloor, "host-floor", false, "after the run, with the sim stopped, time two kinds of fixed work as long as the run's median frame, arithmetic and a walk through 4 MiB bound by the shared cache, up to 120 times each back to back, and report how much consecutive runs differ (host_floor_ms_p99, host_floor_cache_ms_p99): the machine's own unevenness, under which no frame pacing goes without slack; up to about 6 s more")
}

// parse parses args into fs: a replay's file may come before or after
// its flags; a stray true or false after a true/false flag is explained.
func (p *Program) parse(fs *flag.FlagSet, sub string, args []string, o *options, stderr io.Writer) error {
	isReplay := sub == "replay"
	explain := func(err error) error {
		return explainFlagError(benchFlagError(worldFlagError(err, isReplay), p.Name, sub))
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			file := ""
			if isReplay {
				file = " FILE\n\nFILE is the recording to play (made with run -record FILE)."
			}
			fmt.Fprintf(stderr, "usage: %s %s [flags]%s\n\n", p.Name, sub, file)
			fs.SetOutput(stderr)
			fs.PrintDefaults()
			return err
		}
		return explain(err)
	}
	if isReplay {
		if fs.NArg() == 0 {
			return fmt.Errorf("replay: name the recording, e.g. %s replay run.tdr", p.Name)
		}
		o.Replay.File = fs.Arg(0)
		// Flags may follow the file too.
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return explain(err)
		}
	}
	if fs.NArg() == 0 {
		return nil
	}
	a := fs.Arg(0)
	if i := len(args) - fs.NArg() - 1; (a == "true" || a == "false") && i >= 0 {
		if f := fs.Lookup(strings.TrimLeft(args[i], "-")); f != nil && isBool(f) {
			return fmt.Errorf("%s %s: write %s=%s (a true/false flag takes its value after =)", args[i], a, args[i], a)
		}
	}
	if i := len(args) - fs.NArg(); slices.Contains([]string{"run", "bench", "replay"}, a) {
		// A subcommand after flags: the flags were taken as run's, and
		// the subcommand as an argument.
		fixed := append(append([]string{p.Name, a}, args[:i]...), fs.Args()[1:]...)
		return fmt.Errorf("%q is a subcommand: it comes first, before any flag: %s", a, strings.Join(fixed, " "))
	}
	return fmt.Errorf("%s: unexpected argument %q (flags go before it? see %s %s -h)", sub, a, p.Name, sub)
}

// settle maps what the flags said onto the options (the game, the
// sprites' default, the text flags), records the flags given for the
// matrix, and checks them: the loop's one check, then the command line's
// own.
func (p *Program) settle(o *options, fs *flag.FlagSet, g gameTable, t flagText) error {
	if i := slices.Index(g.names, t.scene); i >= 0 {
		o.Game, o.Info, o.Scene = p.Games[i], g.infos[i], t.scene
	} else {
		return fmt.Errorf("-scene: %q is not a scene (use %s)", t.scene, orList(g.names))
	}
	isSet := map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		isSet[f.Name] = true
		vals, ok := t.raw[f.Name]
		if !ok {
			vals = []string{f.Value.String()}
		}
		for _, v := range vals {
			o.set = append(o.set, "-"+f.Name+"="+v)
		}
	})
	o.sweepDefaults(isSet, g)
	o.World.GameFlags = p.gameFlagValues()
	o.Pacing.Snap = t.interp == "off"
	o.input = t.input
	o.Measure.RealInput = o.Measure.Bench && (t.input == "xtest" || t.input == "auto" && needXvfb(*o))
	o.Loop = app.Loop(t.loop)
	if err := o.parseDelay(t.delay); err != nil {
		return err
	}
	switch {
	case t.interp != "on" && t.interp != "off":
		return fmt.Errorf("-interp %q: use on or off", t.interp)
	case t.input != "auto" && t.input != "xtest" && t.input != "synthetic":
		return fmt.Errorf("-input %q: use auto, xtest or synthetic", t.input)
	case o.World.LevelFile != "" && o.Info.Level == nil && o.Replay.File == "":
		return fmt.Errorf("-level is for %s: drop it, or add -scene %s", orList(g.levelGames), firstOr(g.levelGames, o.Scene))
	}
	if err := o.Validate(); err != nil {
		return err
	}
	switch {
	case o.Measure.Bench && (o.reps < 1 || o.reps > 100):
		return fmt.Errorf("-reps %d out of range (use 1 to 100, or auto)", o.reps)
	case isSet["reps-budget"] && !o.repsAuto:
		return errors.New("-reps-budget is for -reps auto: add -reps auto, or drop it")
	case (o.loops != "" || o.loads != "") && !o.matrix:
		return errors.New("-loops and -loads are for -matrix, whose cells they choose: add -matrix, or drop them")
	case o.repsAuto && !o.matrix && !o.scaling:
		return errors.New("-reps auto is for -matrix and -scaling, whose verdicts it runs reps for: give -pacing a number of reps, e.g. -reps 3")
	case o.repsAuto && (o.repsBudget < time.Minute || o.repsBudget > 48*time.Hour):
		return fmt.Errorf("-reps-budget %v out of range (use 1m to 48h, e.g. 30m)", o.repsBudget)
	case len(o.modes()) > 1:
		return fmt.Errorf("%s: run one, then the other", strings.Join(o.modes(), " and "))
	case o.ceiling && len(ceilingUnread(o.set)) > 0:
		unread, it := ceilingUnread(o.set), "it"
		if len(unread) > 1 {
			it = "them"
		}
		return fmt.Errorf("-ceiling draws the quads alone and does not read %s: drop %s (it reads -%s)", strings.Join(unread, ", "), it, strings.Join(ceilingReads[1:], ", -"))
	case o.pprofAddr != "":
		return checkPprofAddr(o.pprofAddr, o.pprofAny)
	}
	return nil
}

// modes are the bench's modes given: at most one may be.
func (o *options) modes() []string {
	var m []string
	for _, f := range []struct {
		on   bool
		name string
	}{{o.matrix, "-matrix"}, {o.pacing, "-pacing"}, {o.scaling, "-scaling"}, {o.ceiling, "-ceiling"}} {
		if f.on {
			m = append(m, f.name)
		}
	}
	return m
}

// sweepDefaults are the defaults that depend on what was set: the game's
// own load, and a sweep's sprite size and game.
func (o *options) sweepDefaults(isSet map[string]bool, g gameTable) {
	if !isSet["reps"] || o.repsAuto {
		o.reps = 1
		switch {
		case o.matrix:
			o.reps = matrixReps
		case o.scaling:
			o.reps = scalingReps
		}
	}
	if (o.matrix || o.pacing || o.scaling || o.ceiling) && !isSet["sprite-size"] {
		o.World.SpriteSize = 16
	}
	if !isSet["sprites"] {
		o.World.Sprites = o.Info.Sprites
	}
	if len(g.names) < 2 {
		return
	}
	o.matrixScene = o.Scene
	for i, in := range g.infos {
		if !isSet["scene"] && in.Bench {
			o.matrixScene = g.names[i]
			if (o.pacing || o.ceiling) && !isSet["sprites"] {
				o.World.Sprites = in.Sprites
			}
			break
		}
	}
}

// parseDelay maps -interp-delay: auto, or a fixed delay in ms, whose
// range Options.Validate checks, as it does Config's.
func (o *options) parseDelay(delay string) error {
	if delay == "auto" {
		o.Pacing.DelayAuto = true
		return nil
	}
	v, err := strconv.ParseFloat(delay, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("-interp-delay %q: want auto or a number of ms from 0 to 100, e.g. 2", delay)
	}
	o.Pacing.DelayAuto, o.Pacing.Delay = false, time.Duration(math.Round(v*1e6))
	return nil
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func firstOr(s []string, def string) string {
	if len(s) > 0 {
		return s[0]
	}
	return def
}

// addGameFlags adds the game's own flags (p.Flags) to fs, where a flag
// with an engine flag's name is an error naming it: the game's variable
// would silently never be set.
func (p *Program) addGameFlags(fs *flag.FlagSet) error {
	if p.Flags == nil {
		return nil
	}
	var err error
	p.Flags.VisitAll(func(f *flag.Flag) {
		if err != nil {
			return
		}
		if strings.HasPrefix(f.Name, "test.") {
			return // the testing package's, in a test binary
		}
		if fs.Lookup(f.Name) != nil {
			err = fmt.Errorf("the game's flag -%s is also one of %s's own: rename the game's", f.Name, p.Name)
			return
		}
		fs.Var(f.Value, f.Name, f.Usage)
	})
	return err
}

// gameFlagValues returns the game's own flags as NAME=VALUE, in name
// order: what a recording holds, for a replay to set them as they were.
func (p *Program) gameFlagValues() []string {
	if p.Flags == nil {
		return nil
	}
	var out []string
	p.Flags.VisitAll(func(f *flag.Flag) {
		if !strings.HasPrefix(f.Name, "test.") {
			out = append(out, f.Name+"="+f.Value.String())
		}
	})
	return out
}

// Options parses args as sub's flags ("run", "bench" or "replay") and
// returns the loop's options: for tests and tools that run the loop
// themselves.
func (p *Program) Options(sub string, args []string, stderr io.Writer) (app.Options, error) {
	o, err := p.parseFlags(sub, args, stderr)
	return o.Options, err
}
