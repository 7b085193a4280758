//go:build cgo

package app

import (
	"fmt"
	"os"
	"sync/atomic"

	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
	"github.com/tandem-engine/tandem/window"
)

// Input events: the window's, stamped and handed to the sim as data;
// the engine's own keys; the default autoplay.

// inputState is the input thread's: the game's bindings, the pointer's
// last move in this poll, what autoplay holds down, Esc.
type inputState struct {
	keys         bindings
	pointer      window.Input
	pointerMoved bool
	autoRight    bool
	autoJump     bool
	autoHeld     simthread.Buttons // what the game's own autoplay holds
	autoStart    int64             // autoplay's rhythm counts from the run's start
	next         int64             // the next moment the input thread has work of its own
	keyQuit      atomic.Bool
}

// input polls the window's events (onEvent stamps and pushes each) and
// pushes what the loop makes itself. The frame's, in the loops whose
// main thread draws.
func (s *session) input() {
	s.win.Poll()
	s.inputPush(snapshot.Now())
}

// inputPush pushes what the loop makes itself after the events: the
// pointer's last move, then autoplay's keys, or the add-ons' input (the
// bench's button). The input thread's.
func (s *session) inputPush(now int64) {
	s.pushPointer()
	if s.opts.Autoplay {
		s.autoplay(now)
		s.in.next = s.autoplayNext(now)
		return
	}
	s.in.next = noInput
	for _, ad := range s.addons {
		s.in.next = min(s.in.next, ad.input(now))
	}
}

// nextInput is the next moment after now the input thread has work of
// its own (now: before its first push).
func (s *session) nextInput(now int64) int64 {
	if s.in.next == 0 {
		return now
	}
	return s.in.next
}

// onEvent receives every input event on the main thread, inside Poll. Game
// buttons go to the sim as data, stamped; app keys act here. Nothing in it
// blocks.
func (s *session) onEvent(e window.Input) {
	if b := s.in.keys.of(e); b != 0 {
		s.runner.Push(simthread.Event{Time: e.Time, Kind: simthread.EventButton, Buttons: b, Down: e.Down})
		return
	}
	switch e.Kind {
	case window.KindPointer:
		// A mouse sends hundreds of moves a second: the sim gets the last
		// of each poll (pushPointer), stamped when it happened.
		s.in.pointer, s.in.pointerMoved = e, true
		return
	case window.KindAxis:
		s.runner.Push(simthread.Event{Time: e.Time, Kind: simthread.EventAxis, Axis: uint8(e.Axis), X: e.Value})
		return
	}
	if e.Kind != window.KindKey || !e.Down || e.Repeat {
		return
	}
	switch e.Key {
	case window.KeyEscape:
		s.in.keyQuit.Store(true)
		s.win.SetShouldClose(true)
	case window.KeyF3:
		s.hudOn.Store(!s.hudOn.Load())
	case window.KeyF11:
		if !s.win.ToggleFullscreen() {
			fmt.Fprintln(os.Stderr, "tandem: F11: no monitor to go fullscreen on; staying windowed")
		}
		s.setRefresh()
	case window.KeyF12:
		s.shot.pending.Store(true)
	case window.KeyP:
		s.runner.Push(simthread.Event{Time: e.Time, Kind: simthread.EventTogglePause})
	case window.KeyPeriod:
		s.runner.Push(simthread.Event{Time: e.Time, Kind: simthread.EventStep})
	case window.KeyLeftBracket, window.KeyRightBracket:
		step := 1
		if e.Key == window.KeyLeftBracket {
			step = -1
		}
		s.runner.Push(simthread.Event{Time: e.Time, Kind: simthread.EventScale, Scale: nextScale(s.runner.Stats().Chosen, step)})
	}
}

// pushPointer hands the sim the pointer's last move of this poll, in
// world pixels as the last frame drawn showed the world: where the player
// pointed. (Before the first frame, framebuffer pixels.) The sim records
// and replays that value, so the mapping needs no replaying.
func (s *session) pushPointer() {
	if !s.in.pointerMoved {
		return
	}
	s.in.pointerMoved = false
	x, y := s.in.pointer.X, s.in.pointer.Y
	s.shownMu.Lock()
	if v := s.shown; v.cam.Zoom > 0 {
		x = v.cam.X + (x-float32(v.w)/2)/v.cam.Zoom
		y = v.cam.Y + (y-float32(v.h)/2)/v.cam.Zoom
	}
	s.shownMu.Unlock()
	s.runner.Push(simthread.Event{Time: s.in.pointer.Time, Kind: simthread.EventPointer, X: x, Y: y})
}

// autoplay plays from the main thread as a player would: the game's own
// autoplay when it has one (Setup.Autoplay), else it holds the Right
// action and presses Jump for 0.35 s of every 0.9 s, sending stamped
// events through the same queue as the keyboard.
func (s *session) autoplay(now int64) {
	if play := s.look.Autoplay; play != nil {
		// The game's own: the buttons it holds at the next tick to run,
		// pressed and released as a player would.
		want := play(s.runner.Stats().Ticks + 1)
		if down := want &^ s.in.autoHeld; down != 0 {
			s.runner.Push(simthread.Event{Time: now, Kind: simthread.EventButton, Buttons: down, Down: true})
		}
		if up := s.in.autoHeld &^ want; up != 0 {
			s.runner.Push(simthread.Event{Time: now, Kind: simthread.EventButton, Buttons: up, Down: false})
		}
		s.in.autoHeld = want
		return
	}
	t := now - s.in.autoStart
	jump := t%autoPeriod < autoHold
	if !s.in.autoRight {
		s.in.autoRight = true
		s.runner.Push(simthread.Event{Time: now, Kind: simthread.EventButton, Buttons: engine.ButtonOf(engine.ActionRight), Down: true})
	}
	if jump != s.in.autoJump {
		s.in.autoJump = jump
		s.runner.Push(simthread.Event{Time: now, Kind: simthread.EventButton, Buttons: engine.ButtonOf(engine.ActionJump), Down: jump})
	}
}

// autoPeriod and autoHold are autoplay's rhythm, in ns: it jumps for the
// first autoHold of every autoPeriod.
const autoPeriod, autoHold = 900_000_000, 350_000_000

// autoplayNext is the first moment after now at which autoplay has a key
// to change (now itself, before its first push).
func (s *session) autoplayNext(now int64) int64 {
	if s.look.Autoplay != nil {
		return now + 1e9/int64(s.opts.World.Hz) // a tick on
	}
	if !s.in.autoRight {
		return now
	}
	t := (now - s.in.autoStart) % autoPeriod
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
