//go:build !windows

package snapshot

import "time"

// base is the origin of the process's monotonic time base. time.Since uses
// the monotonic clock reading, so wall-clock jumps (NTP, DST, a user setting
// the date) never move it.
var base = time.Now()

// Now returns the monotonic time in nanoseconds since the process started.
// It is the one time base shared by the sim thread, input stamping and the
// renderer. It is safe to call from any goroutine and does not allocate.
func Now() int64 { return int64(time.Since(base)) }
