//go:build unix

package regfile

import (
	"os"
	"syscall"
)

// open opens path read-only without blocking: a FIFO with no writer
// opens at once, and Open then refuses it.
func open(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// nonBlock makes an open return at once, a FIFO's with no writer too.
const nonBlock = syscall.O_NONBLOCK
