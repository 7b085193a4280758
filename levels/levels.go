package levels

import (
	"bytes"
	_ "embed"

	"github.com/tandem-engine/tandem/physics"
)

//go:embed demo.txt
var demo []byte

// DemoName is the name errors give the demo level.
const DemoName = "levels/demo.txt"

// Demo parses the demo level.
func Demo() (*physics.Level, error) {
	return physics.ParseLevel(DemoName, bytes.NewReader(demo))
}
