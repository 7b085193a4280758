// Command gen draws the demo's sprites and writes them as PNGs into the png
// folder next to it (cmd/tandem/assets/png), replacing any PNGs there.
//
// Run it from the repository root with
//
//	go run ./cmd/tandem/assets/internal/gen
//
// or with go generate in cmd/tandem/assets.
package main
