//go:build cgo

package app

import "context"

// decoupled runs the sim free on a thread of its own, on its fixed
// schedule; the main thread polls input and draws each frame from the two
// newest snapshots, at a moment the pacing chooses.
type decoupled struct{ onMain }

func (d *decoupled) start(ctx context.Context) { d.s.runner.Start(ctx) }

func (d *decoupled) prepare() (int64, bool) {
	d.s.input()
	return 0, false
}

func (d *decoupled) aims() bool      { return true }
func (d *decoupled) simThread() bool { return true }
