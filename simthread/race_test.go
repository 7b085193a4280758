//go:build race

package simthread

const raceEnabled = true
