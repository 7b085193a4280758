// Command tandem is the demo's launcher: the three example games on
// tandem's standard command line (run, bench, replay), with the bench's
// charts, and `tandem report DIR`, which draws the charts of a bench run
// that any game's bench wrote (its frames.csv and ticks.csv).
package main

import (
	"os"

	"github.com/tandem-engine/tandem"
	"github.com/tandem-engine/tandem/bench/charts"
	"github.com/tandem-engine/tandem/examples/scene"
	_ "github.com/tandem-engine/tandem/pprofserver" // -pprof
)

// tandem's own init locks the main goroutine to the main thread, as GLFW
// requires.
func main() {
	if len(os.Args) > 1 && os.Args[1] == "report" {
		os.Exit(report(os.Args[2:], os.Stdout, os.Stderr))
	}
	tools := tandem.Tools{RunCharts: charts.Run, SweepCharts: charts.Matrix}
	tandem.MainWith(tools, scene.NewPlatformer(), scene.NewBunnymark(), scene.NewShooter())
}
