//go:build !windows

package window

// UnderWine reports whether the program runs under Wine: never, off Windows.
func UnderWine() bool { return false }
