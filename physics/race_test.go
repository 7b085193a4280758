//go:build race

package physics

// raceEnabled reports whether the race detector is on: the accuracy
// tests, one goroutine of arithmetic, take a tenth of their inputs then.
const raceEnabled = true
