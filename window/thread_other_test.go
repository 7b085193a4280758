//go:build !linux

package window

// onMainThread cannot tell off Linux and answers true.
func onMainThread() bool { return true }
