//go:build !linux

package gltest

// isMainThread cannot tell off Linux; it answers true so that tests relying
// on it do not fail there.
func isMainThread() bool { return true }
