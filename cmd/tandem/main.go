package main

import (
	"github.com/tandem-engine/tandem"
	"github.com/tandem-engine/tandem/cmd/tandem/scene"
)

// The demo is three games on tandem's public API and its standard command
// line: the platformer (the default), the bunnymark (the bench's load) and
// the shoot-'em-up. tandem's own init locks the main goroutine to the main
// thread, as GLFW requires.
func main() {
	tandem.Main(scene.NewPlatformer(), scene.NewBunnymark(), scene.NewShooter())
}
