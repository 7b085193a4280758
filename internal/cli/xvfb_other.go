//go:build !linux && !windows && !darwin

package cli

import "syscall"

// diesWithParent: without Pdeathsig, a forced exit must stop the server
// itself.
const diesWithParent = false

// dieWithParent has no portable form outside Linux: a killed tandem there
// leaves its Xvfb running.
func dieWithParent(*syscall.SysProcAttr) {}
