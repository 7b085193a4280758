package cli

import (
	"flag"
	"fmt"
	"regexp"
	"strings"
)

// The flags' errors: the flag package's messages rewritten into one line
// that names the flag, the value and the form wanted, or the subcommand
// a flag belongs to.

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
	"reps":          "a whole number of reps, e.g. 5, or auto",
	"order-seed":    "a whole number from 0, e.g. 42",
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
var benchFlags = []string{"warmup", "out", "matrix", "pacing", "reps", "reps-budget", "order-seed", "host-floor", "input", "audio-on-call"}

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
