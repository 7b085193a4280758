//go:build !windows

package app

import "time"

const stopGrace = 5 * time.Second
