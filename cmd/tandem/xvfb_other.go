//go:build !linux

package main

import "syscall"

// dieWithParent has no portable form outside Linux: a killed tandem there
// leaves its Xvfb running.
func dieWithParent(*syscall.SysProcAttr) {}
