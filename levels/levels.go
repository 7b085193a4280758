// Package levels holds the levels shipped with tandem, embedded so that the
// app finds them wherever it runs from. The files stay plain text in this
// folder: edit them, and the next build picks them up.
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
