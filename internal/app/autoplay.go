//go:build cgo

package app

import (
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/simthread"
)

// autoplay is the add-on that plays from the input thread as a player
// would (-autoplay): the game's own autoplay when it has one
// (Setup.Autoplay), else it holds the Right action and presses Jump for
// 0.35 s of every 0.9 s, sending stamped events through the same queue
// as the keyboard, so that -record records them.
type autoplay struct {
	noHooks
	push  func(simthread.Event) bool
	own   func(tick uint64) simthread.Buttons // the game's own; nil: the default
	ticks func() uint64                       // the ticks the sim has run
	hz    int
	start int64 // the default's rhythm counts from the run's start
	right bool  // the default holds Right
	jump  bool  // the default holds Jump
	held  simthread.Buttons
}

// newAutoplay plays from start, through push, the game's own autoplay
// own (nil: the default), which reads the ticks run at a rate of hz.
func newAutoplay(push func(simthread.Event) bool, own func(uint64) simthread.Buttons, ticks func() uint64, hz int, start int64) *autoplay {
	return &autoplay{push: push, own: own, ticks: ticks, hz: hz, start: start}
}

// autoPeriod and autoHold are autoplay's rhythm, in ns: it jumps for the
// first autoHold of every autoPeriod.
const autoPeriod, autoHold = 900_000_000, 350_000_000

// input presses and releases what autoplay holds at now, and returns the
// next moment it has a key to change.
func (a *autoplay) input(now int64) int64 {
	if a.own != nil {
		// The game's own: the buttons it holds at the next tick to run,
		// pressed and released as a player would.
		want := a.own(a.ticks() + 1)
		if down := want &^ a.held; down != 0 {
			a.push(simthread.Event{Time: now, Kind: simthread.EventButton, Buttons: down, Down: true})
		}
		if up := a.held &^ want; up != 0 {
			a.push(simthread.Event{Time: now, Kind: simthread.EventButton, Buttons: up, Down: false})
		}
		a.held = want
		return now + 1e9/int64(a.hz) // a tick on
	}
	t := now - a.start
	jump := t%autoPeriod < autoHold
	if !a.right {
		a.right = true
		a.push(simthread.Event{Time: now, Kind: simthread.EventButton, Buttons: engine.ButtonOf(engine.ActionRight), Down: true})
	}
	if jump != a.jump {
		a.jump = jump
		a.push(simthread.Event{Time: now, Kind: simthread.EventButton, Buttons: engine.ButtonOf(engine.ActionJump), Down: jump})
	}
	if t %= autoPeriod; t < autoHold {
		return now + autoHold - t
	}
	return now + autoPeriod - t
}
