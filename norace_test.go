//go:build cgo && !race

package tandem

const raceEnabled = false
