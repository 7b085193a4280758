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

// openNoFollow is open, refusing a symbolic link at path (ELOOP) rather
// than following it.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
}
