// Command platformer is the demo's platformer on its own, on tandem's public API:
// go run ./examples/platformer (-h lists its flags).
package main

import (
	"github.com/tandem-engine/tandem"
	"github.com/tandem-engine/tandem/examples/scene"
)

func main() { tandem.Main(scene.NewPlatformer()) }
