package cli

import (
	"fmt"
	"os"

	"github.com/tandem-engine/tandem/internal/app"
)

// checkOutputs checks, before anything runs, that every file the run will
// write can be written: a typo in a path costs nothing.
func checkOutputs(o options) error {
	for _, f := range []struct{ flag, path string }{
		{"-screenshot", o.Output.Screenshot}, {"-record", o.Record},
		{"-cpuprofile", o.cpuprofile}, {"-memprofile", o.memprofile}, {"-trace", o.trace},
	} {
		if f.path == "" {
			continue
		}
		if err := app.CheckOutput(f.path, f.flag == "-screenshot"); err != nil {
			return fmt.Errorf("%s %s: %w", f.flag, f.path, err)
		}
	}
	if o.Output.ShotDir != "." {
		if fi, err := os.Stat(o.Output.ShotDir); err != nil || !fi.IsDir() {
			return fmt.Errorf("-screenshot-dir %s: not a directory (create it first)", o.Output.ShotDir)
		}
	}
	return nil
}
