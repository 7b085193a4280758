//go:build cgo

package tandem

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// args returns c as tandem run's command line.
func (c Config) args() []string {
	var a []string
	add := func(name, v string) { a = append(a, "-"+name+"="+v) }
	if c.Width != 0 {
		add("width", strconv.Itoa(c.Width))
	}
	if c.Height != 0 {
		add("height", strconv.Itoa(c.Height))
	}
	if c.Hz != 0 {
		add("hz", strconv.Itoa(c.Hz))
	}
	if c.Seed != 0 {
		add("seed", strconv.FormatUint(c.Seed, 10))
	}
	if c.Sprites != 0 {
		add("sprites", strconv.Itoa(c.Sprites))
	}
	if c.Seconds != 0 {
		add("seconds", strconv.FormatFloat(c.Seconds, 'g', -1, 64))
	}
	if c.Loop != "" {
		add("loop", c.Loop)
	}
	if c.FPSCap != 0 {
		add("fps-cap", strconv.Itoa(c.FPSCap))
	}
	for _, f := range []struct {
		name string
		on   bool
	}{{"vsync=false", c.NoVSync}, {"fullscreen", c.Fullscreen}, {"headless", c.Headless}, {"hud", c.HUD}, {"json", c.JSON}, {"present-hold", c.PresentHold}} {
		if f.on {
			a = append(a, "-"+f.name)
		}
	}
	for _, f := range []struct{ name, v string }{{"level", c.Level}, {"screenshot", c.Screenshot}, {"record", c.Record}} {
		if f.v != "" {
			add(f.name, f.v)
		}
	}
	return append(a, c.Args...)
}

// Run runs game in a window (or on tandem's own Xvfb where there is no
// display) until the window closes, Esc, Ctrl-C, cfg.Seconds, or ctx is
// done; then it stops the sim thread, finishes the recording, and writes
// the screenshot and the summary cfg asks for. Its errors name what to
// fix: a bad flag value, an output path that cannot be written, no
// display, no OpenGL 4.1. Main thread only (see the package's Threads
// note).
func Run(ctx context.Context, game Game, cfg Config) error {
	stdout, stderr := cfg.Stdout, cfg.Stderr
	if stdout == nil {
		stdout = os.Stdout
	}
	if stderr == nil {
		stderr = os.Stderr
	}
	opts, err := parseFlags("run", cfg.args(), stderr, []Game{game})
	if err != nil {
		return fmt.Errorf("tandem: %w", err)
	}
	opts.ctx, opts.title = ctx, cfg.Title
	last := &lastLine{w: stderr}
	if code := runOnce(opts, stdout, last, []Game{game}); code != exitOK {
		return fmt.Errorf("%s (exit code %d)", strings.TrimSpace(string(last.line)), code)
	}
	return nil
}

// lastLine passes writes on to w and keeps the last line written: the
// error the run reported.
type lastLine struct {
	w    io.Writer
	line []byte
	next []byte
}

func (l *lastLine) Write(p []byte) (int, error) {
	for _, c := range p {
		if c == '\n' {
			if len(bytes.TrimSpace(l.next)) > 0 {
				l.line = append(l.line[:0], l.next...)
			}
			l.next = l.next[:0]
			continue
		}
		l.next = append(l.next, c)
	}
	return l.w.Write(p)
}
