// Package racecap caps the frame rate of the runs that tests start, under
// the race detector only. Xvfb has no vsync, so an uncapped run draws as
// fast as llvmpipe can and takes both cores from the tests beside it, which
// make test runs many of; the race detector needs the threads to meet, not
// thousands of frames. Without -race the tests draw uncapped. The CPU it
// saves: docs/results/2026-11-27-make-test2.md and -make-test3.md.
package racecap

import "strings"

// FPS is the frame rate a run in a test draws at under the race detector
// when the test sets no pacing of its own.
const FPS = "60"

// Args returns a run's command-line args with -fps-cap FPS added under the
// race detector, unless they set the pacing (a cap, -present-hold, vsync,
// an emulated display) or run the bench, which measures it. Args may start
// with the subcommand (run, replay) or be the flags alone.
func Args(args []string) []string {
	if !enabled || len(args) > 0 && args[0] == "bench" {
		return args
	}
	for _, a := range args {
		switch name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); name {
		case "fps-cap", "present-hold", "vsync", "emulate-vsync":
			return args
		}
	}
	return append(args[:len(args):len(args)], "-fps-cap", FPS)
}
