package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"regexp"
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
	out    string
	matrix bool
	pacing bool
	reps   int

	// replay only.
	fast     bool // the sim alone, as fast as it steps
	verify   bool // exit 1 unless every checkpoint matches
	allowCut bool // -verify checks a cut file as far as it goes

	// set holds the flags given on the command line, by name, as given
	// (the matrix passes them on to each cell).
	set []string
}

// parseHitch parses WHO:EVERY:DURATION.
func parseHitch(s string) (app.Hitch, error) {
	const form = "want WHO:EVERY:DURATION with WHO sim or render, e.g. sim:2s:120ms"
	p := strings.Split(s, ":")
	if len(p) != 3 {
		return app.Hitch{}, errors.New(form)
	}
	h := app.Hitch{Who: p[0]}
	if h.Who != "sim" && h.Who != "render" {
		return app.Hitch{}, fmt.Errorf("%q is not a thread: %s", h.Who, form)
	}
	var err error
	if h.Every, err = time.ParseDuration(p[1]); err != nil || h.Every <= 0 {
		return app.Hitch{}, fmt.Errorf("every %q: want a positive duration: %s", p[1], form)
	}
	if h.Duration, err = time.ParseDuration(p[2]); err != nil || h.Duration <= 0 || h.Duration > time.Minute {
		return app.Hitch{}, fmt.Errorf("duration %q: want a positive duration up to 1m: %s", p[2], form)
	}
	return h, nil
}

// parseCost parses a busy-work duration: 0 to 1 s.
func parseCost(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 || d > time.Second {
		return 0, errors.New("want a duration from 0 to 1s, e.g. 14ms or 500us")
	}
	return d, nil
}

// parseRate parses -gcload: megabytes a second, 0 to 10000.
func parseRate(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v >= 0 && v <= 10_000) {
		return 0, errors.New("want megabytes a second from 0 to 10000, e.g. 200")
	}
	return v, nil
}

// flagForms says what each flag that takes a number wants, for errors.
var flagForms = map[string]string{
	"seconds":       "a number of seconds, e.g. 10 or 2.5",
	"warmup":        "a number of seconds, e.g. 1 or 0.5",
	"extrapolate":   "a fraction of a tick from 0 to 1, e.g. 0.5",
	"catch-up":      "a fraction from 0 to 4, e.g. 0.25",
	"hz":            "a whole number of ticks a second, e.g. 60",
	"sprites":       "a whole number of sprites, e.g. 5000",
	"sprite-size":   "a whole number of px, e.g. 16",
	"width":         "a whole number of px, e.g. 1280",
	"height":        "a whole number of px, e.g. 720",
	"seed":          "a whole number, e.g. 1",
	"fps-cap":       "a whole number of frames a second, e.g. 144",
	"emulate-vsync": "a whole number of blanks a second, e.g. 60",
	"reps":          "a whole number, e.g. 3",
}

// flagValueError matches the flag package's error for a value it cannot
// parse.
var flagValueError = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-([\w-]+): (parse error|value out of range)$`)

// explainFlagError rewrites the flag package's "invalid value ... parse
// error" into one line naming the flag, the value and the form wanted.
func explainFlagError(err error) error {
	m := flagValueError.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	val, name := m[1], m[2]
	if form, ok := flagForms[name]; ok {
		return fmt.Errorf("-%s %s: want %s", name, val, form)
	}
	if strings.HasPrefix(err.Error(), "invalid boolean value") {
		return fmt.Errorf("-%s=%s: want true or false, e.g. -%s=false", name, val, name)
	}
	return err
}

// worldFlags are the flags that build the world: a replay takes them from
// its recording.
var worldFlags = []string{"scene", "sprites", "hz", "width", "height", "seed", "autoplay", "record"}

// worldFlagError explains a world flag given to replay.
func worldFlagError(err error, isReplay bool) error {
	if !isReplay {
		return err
	}
	for _, f := range worldFlags {
		for _, form := range []string{"-" + f, "--" + f} {
			if strings.HasPrefix(err.Error(), "flag provided but not defined: "+form) {
				return fmt.Errorf("%s: a replay takes its world (scene, sprites, rate, seed, size) from the recording, and plays its input; drop %s", form, form)
			}
		}
	}
	return err
}

// benchFlags are the flags only tandem bench has.
var benchFlags = []string{"warmup", "out", "matrix", "pacing", "reps", "host-floor", "input"}

// benchFlagError explains a bench flag given to run or replay.
func benchFlagError(err error, prog, sub string) error {
	if sub == "bench" {
		return err
	}
	for _, f := range benchFlags {
		for _, form := range []string{"-" + f, "--" + f} {
			if err.Error() == "flag provided but not defined: "+form {
				return fmt.Errorf("%s is a flag of %s bench, which measures a run: use %s bench %s", form, prog, prog, form)
			}
		}
	}
	return err
}

// isBool reports whether f is a true/false flag.
func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// parseFlags parses the flags of sub ("run", "bench" or "replay"). A
// replay takes its world (scene, level, seed, rate, sprites, arena) from
// the recording, so it has none of the flags that set them. On -h it prints
// the flags to stderr and returns flag.ErrHelp; on a bad flag it returns
// one line naming the flag, the value and the form it wants.
func (p *Program) parseFlags(sub string, args []string, stderr io.Writer) (options, error) {
	games := p.Games
	o := options{}
	o.Measure.Bench = sub == "bench"
	o.World.Hz, o.World.Seed, o.Window.Width, o.Window.Height = 60, 1, 1280, 720
	isReplay := sub == "replay"
	if len(games) == 0 {
		return o, errors.New("no game to run")
	}
	names, infos := make([]string, len(games)), make([]engine.Info, len(games))
	var levelGames, spriteDefaults []string
	for i, g := range games {
		in := g.Info()
		infos[i] = in
		if j := slices.Index(names[:i], in.Name); j >= 0 {
			return o, fmt.Errorf("games %d and %d are both called %q: give each an Info with a Name of its own", j+1, i+1, in.Name)
		}
		names[i] = in.Name
		if in.Level != nil {
			levelGames = append(levelGames, in.Name)
		}
		spriteDefaults = append(spriteDefaults, fmt.Sprintf("%s %d", in.Name, in.Sprites))
	}
	sceneName, interp, delay, loop, input := names[0], "", "", "", "synthetic"
	fs := flag.NewFlagSet(p.Name+" "+sub, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported in one line by the caller
	if !isReplay {
		if len(games) > 1 {
			fs.StringVar(&sceneName, "scene", names[0], "the game to run: "+orList(names))
		}
		if len(levelGames) > 0 {
			fs.StringVar(&o.World.LevelFile, "level", "", "level `file` ("+orList(levelGames)+"; default: its own level)")
		}
		fs.IntVar(&o.World.Sprites, "sprites", 0, "how much load the game makes (default: "+strings.Join(spriteDefaults, ", ")+")")
		fs.IntVar(&o.World.Hz, "hz", 60, "simulation rate, ticks per second")
		fs.IntVar(&o.Window.Width, "width", 1280, "window width in screen coordinates")
		fs.IntVar(&o.Window.Height, "height", 720, "window height in screen coordinates")
		fs.Uint64Var(&o.World.Seed, "seed", 1, "random seed of the world")
		fs.BoolVar(&o.Autoplay, "autoplay", false, "play by itself: run right and jump, through the same timestamped input as the keys")
		fs.StringVar(&o.Record, "record", "", "record every input event with the tick it was applied at, checkpoints and the final state hash to this `file` (replay plays it back)")
	} else {
		fs.StringVar(&o.World.LevelFile, "level", "", "the level `file` the recording was made on, when it is not where the recording says")
		fs.BoolVar(&o.fast, "fast", false, "run the sim alone, without a window, as fast as it steps")
		fs.BoolVar(&o.verify, "verify", false, "check every checkpoint and the final state hash; exit 1 on a mismatch, naming the first tick that differs, and on a file cut short or holding no checkpoint")
		fs.BoolVar(&o.allowCut, "allow-cut", false, "with -verify, check a file that was cut short as far as it goes instead of failing")
	}
	fs.IntVar(&o.World.SpriteSize, "sprite-size", 32, "the size in px the game draws its load sprites at (the bunnymark's bunnies)")
	fs.StringVar(&loop, "loop", string(app.Decoupled), "loop: decoupled (sim on its own thread), coupled (classic single-thread), pipelined (Bevy's: the sim runs the next frame's ticks while this frame draws) or threaded (decoupled, drawn on a render thread of its own: the main thread only takes input)")
	fs.StringVar(&interp, "interp", "on", "interpolation between the two newest snapshots: on, or off to draw the newest as it is")
	fs.BoolVar(&o.Window.VSync, "vsync", !o.Measure.Bench, "wait for vertical sync on swap")
	fs.Float64Var(&o.Seconds, "seconds", 0, "quit after this many seconds (0: run until closed)")
	fs.StringVar(&o.Output.Screenshot, "screenshot", "", "write a PNG of the last frame to this `file` at exit")
	fs.BoolVar(&o.json, "json", false, "print one JSON summary line at exit")
	fs.Float64Var(&o.Pacing.Extrapolate, "extrapolate", 0, "let a late frame extrapolate up to this fraction of a tick (0: never)")
	fs.BoolVar(&o.Window.HUD, "hud", false, "show the HUD at start (F3 toggles it; off by default so that measured runs draw only the scene)")
	fs.BoolVar(&o.Window.Fullscreen, "fullscreen", false, "start fullscreen (F11 toggles)")
	fs.BoolVar(&o.headless, "headless", false, "run on a private Xvfb even when a display exists (without DISPLAY this is automatic)")
	fs.StringVar(&o.Output.ShotDir, "screenshot-dir", ".", "where F12 writes its timestamped PNGs")
	fs.StringVar(&delay, "interp-delay", "auto", "draw the world this many `ms` further in the past, so a sim tick that starts late still arrives in time; auto sizes it from how late snapshots arrive and aims each frame at its predicted present")
	fs.Float64Var(&o.Pacing.CatchUp, "catch-up", 0.25, "after a stall, let the picture run up to 1+F times as fast until it is back on schedule (0: jump)")
	fs.IntVar(&o.Pacing.FPSCap, "fps-cap", 0, "render at most this many frames a second, paced by sleeping to a deadline (0: no cap); without vsync in the decoupled loop each frame starts early enough to finish and holds its swap to its deadline, so the presents are evenly paced")
	fs.IntVar(&o.Pacing.EmulateHz, "emulate-vsync", 0, "emulate vsync on a display refreshing this many `Hz`, for a display that has none (Xvfb): each frame finishes its GL work and swaps at the next blank of that grid on the monotonic clock, and the frame pacing treats it as vsync; replaces -vsync (0: off)")
	fs.BoolVar(&o.Pacing.PresentHold, "present-hold", false, "without vsync, in the decoupled loop: finish each frame and hold its swap to a fixed lead after the moment it chose (the 75th percentile of recent frames' work; a late frame's lateness is let go 1 ms a frame), so the picture moves as much as the presents do; costs frame rate and latency")
	fs.BoolVar(&o.World.Spin, "spin", false, "draw the game's load sprites turning (the classic bunnymark keeps them upright)")
	fs.BoolVar(&o.Measure.Probe, "probe", o.Measure.Bench, "draw the probe: a magenta 8x8 px square at the top moving 240 px per second of sim time")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile (pprof) of the run to `file`")
	fs.StringVar(&o.memprofile, "memprofile", "", "write an allocation profile (pprof, every allocation sampled) to `file` at exit")
	fs.StringVar(&o.trace, "trace", "", "write a runtime/trace of the run to `file`")
	fs.StringVar(&o.pprofAddr, "pprof", "", "serve net/http/pprof at this loopback `address` while the app runs, e.g. localhost:6060")
	fs.BoolVar(&o.pprofAny, "pprof-any-addr", false, "let -pprof listen on a non-loopback address (exposes the process to the network)")
	// The knobs parse into typed values; raw keeps each as given, for the
	// matrix to pass on (a Func flag's Value prints nothing).
	raw := map[string][]string{}
	knob := func(name, usage string, set func(string) error) {
		fs.Func(name, usage, func(s string) error {
			raw[name] = append(raw[name], s)
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
	if o.Measure.Bench {
		fs.Float64Var(&o.Measure.Warmup, "warmup", 1, "seconds run before measuring")
		fs.StringVar(&o.out, "out", "", "write report.json, report.md, bench.txt, charts and raw CSVs into this `directory`")
		fs.BoolVar(&o.matrix, "matrix", false, "run the standard comparison: every loop x simcost {0, 8ms, 14ms, 25ms} x sprites {1000, 5000}, 16 px")
		fs.BoolVar(&o.pacing, "pacing", false, "run the frame-pacing comparison on the decoupled loop (and the threaded loop's auto delay): -interp-delay auto, 0 and 2 and -present-hold, each at -fps-cap 0, 30, 60, 144 and 240, then -emulate-vsync 60 with and without -fps-cap 50 (auto and 2); the bench game, 16 px")
		fs.IntVar(&o.reps, "reps", 1, "with -matrix or -pacing, run every cell this many times")
		fs.StringVar(&input, "input", "auto", "the bench's input: xtest (a real key, F9, pressed and released through the X server, or SendInput on Windows, at random moments; input_latency_ms_* start at the press), synthetic (a button pushed into the queue every 250 ms, stamped when a frame polls; they start at the stamp), or auto: xtest on tandem's own Xvfb, synthetic on a display someone may be using (a key pressed there goes to whichever window has the focus); without XTest, synthetic")
		fs.BoolVar(&o.Measure.HostFloor, "host-floor", false, "after the run, with the sim stopped, time two kinds of fixed work as long as the run's median frame, arithmetic and a walk through 4 MiB bound by the shared cache, up to 120 times each back to back, and report how much consecutive runs differ (host_floor_ms_p99, host_floor_cache_ms_p99): the machine's own unevenness, under which no frame pacing goes without slack; up to about 6 s more")
		o.Seconds = 5
		fs.Lookup("seconds").DefValue = "5"
	}
	if err := p.addGameFlags(fs); err != nil {
		return o, err
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
			return o, err
		}
		return o, explainFlagError(benchFlagError(worldFlagError(err, isReplay), p.Name, sub))
	}
	if isReplay {
		if fs.NArg() == 0 {
			return o, fmt.Errorf("replay: name the recording, e.g. %s replay run.tdr", p.Name)
		}
		o.Replay.File = fs.Arg(0)
		// Flags may follow the file too.
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return o, explainFlagError(benchFlagError(worldFlagError(err, isReplay), p.Name, sub))
		}
	}
	if fs.NArg() > 0 {
		a := fs.Arg(0)
		if i := len(args) - fs.NArg() - 1; (a == "true" || a == "false") && i >= 0 {
			if f := fs.Lookup(strings.TrimLeft(args[i], "-")); f != nil && isBool(f) {
				return o, fmt.Errorf("%s %s: write %s=%s (a true/false flag takes its value after =)", args[i], a, args[i], a)
			}
		}
		return o, fmt.Errorf("%s: unexpected argument %q (flags go before it? see %s %s -h)", sub, a, p.Name, sub)
	}
	for i, n := range names {
		if n == sceneName {
			o.Game, o.Info, o.Scene = games[i], infos[i], n
		}
	}
	if o.Game == nil {
		return o, fmt.Errorf("-scene: %q is not a scene (use %s)", sceneName, orList(names))
	}
	isSet := map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		isSet[f.Name] = true
		vals, ok := raw[f.Name]
		if !ok {
			vals = []string{f.Value.String()}
		}
		for _, v := range vals {
			o.set = append(o.set, "-"+f.Name+"="+v)
		}
	})
	if (o.matrix || o.pacing) && !isSet["sprite-size"] {
		o.World.SpriteSize = 16
	}
	if !isSet["sprites"] {
		o.World.Sprites = o.Info.Sprites
	}
	if len(games) > 1 {
		o.matrixScene = o.Scene
		for i, in := range infos {
			if !isSet["scene"] && in.Bench {
				o.matrixScene = names[i]
				if o.pacing && !isSet["sprites"] {
					o.World.Sprites = in.Sprites
				}
				break
			}
		}
	}
	o.Pacing.Interp = interp == "on"
	o.Measure.RealInput = input == "xtest" || input == "auto" && needXvfb(o)
	o.Loop = app.Loop(loop)
	if delay == "auto" {
		o.Pacing.DelayAuto = true
	} else if v, err := strconv.ParseFloat(delay, 64); err == nil && v >= 0 && v <= 100 {
		o.Pacing.InterpDelayMs = v
	} else {
		return o, fmt.Errorf("-interp-delay %q: want auto or a number of ms from 0 to 100, e.g. 2", delay)
	}
	var bad []string
	check := func(ok bool, msg string, a ...any) {
		if !ok {
			bad = append(bad, fmt.Sprintf(msg, a...))
		}
	}
	check(o.World.Sprites >= 0 && o.World.Sprites <= 1_000_000, "-sprites %d out of range (use 0 to 1000000)", o.World.Sprites)
	check(o.World.SpriteSize >= 1 && o.World.SpriteSize <= 512, "-sprite-size %d out of range (use 1 to 512)", o.World.SpriteSize)
	check(slices.Contains(app.Loops, o.Loop),
		"-loop %q is not a loop (use decoupled, coupled, pipelined or threaded)", o.Loop)
	check(interp == "on" || interp == "off", "-interp %q: use on or off", interp)
	check(input == "auto" || input == "xtest" || input == "synthetic", "-input %q: use auto, xtest or synthetic", input)
	check(o.World.Hz >= 1 && o.World.Hz <= 1000, "-hz %d out of range (use 1 to 1000)", o.World.Hz)
	for _, f := range []struct {
		name string
		v    float64
	}{{"seconds", o.Seconds}, {"warmup", o.Measure.Warmup}, {"extrapolate", o.Pacing.Extrapolate}, {"catch-up", o.Pacing.CatchUp}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return o, fmt.Errorf("-%s %v: not a number; want %s", f.name, f.v, flagForms[f.name])
		}
	}
	check(o.Seconds >= 0, "-seconds %v is negative (use 0 to run until closed)", o.Seconds)
	check(o.World.LevelFile == "" || o.Info.Level != nil || isReplay, "-level is for %s: drop it, or add -scene %s", orList(levelGames), firstOr(levelGames, o.Scene))
	check(!o.Measure.Bench || o.Seconds > 0, "-seconds %v: the bench needs a measured time above 0", o.Seconds)
	check(o.Measure.Warmup >= 0, "-warmup %v is negative", o.Measure.Warmup)
	check(o.Window.Width >= 64 && o.Window.Height >= 64 && o.Window.Width <= 16384 && o.Window.Height <= 16384,
		"-width %d -height %d out of range (use 64 to 16384)", o.Window.Width, o.Window.Height)
	check(o.Pacing.CatchUp >= 0 && o.Pacing.CatchUp <= 4, "-catch-up %v out of range (use 0 to 4)", o.Pacing.CatchUp)
	check(o.Pacing.FPSCap >= 0 && o.Pacing.FPSCap <= 10_000, "-fps-cap %d out of range (use 0 for none, or up to 10000)", o.Pacing.FPSCap)
	check(o.Pacing.EmulateHz >= 0 && o.Pacing.EmulateHz <= 1000, "-emulate-vsync %d out of range (use 0 for none, or up to 1000)", o.Pacing.EmulateHz)
	if o.Pacing.PresentHold {
		// The hold paces presents that nothing else paces, in the decoupled
		// loop, whose frames choose the moment they show; anywhere else it
		// would silently do nothing.
		check(o.Pacing.EmulateHz == 0, "-present-hold with -emulate-vsync: the emulated blanks pace the swaps; drop one of them")
		check(o.Pacing.EmulateHz > 0 || !o.Window.VSync, "-present-hold paces presents when vsync does not: add -vsync=false (with vsync the blanks pace them), or drop -present-hold")
		check(o.Loop == app.Decoupled || o.Loop == app.Threaded, "-present-hold is for the decoupled and threaded loops: drop -loop %s, or -present-hold", o.Loop)
	}
	if o.Pacing.EmulateHz > 0 {
		o.Window.VSync = false // the emulated blank paces the swaps
	}
	check(o.Pacing.Extrapolate >= 0 && o.Pacing.Extrapolate <= 1, "-extrapolate %v out of range (use 0 to 1)", o.Pacing.Extrapolate)
	check(!o.Measure.Bench || (o.reps >= 1 && o.reps <= 100), "-reps %d out of range (use 1 to 100)", o.reps)
	check(!o.matrix || !o.pacing, "-matrix and -pacing: run one, then the other")
	if o.pprofAddr != "" {
		if err := checkPprofAddr(o.pprofAddr, o.pprofAny); err != nil {
			bad = append(bad, err.Error())
		}
	}
	if len(bad) > 0 {
		return o, fmt.Errorf("%s", strings.Join(bad, "; "))
	}
	return o, nil
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

// Options parses args as sub's flags ("run", "bench" or "replay") and
// returns the loop's options: for tests and tools that run the loop
// themselves.
func (p *Program) Options(sub string, args []string, stderr io.Writer) (app.Options, error) {
	o, err := p.parseFlags(sub, args, stderr)
	return o.Options, err
}
