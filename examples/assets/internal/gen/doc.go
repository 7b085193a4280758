// Command gen draws the demo's sprites and writes them as PNGs into the png
// folder next to it (examples/assets/png), replacing any PNGs there, and
// synthesises the demo's sounds (internal/sfx) as WAVs into
// examples/assets/wav, replacing any WAVs there.
//
// Run it from the repository root with
//
//	go run ./examples/assets/internal/gen
//
// or with go generate in examples/assets.
package main
