//go:build linux

package cli

import "syscall"

// diesWithParent: the kernel stops the private Xvfb when tandem exits,
// however it exits.
const diesWithParent = true

// dieWithParent asks the kernel to send the child SIGTERM when the thread
// that started it exits. startXvfb runs on the main thread, which lives as
// long as the process, so this is the process's death, SIGKILL included.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGTERM }
