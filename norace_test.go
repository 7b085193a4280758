//go:build !race

package tandem

const raceEnabled = false
