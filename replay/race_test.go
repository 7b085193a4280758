//go:build race

package replay_test

// raceEnabled reports whether the race detector is on: make test runs
// the byte-by-byte tests, which have one goroutine, without it.
const raceEnabled = true
