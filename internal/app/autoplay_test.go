//go:build cgo

package app

import (
	"testing"

	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/simthread"
)

// TestDefaultAutoplay: the default autoplay holds Right from its first
// poll and Jump for the first 0.35 s of every 0.9 s, and says when it
// next has a key to change, so that a thread that sleeps until input
// wakes for it.
func TestDefaultAutoplay(t *testing.T) {
	var got []simthread.Event
	push := func(e simthread.Event) bool { got = append(got, e); return true }
	const start = 1_000_000_000
	a := newAutoplay(push, nil, nil, 60, start)
	right, jump := engine.ButtonOf(engine.ActionRight), engine.ButtonOf(engine.ActionJump)
	steps := []struct {
		now, next int64
		want      []simthread.Event
	}{
		{start, start + autoHold, []simthread.Event{{Time: start, Buttons: right, Down: true}, {Time: start, Buttons: jump, Down: true}}},
		{start + 100, start + autoHold, nil},
		{start + autoHold, start + autoPeriod, []simthread.Event{{Time: start + autoHold, Buttons: jump}}},
		{start + autoPeriod + 5, start + autoPeriod + autoHold, []simthread.Event{{Time: start + autoPeriod + 5, Buttons: jump, Down: true}}},
	}
	for _, st := range steps {
		got = nil
		if next := a.input(st.now); next != st.next {
			t.Errorf("at %d: next %d, want %d", st.now-start, next-start, st.next-start)
		}
		if len(got) != len(st.want) {
			t.Fatalf("at %d: pushed %+v, want %+v", st.now-start, got, st.want)
		}
		for i, w := range st.want {
			w.Kind = simthread.EventButton
			if got[i] != w {
				t.Errorf("at %d: pushed %+v, want %+v", st.now-start, got[i], w)
			}
		}
	}
}

// TestGameOwnAutoplay: a game's own autoplay is asked for the buttons it
// holds at the next tick to run; autoplay presses what is new and
// releases what it let go, and polls again a tick on.
func TestGameOwnAutoplay(t *testing.T) {
	var got []simthread.Event
	push := func(e simthread.Event) bool { got = append(got, e); return true }
	var ticks uint64
	own := func(tick uint64) simthread.Buttons { return simthread.Buttons(tick) } // tick 1: 1, tick 2: 2, tick 3: 3
	a := newAutoplay(push, own, func() uint64 { return ticks }, 100, 0)
	want := [][]simthread.Event{
		{{Time: 0, Buttons: 1, Down: true}},
		{{Time: 10, Buttons: 2, Down: true}, {Time: 10, Buttons: 1}},
		{{Time: 20, Buttons: 1, Down: true}},
	}
	for i, w := range want {
		got = nil
		now := int64(i * 10)
		if next := a.input(now); next != now+10_000_000 {
			t.Errorf("poll %d: next %d, want a tick on (%d)", i, next, now+10_000_000)
		}
		if len(got) != len(w) {
			t.Fatalf("poll %d: pushed %+v, want %+v", i, got, w)
		}
		for k := range w {
			w[k].Kind = simthread.EventButton
			if got[k] != w[k] {
				t.Errorf("poll %d: pushed %+v, want %+v", i, got[k], w[k])
			}
		}
		ticks++
	}
}
