//go:build cgo

package app

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/engine"
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

// TestAttachOrder: a run attaches only the add-ons its options ask for,
// in the order their hooks must run (the meter before the sound, whose
// bench click reads the meter's publish; the HUD, the probe over it, the
// screenshots of both), and the sim steps the same list.
func TestAttachOrder(t *testing.T) {
	r, err := simthread.New(&inputSim{}, simthread.Config{Hz: 60, Clock: simthread.NewFakeClock(0)})
	if err != nil {
		t.Fatal(err)
	}
	plain := Defaults()
	all := Defaults()
	all.Autoplay, all.Measure.Probe, all.Load.SimCost = true, true, time.Millisecond
	for _, c := range []struct {
		o      Options
		avLock bool
		hooks  *Hooks
		want   string
	}{
		{plain, false, nil, "[*app.meter *app.sound *app.hudOverlay *app.shots]"},
		{all, true, &Hooks{}, "[*app.meter *app.sound *app.delayLine *app.autoplay *app.benchLoad *app.hudOverlay app.probeOverlay *app.shots *app.testHooks]"},
	} {
		s := &session{opts: c.o, runner: r, meter: &meter{}, snd: &sound{avLock: c.avLock}, look: &engine.Look{}, hooked: &hookedSim{}, draw: &renderer{}}
		s.attach(0, c.hooks)
		var types []string
		for _, ad := range s.addons {
			types = append(types, fmt.Sprintf("%T", ad))
		}
		if got := fmt.Sprint(types); got != c.want {
			t.Errorf("attached %s, want %s", got, c.want)
		}
		if len(s.hooked.addons) != len(s.addons) {
			t.Errorf("the sim steps %d add-ons of %d", len(s.hooked.addons), len(s.addons))
		}
	}
}
