package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tandem-engine/tandem/internal/app"
	"github.com/tandem-engine/tandem/internal/atomicfile"
)

// checkOutputs checks, before anything runs, that every file the run will
// write can be written (a typo in a path costs nothing), that no output
// names an input or another output (which would overwrite the level, or
// leave one of two files), and what - means: stdout when nothing else
// writes there, refused when the JSON summary (or the bench's text) does.
// A name that is stdout's file (/dev/stdout, /proc/self/fd/1, the
// terminal's own name) is taken as -. It may rewrite - to /dev/stdout in o.
func checkOutputs(o *options) error {
	outs := []struct {
		flag string
		path *string
	}{
		{"-screenshot", &o.Output.Screenshot}, {"-record", &o.Record},
		{"-cpuprofile", &o.cpuprofile}, {"-memprofile", &o.memprofile}, {"-trace", &o.trace},
	}
	type named struct{ what, path string }
	var seen []named
	for _, in := range []named{{"-level", o.World.LevelFile}, {"the recording", o.Replay.File}} {
		if in.path != "" {
			seen = append(seen, in)
		}
	}
	inputs := len(seen)
	dash := ""
	for _, f := range outs {
		if *f.path == "" {
			continue
		}
		if *f.path == "-" || isStdout(*f.path) {
			if dash != "" {
				return fmt.Errorf("%s and %s %s: both would write to stdout; give one a file name", dash, f.flag, *f.path)
			}
			if err := stdoutOutput(o, *f.path); err != nil {
				return fmt.Errorf("%s %s: %w", f.flag, *f.path, err)
			}
			dash = f.flag + " " + *f.path
			if *f.path == "-" {
				*f.path = "/dev/stdout"
			}
		}
		if err := app.CheckOutput(*f.path, f.flag == "-screenshot"); err != nil {
			return fmt.Errorf("%s %s: %w", f.flag, *f.path, err)
		}
		seen = append(seen, named{f.flag, *f.path})
	}
	if o.out != "" {
		for _, n := range reportNames() {
			seen = append(seen, named{"-out's " + n, filepath.Join(o.out, n)})
		}
	}
	for i := inputs; i < len(seen); i++ {
		for j := range i {
			if samePath(seen[i].path, seen[j].path) {
				if j < inputs {
					return fmt.Errorf("%s %s is %s: it would be overwritten; give another name", seen[i].what, seen[i].path, seen[j].what)
				}
				return fmt.Errorf("%s %s and %s name the same file: give each its own", seen[j].what, seen[j].path, seen[i].what)
			}
		}
	}
	if o.Output.ShotDir != "." {
		if fi, err := os.Stat(o.Output.ShotDir); err != nil || !fi.IsDir() {
			return fmt.Errorf("-screenshot-dir %s: not a directory (create it first)", o.Output.ShotDir)
		}
	}
	return nil
}

// stdoutOutput reports whether an output may be written to stdout, as -
// or by a name of stdout's file: when no summary shares it and, for -, it
// is a terminal or a pipe (an output written through a temporary file
// cannot be renamed over a redirection).
func stdoutOutput(o *options, path string) error {
	is := ""
	if path != "-" {
		is = "that is stdout, and "
	}
	switch {
	case o.json:
		return fmt.Errorf("%sstdout carries the JSON summary (-json): give a file name", is)
	case o.Measure.Bench:
		return fmt.Errorf("%sstdout carries the bench's summary: give a file name", is)
	}
	if path != "-" {
		return nil
	}
	fi, err := stdoutFile().Stat()
	if err != nil || !atomicfile.Direct(fi.Mode()) {
		return fmt.Errorf("stdout is not a terminal or a pipe: give the file's name instead of -")
	}
	return nil
}

// isStdout reports whether path names the file stdout is (the same device
// and inode): /dev/stdout, /proc/self/fd/1, /dev/pts/N when stdout is that
// terminal, the file stdout is redirected to. /dev/null is no one's: a
// summary and an output may both go there.
func isStdout(path string) bool {
	out, err := stdoutFile().Stat()
	if err != nil {
		return false
	}
	fi, err := atomicfile.Stat(path)
	if err != nil || !os.SameFile(fi, out) {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}

// samePath reports whether a and b name one file: the same path once
// cleaned, or (both existing) the same file through a link. Devices
// (/dev/null twice) are not files that clash.
func samePath(a, b string) bool {
	fa, ea := os.Stat(a)
	fb, eb := os.Stat(b)
	if ea == nil && eb == nil {
		if atomicfile.Direct(fa.Mode()) || atomicfile.Direct(fb.Mode()) {
			return false
		}
		return os.SameFile(fa, fb)
	}
	aa, err1 := filepath.Abs(a)
	ab, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == ab
}

// ownStdout is the process's stdout as OwnStdout found it, nil before.
var ownStdout *os.File

// OwnStdout keeps stdout for the command line's own output and returns
// it: from here on, what the process's Go code writes to os.Stdout (a
// library's stray print, such as the PulseAudio client's on a packet it
// does not know, or a game's) goes to stderr, so stdout carries the
// summary, or -json's one line, and nothing else. For Main, which owns
// the process; once, before the command runs.
func OwnStdout() *os.File {
	ownStdout = os.Stdout
	os.Stdout = os.Stderr
	return ownStdout
}

// stdoutFile is the file the command line's stdout is.
func stdoutFile() *os.File {
	if ownStdout != nil {
		return ownStdout
	}
	return os.Stdout
}
