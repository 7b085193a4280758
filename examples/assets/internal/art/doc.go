// Package art draws tandem's demo sprites. It is the single source of the
// PNGs in examples/assets/png: the generator in ../gen writes what All
// returns, and the assets tests check that the committed PNGs still match.
//
// Most sprites are pixel grids written as strings, one character a pixel, with
// a palette per sprite; '.' is transparent. Tiles add a little deterministic
// texture on top.
//
// Threads: its functions are pure and may be called from any goroutine.
package art
