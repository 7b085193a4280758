//go:build cgo

package app

import (
	"fmt"
	"testing"
)

// TestEveryLoopHasItsDriver: each loop a user can choose (-loop,
// Config.Loop) gets a driver of its own, so that a loop added to Loops
// without one is caught rather than run silently as the decoupled loop,
// newDriver's fallback; and only the coupled loop runs the sim on the
// main thread.
func TestEveryLoopHasItsDriver(t *testing.T) {
	seen := map[string]Loop{}
	for _, l := range Loops {
		d := newDriver(&session{opts: Options{Loop: l}})
		typ := fmt.Sprintf("%T", d)
		if other, ok := seen[typ]; ok {
			t.Errorf("loops %s and %s share the driver %s", other, l, typ)
		}
		seen[typ] = l
		if d.simThread() != (l != Coupled) {
			t.Errorf("the %s loop's driver %s: sim on a thread of its own %v", l, typ, d.simThread())
		}
	}
	o := Defaults()
	o.Loop = "fused"
	if err := o.Validate(); err == nil {
		t.Error("a loop not in Loops was accepted")
	}
}
