//go:build cgo && linux

package tandem

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tandem-engine/tandem/audio"
	"github.com/tandem-engine/tandem/internal/jsonline"
	"github.com/tandem-engine/tandem/internal/soundtest"
	"github.com/tandem-engine/tandem/replay"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

// stepper beeps on each tick its autoplay's jump goes down, and steps by
// an amount its tick decides, so that a replay that applied a press on
// another tick would hash apart; on tick 5 it plays 18 beeps, 2 past the
// cap. Its autoplay stops at tick 100, so every sound has started before
// a 3 s run ends.
type stepper struct {
	beep Sound
	me   ID
	x    float32
}

func (g *stepper) Info() Info { return Info{Name: "stepper"} }

func (g *stepper) Setup(s *Setup) error {
	*g = stepper{}
	g.beep = s.Sound("beep", beepWAV())
	g.me = s.World().Spawn(Sprite{X: 1, Y: 1})
	s.Autoplay(func(tick uint64) Actions {
		if tick <= 100 && tick%9 < 3 {
			return Hold(Jump)
		}
		return 0
	})
	return nil
}

func (g *stepper) Tick(w *World) {
	if w.Tick() == 5 {
		for range 18 {
			w.Play(g.beep, 0.05, 0)
		}
	}
	if w.Pressed(Jump) {
		g.x += float32(w.Tick()%5 + 1)
		w.Play(g.beep, 1, 0)
	}
	w.Move(g.me, g.x, 1)
}

// soundTicks is a sim that notes the tick of each play it publishes: what
// the loop hands the mixer (a republished tick, as a pause makes, once).
type soundTicks struct {
	*Sim
	ticks []uint64
}

var _ simthread.Sim = (*soundTicks)(nil)

func (s *soundTicks) Step(in simthread.TickInput) { s.Sim.step(in) }

func (s *soundTicks) Publish(dst *snapshot.Snapshot) {
	s.Sim.publish(dst)
	if k := s.Sim.Tick(); len(s.ticks) > 0 && s.ticks[len(s.ticks)-1] >= k {
		return
	}
	for _, e := range dst.Sounds.List[:dst.Sounds.N] {
		if audio.Op(e.Op) == audio.OpPlay || audio.Op(e.Op) == audio.OpMusic {
			s.ticks = append(s.ticks, s.Sim.Tick())
		}
	}
}

// TestReplaySounds: a bench run with sound, its presses from autoplay,
// recorded with -record, replays to the same state hash (replay -fast
// -verify), and the replay publishes its plays on the very ticks of the
// sounds the device started in the run: sounds.csv's ticks, row for row.
// The 2 plays past tick 5's cap are in audio_plays_dropped.
func TestReplaySounds(t *testing.T) {
	if raceEnabled {
		t.Skip("plays in real time into a sound server: make test runs it without -race")
	}
	if !soundtest.InChildEnv() {
		s := soundtest.Start(t)
		soundtest.Child(t, "TestReplaySounds", s.Env()...)
		return
	}
	needDisplay(t)
	dir := t.TempDir()
	rec, out := filepath.Join(dir, "run.tdr"), filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	code := 0
	onMain(func() {
		code = Command([]string{"bench", "-seconds", "3", "-warmup", "0", "-input", "synthetic", "-autoplay",
			"-record", rec, "-json", "-out", out}, &stdout, &stderr, &stepper{})
	})
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, stderr.String())
	}
	hash := jsonline.Field(t, stdout.String(), "state_hash")
	if d := jsonline.Field(t, stdout.String(), "audio_plays_dropped"); d != 2.0 {
		t.Errorf("audio_plays_dropped %v; want 2", d)
	}
	var heard []uint64
	for _, k := range soundsColumn(t, filepath.Join(out, "sounds.csv"), 0) {
		heard = append(heard, uint64(k))
	}
	if len(heard) < 16+10 {
		t.Fatalf("sounds.csv has %d rows; want tick 5's 16 and a beep per press", len(heard))
	}

	var rout, rerr bytes.Buffer
	onMain(func() { code = Command([]string{"replay", "-fast", "-verify", "-json", rec}, &rout, &rerr, &stepper{}) })
	if code != 0 || jsonline.Field(t, rout.String(), "state_hash") != hash || jsonline.Field(t, rout.String(), "verified") != true {
		t.Fatalf("replay -fast: exit %d, %s (recorded state hash %v); stderr: %s", code, rout.String(), hash, rerr.String())
	}

	r, err := replay.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	h := r.Header
	sim, err := NewSim(&stepper{}, SimConfig{Hz: h.Hz, Seed: h.Seed, Sprites: h.Sprites, Width: h.ArenaW, Height: h.ArenaH})
	if err != nil {
		t.Fatal(err)
	}
	st := &soundTicks{Sim: sim}
	v := r.NewVerifier()
	ticks, err := replay.Fast(context.Background(), st, r, v)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Verify(v, ticks, sim.Hash()); err != nil || fmt.Sprintf("%016x", sim.Hash()) != hash {
		t.Errorf("replayed to %016x (%v); recorded %v", sim.Hash(), err, hash)
	}
	if !slices.Equal(st.ticks, heard) {
		t.Errorf("the replay plays on ticks %v;\nthe run's sounds.csv has %v", st.ticks, heard)
	}
	t.Logf("%d sounds on the same ticks, state hash %v, %d ticks", len(heard), hash, ticks)
}
