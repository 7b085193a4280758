//go:build cgo && linux

package tandem

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/tandem-engine/tandem/internal/jsonline"
	"github.com/tandem-engine/tandem/replay"
)

// selfPlayer plays itself through Setup.Autoplay: its own action held
// for the first 10 of every 20 ticks. It counts the presses its ticks
// see, and the ticks that saw Right held (the default autoplay's).
type selfPlayer struct {
	presses, right, held int64
}

const fire = FirstFreeAction

func (g *selfPlayer) Info() Info { return Info{Name: "selfplayer"} }
func (g *selfPlayer) Setup(s *Setup) error {
	*g = selfPlayer{}
	s.Autoplay(func(tick uint64) Actions {
		if tick%20 < 10 {
			return Hold(fire)
		}
		return 0
	})
	return nil
}
func (g *selfPlayer) Tick(w *World) {
	if w.Pressed(fire) {
		g.presses++
	}
	if w.Down(fire) {
		g.held++
	}
	if w.Down(Right) {
		g.right++
	}
}
func (g *selfPlayer) StateHash() uint64 {
	return uint64(g.presses)<<40 | uint64(g.held)<<20 | uint64(g.right)
}
func (g *selfPlayer) Counters(add func(string, int64)) {
	add("presses", g.presses)
	add("held_ticks", g.held)
	add("right_ticks", g.right)
}

// TestGameAutoplay checks a game's own autoplay: -autoplay holds what it
// says instead of running right and jumping, through the input queue, so
// that -record records it and a replay reproduces the run.
func TestGameAutoplay(t *testing.T) {
	var held []uint64
	s, err := NewSim(&selfPlayer{}, SimConfig{})
	if err != nil {
		t.Fatal(err)
	}
	play := forLoop(s).Look().Autoplay
	if play == nil {
		t.Fatal("Setup.Autoplay did not reach the loop")
	}
	for tick := uint64(1); tick <= 40; tick++ {
		if play(tick) != 0 {
			held = append(held, tick)
		}
	}
	if len(held) != 20 || held[0] != 1 || held[8] != 9 || held[9] != 20 || held[19] != 40 {
		t.Errorf("held at ticks %v, want 1-9, 20-29 and 40", held)
	}

	needDisplay(t)
	rec := filepath.Join(t.TempDir(), "self.tdr")
	var stdout, stderr bytes.Buffer
	code := 0
	onMain(func() {
		code = Command([]string{"run", "-seconds", "1.5", "-autoplay", "-record", rec, "-json"}, &stdout, &stderr, &selfPlayer{})
	})
	if code != 0 {
		t.Fatalf("run -autoplay: exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	// 1.5 s is 90 ticks: presses at about ticks 1, 20, 40, 60 and 80.
	if p := jsonline.Field(t, out, "presses").(float64); p < 3 {
		t.Errorf("the game's autoplay pressed %v times in 1.5 s, want about 5", p)
	}
	if r := jsonline.Field(t, out, "right_ticks").(float64); r != 0 {
		t.Errorf("Right held for %v ticks: the default autoplay ran instead of the game's", r)
	}
	r, err := replay.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Events) < 6 {
		t.Errorf("recording holds %d events, want the autoplay's presses and releases", len(r.Events))
	}
	stdout.Reset()
	onMain(func() {
		code = Command([]string{"replay", "-fast", "-verify", "-json", rec}, &stdout, &stderr, &selfPlayer{})
	})
	if code != 0 || jsonline.Field(t, stdout.String(), "state_hash") != jsonline.Field(t, out, "state_hash") {
		t.Errorf("replay -fast -verify: exit %d, %s; stderr %s", code, stdout.String(), stderr.String())
	}
}
