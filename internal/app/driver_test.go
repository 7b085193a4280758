//go:build cgo

package app

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/pacing"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

// TestEveryLoopHasItsDriver: each loop a user can choose (-loop,
// Config.Loop) gets a driver of its own, so that a loop added to Loops
// without one is caught rather than run silently as the decoupled loop,
// newDriver's fallback; and only the loops whose sim runs free on its
// thread (decoupled, threaded) let a frame aim and a cap pace the
// presents, which is what -present-hold's check asks of a loop too.
func TestEveryLoopHasItsDriver(t *testing.T) {
	seen := map[string]Loop{}
	for _, l := range Loops {
		d := newDriver(&session{opts: Options{Loop: l}})
		typ := fmt.Sprintf("%T", d)
		if other, ok := seen[typ]; ok {
			t.Errorf("loops %s and %s share the driver %s", other, l, typ)
		}
		seen[typ] = l
		c := pacing.Config{Hz: 60, FPSCap: 60, Aim: true}
		d.pace(&c)
		o := Defaults()
		o.Loop, o.Window.VSync, o.Pacing.PresentHold = l, false, true
		free := o.Validate() == nil
		if c.Aim != free || c.CapPaced != free {
			t.Errorf("the %s loop's pacing: aim %v, cap paces presents %v; want both %v, as -present-hold is allowed", l, c.Aim, c.CapPaced, free)
		}
	}
	o := Defaults()
	o.Loop = "fused"
	if err := o.Validate(); err == nil {
		t.Error("a loop not in Loops was accepted")
	}
}

// blockSim's ticks wait until release is closed; entered says one began.
type blockSim struct{ entered, release chan struct{} }

func (b *blockSim) Step(simthread.TickInput) {
	select {
	case b.entered <- struct{}{}:
	default:
	}
	<-b.release
}
func (b *blockSim) Publish(dst *snapshot.Snapshot) { dst.Sprites.Resize(0) }
func (b *blockSim) Hash() uint64                   { return 0 }

// TestWaitSim: each loop's driver reports a sim stuck inside a tick once
// its context is cancelled, wherever the sim runs (its thread, or the
// thread that runs the coupled loop's frames), and a sim that stopped as
// not stuck.
func TestWaitSim(t *testing.T) {
	for _, l := range Loops {
		b := &blockSim{entered: make(chan struct{}, 1), release: make(chan struct{})}
		h := &hookedSim{Sim: b}
		r, err := simthread.New(h, simthread.Config{Hz: 60})
		if err != nil {
			t.Fatal(err)
		}
		d := newDriver(&session{opts: Options{Loop: l}, runner: r, hooked: h})
		ctx, cancel := context.WithCancel(context.Background())
		d.start(ctx)
		frames := make(chan struct{})
		go func() {
			// What a frame does to get the first tick run, whichever
			// loop: the coupled loop runs it, the pipelined hands it.
			switch l {
			case Coupled:
				r.RunDue(snapshot.Now())
			case Pipelined:
				r.Hand(snapshot.Now())
			}
			close(frames)
		}()
		<-b.entered
		cancel()
		if stuck, err := d.waitSim(20 * time.Millisecond); !stuck || err != nil {
			t.Errorf("%s: inside a tick that does not end, waitSim says stuck %v (err %v), want stuck", l, stuck, err)
		}
		close(b.release)
		<-frames
		if stuck, err := d.waitSim(5 * time.Second); stuck || err != nil {
			t.Errorf("%s: with the tick ended, waitSim says stuck %v (err %v), want neither", l, stuck, err)
		}
	}
}
