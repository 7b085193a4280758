// Command shooter is the demo's shooter on its own, on tandem's public API:
// go run ./examples/shooter (-h lists its flags). Here its bullets are
// drawn as lasers (lines over each bullet's last tick) and the frame
// through a CRT shader; -plain draws them as the launcher's bench does,
// without either.
package main

import (
	"flag"

	"github.com/tandem-engine/tandem"
	"github.com/tandem-engine/tandem/examples/scene"
)

var plain = flag.Bool("plain", false, "draw without the lasers and the CRT shader, as tandem bench runs the shooter")

// game turns the effects on from the flag, which the command line has
// parsed by the time Setup runs.
type game struct{ *scene.Shooter }

func (g game) Setup(s *tandem.Setup) error {
	g.Lasers, g.CRT = !*plain, !*plain
	return g.Shooter.Setup(s)
}

func main() { tandem.Main(game{scene.NewShooter().(*scene.Shooter)}) }
