//go:build !race

package racecap

const enabled = false
