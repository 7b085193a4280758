//go:build !linux

package hoststat

import (
	"errors"
	"runtime"
)

// Reader would read the host's steal; only Linux says how much time the
// host stole.
type Reader struct{}

// Open returns an error: only Linux says how much time the host stole.
func Open() (*Reader, error) {
	return nil, errors.New("hoststat: steal time is read from Linux's /proc/stat, not on " + runtime.GOOS)
}

// Read returns false.
func (r *Reader) Read() (Times, bool) { return Times{}, false }

// Close does nothing.
func (r *Reader) Close() error { return nil }
