//go:build cgo

package app

import (
	"fmt"
	"os"

	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/window"
)

// Input events: the window's, stamped and handed to the sim as data;
// the engine's own keys; the default autoplay.

// onEvent receives every input event on the main thread, inside Poll. Game
// buttons go to the sim as data, stamped; app keys act here. Nothing in it
// blocks.
func (a *app) onEvent(e window.Input) {
	if b := a.keys.of(e); b != 0 {
		a.runner.Push(simthread.Event{Time: e.Time, Kind: simthread.EventButton, Buttons: b, Down: e.Down})
		return
	}
	switch e.Kind {
	case window.KindPointer:
		// A mouse sends hundreds of moves a second: the sim gets the last
		// of each poll (pushPointer), stamped when it happened.
		a.pointer, a.pointerMoved = e, true
		return
	case window.KindAxis:
		a.runner.Push(simthread.Event{Time: e.Time, Kind: simthread.EventAxis, Axis: uint8(e.Axis), X: e.Value})
		return
	}
	if e.Kind != window.KindKey || !e.Down || e.Repeat {
		return
	}
	switch e.Key {
	case window.KeyEscape:
		a.keyQuit = true
		a.win.SetShouldClose(true)
	case window.KeyF3:
		a.hudOn.Store(!a.hudOn.Load())
	case window.KeyF11:
		if !a.win.ToggleFullscreen() {
			fmt.Fprintln(os.Stderr, "tandem: F11: no monitor to go fullscreen on; staying windowed")
		}
		a.setRefresh()
	case window.KeyF12:
		a.shotPending.Store(true)
	case window.KeyP:
		a.runner.Push(simthread.Event{Time: e.Time, Kind: simthread.EventTogglePause})
	case window.KeyPeriod:
		a.runner.Push(simthread.Event{Time: e.Time, Kind: simthread.EventStep})
	case window.KeyLeftBracket, window.KeyRightBracket:
		step := 1
		if e.Key == window.KeyLeftBracket {
			step = -1
		}
		a.runner.Push(simthread.Event{Time: e.Time, Kind: simthread.EventScale, Scale: nextScale(a.runner.Stats().Chosen, step)})
	}
}

// pushPointer hands the sim the pointer's last move of this poll, in
// world pixels as the last frame drawn showed the world: where the player
// pointed. (Before the first frame, framebuffer pixels.) The sim records
// and replays that value, so the mapping needs no replaying.
func (a *app) pushPointer() {
	if a.pointerMoved {
		a.pointerMoved = false
		x, y := a.pointer.X, a.pointer.Y
		a.shownMu.Lock()
		if c := a.shown; c.Zoom > 0 {
			x = c.X + (x-float32(a.shownW)/2)/c.Zoom
			y = c.Y + (y-float32(a.shownH)/2)/c.Zoom
		}
		a.shownMu.Unlock()
		a.runner.Push(simthread.Event{Time: a.pointer.Time, Kind: simthread.EventPointer, X: x, Y: y})
	}
}

// autoplay plays from the main thread as a player would: the game's own
// autoplay when it has one (Setup.Autoplay), else it holds the Right
// action and presses Jump for 0.35 s of every 0.9 s, sending stamped
// events through the same queue as the keyboard.
func (a *app) autoplay(now int64) {
	if play := a.look.Autoplay; play != nil {
		// The game's own: the buttons it holds at the next tick to run,
		// pressed and released as a player would.
		want := play(a.runner.Stats().Ticks + 1)
		if down := want &^ a.autoHeld; down != 0 {
			a.runner.Push(simthread.Event{Time: now, Kind: simthread.EventButton, Buttons: down, Down: true})
		}
		if up := a.autoHeld &^ want; up != 0 {
			a.runner.Push(simthread.Event{Time: now, Kind: simthread.EventButton, Buttons: up, Down: false})
		}
		a.autoHeld = want
		return
	}
	t := now - a.stats.start
	jump := t%autoPeriod < autoHold
	if !a.autoRight {
		a.autoRight = true
		a.runner.Push(simthread.Event{Time: now, Kind: simthread.EventButton, Buttons: engine.ButtonOf(engine.ActionRight), Down: true})
	}
	if jump != a.autoJump {
		a.autoJump = jump
		a.runner.Push(simthread.Event{Time: now, Kind: simthread.EventButton, Buttons: engine.ButtonOf(engine.ActionJump), Down: jump})
	}
}

// autoPeriod and autoHold are autoplay's rhythm, in ns: it jumps for the
// first autoHold of every autoPeriod.
const autoPeriod, autoHold = 900_000_000, 350_000_000

// autoplayNext is the first moment after now at which autoplay has a key
// to change (now itself, before its first push).
func (a *app) autoplayNext(now int64) int64 {
	if a.look.Autoplay != nil {
		return now + 1e9/int64(a.opts.World.Hz) // a tick on
	}
	if !a.autoRight {
		return now
	}
	t := (now - a.stats.start) % autoPeriod
	if t < autoHold {
		return now + autoHold - t
	}
	return now + autoPeriod - t
}

// nextScale returns the time scale one step slower (-1) or faster (+1)
// than r in simthread.Scales.
func nextScale(r simthread.Ratio, step int) simthread.Ratio {
	for i, s := range simthread.Scales {
		if s == r {
			return simthread.Scales[min(max(i+step, 0), len(simthread.Scales)-1)]
		}
	}
	return simthread.RealTime
}
