//go:build !linux

package proto

// AudioNice is Linux's only: elsewhere the threads stay at the process's
// priority.
const AudioNice = 0

func AudioThread() bool { return false }
