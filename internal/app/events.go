//go:build cgo

package app

import (
	"fmt"
	"os"
	"sync/atomic"

	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
	"github.com/tandem-engine/tandem/window"
)

// Input events: the window's, stamped and handed to the sim as data;
// the engine's own keys.

// inputState is the input thread's: the game's bindings, the pointer's
// last move in this poll, Esc.
type inputState struct {
	keys         bindings
	pointer      window.Input
	pointerMoved bool
	next         int64 // the next moment the input thread has work of its own
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
// pointer's last move, then the add-ons' input (autoplay's keys, the
// bench's button). The input thread's.
func (s *session) inputPush(now int64) {
	s.pushPointer()
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
	if act := s.in.keys.actions[e.Key]; act != nil {
		act()
		return
	}
	switch e.Key {
	case window.KeyEscape:
		s.in.keyQuit.Store(true)
		s.win.SetShouldClose(true)
	case window.KeyF11:
		if !s.win.ToggleFullscreen() {
			fmt.Fprintln(os.Stderr, "tandem: F11: no monitor to go fullscreen on; staying windowed")
		}
		s.setRefresh()
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
