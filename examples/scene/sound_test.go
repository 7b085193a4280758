package scene

import (
	"fmt"
	"path"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem"
	"github.com/tandem-engine/tandem/audio"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

// heard steps s n ticks with the input in(k) and returns, by the sound's
// name, the ticks that played it.
func heard(t *testing.T, s testSim, n int, in func(k int) simthread.TickInput) map[string][]int {
	t.Helper()
	names := map[uint16]string{}
	for i, snd := range s.Sounds() {
		names[uint16(i)] = strings.TrimSuffix(path.Base(snd.Name), ".wav")
	}
	got := map[string][]int{}
	var snap snapshot.Snapshot
	for k := 1; k <= n; k++ {
		s.Step(in(k))
		s.Publish(&snap)
		for _, e := range snap.Sounds.List[:snap.Sounds.N] {
			if audio.Op(e.Op) == audio.OpPlay || audio.Op(e.Op) == audio.OpMusic {
				got[names[e.Sound]] = append(got[names[e.Sound]], k)
			}
		}
	}
	return got
}

func hold(b simthread.Buttons, from, to int) func(k int) simthread.TickInput {
	return func(k int) simthread.TickInput {
		if k < from || k > to {
			return simthread.TickInput{}
		}
		in := simthread.TickInput{Down: b}
		if k == from {
			in.Pressed = b
		}
		return in
	}
}

// TestGamesPlay: each demo game plays its sounds on the ticks it should.
func TestGamesPlay(t *testing.T) {
	p := heard(t, newSim(t, NewPlatformer(), goldenConfig), 240, hold(buttons(tandem.Jump), 120, 125))
	if len(p["music"]) != 1 || p["music"][0] != 1 {
		t.Errorf("platformer: music at ticks %v; want 1", p["music"])
	}
	if len(p["jump"]) != 1 || p["jump"][0] < 120 || p["jump"][0] > 122 {
		t.Errorf("platformer: jumps at ticks %v; want one as jump goes down at 120", p["jump"])
	}
	if len(p["land"]) < 1 || p["land"][len(p["land"])-1] <= p["jump"][0] {
		t.Errorf("platformer: landings at ticks %v; want one after the jump", p["land"])
	}

	sh := heard(t, newSim(t, NewShooter(), goldenConfig), 60, hold(buttons(tandem.Jump), 10, 30))
	if len(sh["shot"]) < 2 || sh["shot"][0] != 10 {
		t.Errorf("shooter: shots at ticks %v; want from 10, every 8th after", sh["shot"])
	}

	b := heard(t, newSim(t, NewBunnymark(), goldenConfig), 2*goldenHz+1, hold(0, 0, 0))
	if want := []int{1, goldenHz + 1, 2*goldenHz + 1}; len(b["click"]) != 3 || b["click"][1] != want[1] || b["click"][2] != want[2] {
		t.Errorf("bunnymark: clicks at ticks %v; want %v", b["click"], want)
	}
}

// TestSoundsReplay: the same input plays the same sounds at the same ticks
// (a replay's), and a run that plays them reaches the state hash of one
// whose sounds are thrown away.
func TestSoundsReplay(t *testing.T) {
	in := hold(buttons(tandem.Right, tandem.Jump), 30, 200)
	a := heard(t, newSim(t, NewPlatformer(), goldenConfig), 400, in)
	b := heard(t, newSim(t, NewPlatformer(), goldenConfig), 400, in)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("two runs of the same input played\n%v\n%v", a, b)
	}
	if len(a["jump"]) == 0 {
		t.Errorf("no jump in %v", a)
	}
	s1, s2 := newSim(t, NewPlatformer(), goldenConfig), newSim(t, NewPlatformer(), goldenConfig)
	var snap snapshot.Snapshot
	for k := 1; k <= 400; k++ {
		s1.Step(in(k))
		s1.Publish(&snap) // the sounds published
		s2.Step(in(k))    // and never published
	}
	if s1.Hash() != s2.Hash() {
		t.Error("publishing a run's sounds changed its state hash")
	}
}
