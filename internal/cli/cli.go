package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/tandem-engine/tandem/internal/app"
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/internal/glcheck"
)

// Program is a command line over the loop: its name (in -h and errors),
// its games, the flags a game defined the standard way, and the tools a
// launcher adds.
type Program struct {
	Name  string        // the program's name, e.g. os.Args[0]'s base
	Games []engine.Game // -scene picks one; the first by default
	// Flags are the game's own, defined the flag package's way before
	// Main (flag.CommandLine); they are parsed with the engine's and
	// shown in -h. nil: none.
	Flags *flag.FlagSet
	// Charts draw a bench's charts into its -out directory; none: the
	// report has its CSVs only (tandem report DIR draws them later).
	Charts Charts
}

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // the app failed: no display, no OpenGL 4.1, a bad level
	exitUsage = 2 // bad command line
)

// Run runs the command line args (without the program's name), writes
// to stdout and stderr, and returns the exit code: 0, 1 when the run
// failed (no display, no OpenGL 4.1, a bad level, a replay that does not
// verify), 2 for a bad command line. Main thread only.
func (p *Program) Run(args []string, stdout, stderr io.Writer) int {
	if p.Name == "" {
		p.Name = "tandem"
	}
	sub := "run"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	switch sub {
	case "run", "bench", "replay":
		if !wantsJSON(args) {
			return p.runSub(sub, args, stdout, stderr)
		}
		// With -json every exit prints one JSON object: a failure before
		// the summary (a bad flag, a cut recording, no display) prints
		// {"error": ...} with what stderr's last line says.
		out, errs := &countWriter{w: stdout}, &lastLine{w: stderr}
		code := p.runSub(sub, args, out, errs)
		if code != exitOK {
			msg := strings.TrimPrefix(strings.TrimPrefix(errs.last(), p.Name+" "+sub+": "), p.Name+": ")
			out.errorJSON(msg, code)
		}
		return code
	case "help", "-h", "--help":
		p.usage(stdout)
		return exitOK
	default:
		fmt.Fprintf(stderr, "%s: unknown subcommand %q\n", p.Name, sub)
		p.usage(stderr)
		return exitUsage
	}
}

// runSub runs the subcommand run, bench or replay with args.
func (p *Program) runSub(sub string, args []string, stdout, stderr io.Writer) int {
	opts, err := p.parseFlags(sub, args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s %s: %v\n", p.Name, sub, err)
		return exitUsage
	}
	switch {
	case opts.matrix:
		return p.runMatrix(opts, stdout, stderr)
	case opts.pacing:
		return p.runPacing(opts, stdout, stderr)
	case opts.scaling:
		return p.runScaling(opts, stdout, stderr)
	case opts.ceiling:
		return p.runCeiling(opts, stdout, stderr)
	}
	return p.runOnce(sub, opts, stdout, stderr)
}

// wantsJSON reports whether args ask for -json (anywhere before --: a
// flag's value that reads -json is not worth telling apart).
func wantsJSON(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		switch strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-") {
		case "json", "json=true", "json=1", "json=t", "json=TRUE", "json=True", "json=T":
			return true
		}
	}
	return false
}

// countWriter counts the bytes written through it, for -json's error
// object. The watchdog may write it from its goroutine.
type countWriter struct {
	mu sync.Mutex
	w  io.Writer
	n  int
}

func (c *countWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}

// errorJSON writes -json's error object, {"error": msg, "exit_code":
// code}, unless something (the summary) was written already.
func (c *countWriter) errorJSON(msg string, code int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n > 0 {
		return
	}
	if msg == "" {
		msg = fmt.Sprintf("exit code %d", code)
	}
	b, _ := json.Marshal(struct {
		Error    string `json:"error"`
		ExitCode int    `json:"exit_code"`
	}{msg, code})
	n, _ := fmt.Fprintf(c.w, "%s\n", b)
	c.n += n
}

// lastLine passes writes on and keeps the last non-empty line written.
// Writes come from one goroutine at a time or from the watchdog; a mutex
// keeps them apart.
type lastLine struct {
	mu   sync.Mutex
	w    io.Writer
	buf  []byte // the line being written
	line string // the last whole non-empty line
}

func (l *lastLine) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range p {
		if c != '\n' {
			if len(l.buf) < 4096 {
				l.buf = append(l.buf, c)
			}
			continue
		}
		if s := strings.TrimSpace(string(l.buf)); s != "" {
			l.line = s
		}
		l.buf = l.buf[:0]
	}
	return l.w.Write(p)
}

func (l *lastLine) last() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if s := strings.TrimSpace(string(l.buf)); s != "" {
		return s
	}
	return l.line
}

// runOnce runs the app once with opts (the subcommand sub's): the
// display, the profiler, the profiles, the run, then the summary and the
// bench's report.
func (p *Program) runOnce(sub string, opts options, stdout, stderr io.Writer) int {
	// Output paths are checked before anything runs: a typo costs nothing.
	if err := checkOutputs(&opts); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
		return exitUsage
	}
	if opts.Replay.File != "" {
		if err := p.openRecording(&opts, stderr); err != nil {
			return p.fail(stderr, err)
		}
		if opts.fast {
			return p.runFast(opts, stdout, stderr)
		}
	}
	// Nor does a bad level, a missing file, a name Setup cannot find or
	// a bad value of the game's own flag: no display, no window first.
	level, err := app.GameLevel(opts.Options)
	if err != nil {
		return p.fail(stderr, err)
	}
	opts.World.Level = level
	if err := checkSetup(opts.Options); err != nil {
		if code, ok := p.gameFlagError(stderr, sub, err); ok {
			return code
		}
		return p.fail(stderr, err)
	}
	if opts.out != "" {
		if err := os.MkdirAll(opts.out, 0o755); err != nil {
			fmt.Fprintf(stderr, "%s: -out: %v\n", p.Name, err)
			return exitUsage
		}
	}
	return p.runWindow(opts, stdout, stderr)
}

// checkSetup runs the game's Setup once without a window, so that what
// it cannot do (a missing or truncated file, a pattern that matches
// nothing, an unknown image or sound name, a level the game refuses, a
// bad value of its own flag, a shader that does not compile where a GL
// context can be had before the window: internal/glcheck) is reported
// before a display starts, as the level loader's errors are. The run sets the
// game up again on the window's framebuffer, which is the arena; this
// sim is dropped, and collected before the run so that its memory is not
// the run's peak.
func checkSetup(o app.Options) error {
	sim, err := o.Game.NewSim(app.SimConfig(o, o.World.Level, o.Window.Width, o.Window.Height))
	if err == nil {
		_, _, err = glcheck.Shaders(sim.Look().Draw.Shaders)
	}
	runtime.GC()
	return err
}

// gameFlagError reports err on stderr as the subcommand sub's usage error when
// it is a bad value of the game's own flag (an *engine.UsageError), as
// tandem's own flags' are, and returns their exit code; ok is false for
// any other error.
func (p *Program) gameFlagError(stderr io.Writer, sub string, err error) (code int, ok bool) {
	ue := (*engine.UsageError)(nil)
	if !errors.As(err, &ue) {
		return 0, false
	}
	fmt.Fprintf(stderr, "%s %s: %s\n", p.Name, sub, printable(ue.Msg))
	return exitUsage, true
}

// fail reports err on stderr under the program's name and returns the
// exit code of a failed run.
func (p *Program) fail(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "%s: %s\n", p.Name, printable(err.Error()))
	return exitError
}

// printable is s with every control character but newline and tab
// escaped (\x1b): an error can carry a name taken from a file someone
// else made (a recording's level, a bench folder's cell), and an escape
// sequence in it would reach the terminal, which could retitle or clear
// it, or paint a line that was never printed.
func printable(s string) string {
	if strings.IndexFunc(s, unsafeRune) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unsafeRune(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func unsafeRune(r rune) bool {
	return r != '\n' && r != '\t' && (unicode.IsControl(r) || r == utf8.RuneError || unicode.In(r, unicode.Bidi_Control))
}

func (p *Program) usage(w io.Writer) {
	prog := p.Name
	var names []string
	for _, g := range p.Games {
		names = append(names, g.Info().Name)
	}
	what := "play " + orList(names)
	if len(names) > 1 {
		what = "play " + names[0] + ", or -scene " + strings.Join(names[1:], " or ")
	}
	fmt.Fprintf(w, `usage: %[1]s [run|bench] [flags]
       %[1]s replay [flags] FILE

subcommands:
  run     %[2]s (the default subcommand);
          %[1]s run -h lists its flags; -record FILE records the run
  bench   run it under load and measure it: frame pacing, latency,
          tick jitter; -matrix compares the four loops, -pacing the
          ways of choosing each frame's moment; %[1]s bench -h
  replay  play a recording back in any -loop; -fast runs the sim alone
          as fast as it steps; -verify checks every checkpoint

Without a display, %[1]s starts its own Xvfb (-headless asks for it).

keys: the game's (by default arrows/WASD/d-pad move, space/up/mouse/A
jump or fire); P pauses, . steps while paused, [ and ] slow down and
speed up, F3 HUD, F11 fullscreen, F12 screenshot, Esc quits.
`, prog, what)
}
