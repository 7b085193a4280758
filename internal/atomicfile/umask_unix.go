//go:build unix

package atomicfile

import "syscall"

// umask is the process's file mode creation mask, read once at start (it
// can only be read by setting it): a file made through a temporary file
// gets the mode os.Create would have given it.
var umask = func() uint32 {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return uint32(m)
}()
