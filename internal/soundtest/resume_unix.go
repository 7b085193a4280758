//go:build unix

package soundtest

import (
	"os"
	"syscall"
)

// resume continues p if a test stopped it (Signal with SIGSTOP), so that
// its kill is not held.
func resume(p *os.Process) { p.Signal(syscall.SIGCONT) }
