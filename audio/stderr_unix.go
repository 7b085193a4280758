//go:build cgo && unix

package audio

import "golang.org/x/sys/unix"

// quietStderr points the process's stderr (fd 2) at /dev/null until the
// function it returns is called: for C libraries that write to it. What
// another goroutine writes to stderr meanwhile is lost too; the device
// opens before the run's threads start.
func quietStderr() (restore func()) {
	saved, err := unix.Dup(2)
	if err != nil {
		return func() {}
	}
	null, err := unix.Open("/dev/null", unix.O_WRONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		unix.Close(saved)
		return func() {}
	}
	unix.Dup2(null, 2)
	unix.Close(null)
	return func() {
		unix.Dup2(saved, 2)
		unix.Close(saved)
	}
}
