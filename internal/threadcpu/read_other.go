//go:build !linux

package threadcpu

import "errors"

// Reader reads nothing off Linux.
type Reader struct{}

// Open fails off Linux: only Linux keeps a thread's run-queue wait.
func Open() (*Reader, error) {
	return nil, errors.New("threadcpu: a thread's CPU time and wait are read on Linux only")
}

// Read reads nothing.
func (r *Reader) Read() (Times, bool) { return Times{}, false }

// Close does nothing.
func (r *Reader) Close() {}
