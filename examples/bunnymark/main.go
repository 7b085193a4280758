// Command bunnymark is the demo's bunnymark on its own, on tandem's public API:
// go run ./examples/bunnymark (-h lists its flags).
package main

import (
	"github.com/tandem-engine/tandem"
	"github.com/tandem-engine/tandem/examples/scene"
)

func main() { tandem.Main(scene.NewBunnymark()) }
