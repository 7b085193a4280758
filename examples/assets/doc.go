// Package assets holds the demo's sprites as embedded PNGs and its sounds
// as embedded WAVs (synthesised by internal/sfx).
//
// The PNGs are drawn by code, in internal/art, and written by internal/gen;
// edit the code and run go generate rather than editing the PNGs. The package
// has no GL dependency: the app packs the decoded images into an atlas.
//
// Threads: Load and FS may be used from any goroutine.
package assets
