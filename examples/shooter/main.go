// Command shooter is the demo's shooter on its own, on tandem's public API:
// go run ./examples/shooter (-h lists its flags).
package main

import (
	"github.com/tandem-engine/tandem"
	"github.com/tandem-engine/tandem/examples/scene"
)

func main() { tandem.Main(scene.NewShooter()) }
