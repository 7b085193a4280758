package tandem

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/tandem-engine/tandem/audio"
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/internal/mallocs"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

// beepWAV is a 10 ms 16-bit mono WAV.
func beepWAV() []byte {
	var b bytes.Buffer
	n := 441
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(36+2*n))
	b.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(44100), uint32(88200), uint16(2), uint16(16)} {
		binary.Write(&b, binary.LittleEndian, v)
	}
	b.WriteString("data")
	binary.Write(&b, binary.LittleEndian, uint32(2*n))
	for i := range n {
		binary.Write(&b, binary.LittleEndian, int16((i%50)*400))
	}
	return b.Bytes()
}

// beeper plays a beep every 3rd tick and stops it the tick after, and
// the music at tick 1.
type beeper struct {
	beep, tune Sound
	x          float32
	id         ID
}

func (g *beeper) Setup(s *Setup) error {
	fsys := fstest.MapFS{"sfx/beep.wav": {Data: beepWAV()}, "sfx/tune.wav": {Data: beepWAV()}}
	if err := s.Sounds(fsys, "sfx/*.wav"); err != nil {
		return err
	}
	g.beep, g.tune = s.SoundNamed("beep"), s.SoundNamed("tune")
	g.id = s.World().Spawn(Sprite{X: 1, Y: 1})
	return nil
}

func (g *beeper) Tick(w *World) {
	g.x++
	w.Move(g.id, g.x, 1)
	if w.Tick() == 1 {
		w.Music(g.tune, 0.5)
	}
	if w.Tick()%3 == 0 {
		w.Play(g.beep, 1, -0.5)
	}
}

// quiet is beeper without a sound.
type quiet struct{ beeper }

func (g *quiet) Tick(w *World) {
	g.x++
	w.Move(g.id, g.x, 1)
}

// TestPlayIsOutput: a tick's plays are published with its snapshot, and
// they are not state: a game that plays and one that does not hash alike.
func TestPlayIsOutput(t *testing.T) {
	a, err := NewSim(&beeper{}, SimConfig{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewSim(&quiet{}, SimConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var snap snapshot.Snapshot
	for k := 1; k <= 30; k++ {
		a.Steps(1)
		b.Steps(1)
		a.publish(&snap)
		want := 0
		if k == 1 || k%3 == 0 {
			want = 1
		}
		if snap.Sounds.N != want {
			t.Fatalf("tick %d: %d sound events published; want %d", k, snap.Sounds.N, want)
		}
		if k%3 == 0 && (snap.Sounds.List[0].Sound != 0 || snap.Sounds.List[0].Pan != -0.5 || snap.Sounds.List[0].Op != 1) {
			t.Errorf("tick %d: event %+v", k, snap.Sounds.List[0])
		}
		if a.Hash() != b.Hash() {
			t.Fatalf("tick %d: a game that plays sounds hashes differently from one that does not", k)
		}
	}
	if n := len(forLoop(a).Sounds()); n != 2 {
		t.Errorf("%d sounds for the loop; want 2", n)
	}
	n := mallocs.Fewest(3, func() {
		for range 300 {
			a.Steps(1)
			a.publish(&snap)
		}
	})
	if n != 0 {
		t.Errorf("%d allocations in 300 ticks that play sounds; want 0", n)
	}
}

// TestSoundErrors: a bad sound file fails Setup, naming it.
func TestSoundErrors(t *testing.T) {
	bad := beepWAV()
	bad = bad[:len(bad)-100]
	_, err := NewSim(gameFunc(func(s *Setup) error {
		s.Sound("cut.wav", bad)
		return nil
	}), SimConfig{})
	if err == nil || !strings.Contains(err.Error(), "cut.wav") || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("error %v; want one naming cut.wav as truncated", err)
	}
	_, err = NewSim(gameFunc(func(s *Setup) error {
		s.SoundNamed("nope")
		return nil
	}), SimConfig{})
	if err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("error %v; want one naming nope", err)
	}
}

// flooder plays 20 sounds a tick, 4 past the cap, and on tick 2 a stop
// and the music past it too.
type flooder struct{ beeper }

func (g *flooder) Tick(w *World) {
	for range 20 {
		w.Play(g.beep, 1, 0)
	}
	if w.Tick() == 2 {
		w.Stop(1)
		w.Music(g.tune, 1)
	}
}

// TestPlaysPastCapCounted: a tick's sound calls past MaxSoundsPerTick do
// nothing, are not published, and are counted where the summary reads
// them (audio_plays_dropped).
func TestPlaysPastCapCounted(t *testing.T) {
	s, err := NewSim(&flooder{}, SimConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var snap snapshot.Snapshot
	s.Steps(1)
	s.publish(&snap)
	if snap.Sounds.N != MaxSoundsPerTick {
		t.Errorf("%d events published; want the cap, %d", snap.Sounds.N, MaxSoundsPerTick)
	}
	if got := forLoop(s).SoundsDropped(); got != 20-MaxSoundsPerTick {
		t.Errorf("after tick 1: %d dropped; want %d", got, 20-MaxSoundsPerTick)
	}
	if v := s.World().Play(1, 1, 0); v != 0 { // a 21st play of tick 1
		t.Errorf("a play past the cap returned voice %d; want 0", v)
	}
	s.Steps(2)
	if got, want := forLoop(s).SoundsDropped(), int64(3*(20-MaxSoundsPerTick)+1+2); got != want {
		t.Errorf("after 3 ticks: %d dropped; want %d (4 plays a tick, the 21st, a stop and the music)", got, want)
	}
}

// opener plays a sound and starts the music in its Setup.
type opener struct{ beep, tune Sound }

func (g *opener) Info() Info { return Info{Name: "opener"} }
func (g *opener) Setup(s *Setup) error {
	g.beep, g.tune = s.Sound("beep", beepWAV()), s.Sound("tune", beepWAV())
	s.World().Play(g.beep, 1, 0)
	s.World().Music(g.tune, 0.5)
	return nil
}
func (g *opener) Tick(*World) {}

// TestPlayInSetup: a Play and a Music called in Setup are published with
// the first tick, as if the first tick had made them, and not again.
func TestPlayInSetup(t *testing.T) {
	s, err := NewSim(&opener{}, SimConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var snap snapshot.Snapshot
	s.Steps(1)
	s.publish(&snap)
	if snap.Sounds.N != 2 || snap.Sounds.List[0].Op != uint8(audio.OpPlay) || snap.Sounds.List[1].Op != uint8(audio.OpMusic) {
		t.Fatalf("tick 1 published %d sound events %+v; want Setup's play and music", snap.Sounds.N, snap.Sounds.List[:snap.Sounds.N])
	}
	s.Steps(1)
	s.publish(&snap)
	if snap.Sounds.N != 0 {
		t.Errorf("tick 2 published %d sound events; want none", snap.Sounds.N)
	}
}

// TestWorldOffThread: the world of a game the loop runs, called from
// outside its Setup and Tick (as an Autoplay callback would, on another
// thread), panics saying so, before it touches anything.
func TestWorldOffThread(t *testing.T) {
	es, err := gameForLoop{&opener{}}.NewSim(engine.SimConfig{Hz: 60, SpriteSize: 32, Sprites: 16})
	if err != nil {
		t.Fatal(err)
	}
	s := es.(*simForLoop)
	for name, call := range map[string]func(w *World){
		"Play": func(w *World) { w.Play(1, 1, 0) }, "Music": func(w *World) { w.Music(1, 1) },
		"Stop": func(w *World) { w.Stop(1) }, "StopMusic": func(w *World) { w.StopMusic() },
	} {
		func() {
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, "World."+name+" called outside the game's Setup and Tick") {
					t.Errorf("%s off the sim thread: panic %q; want one saying the world belongs to the sim thread", name, msg)
				}
			}()
			done := make(chan struct{})
			var p any
			go func() { defer close(done); defer func() { p = recover() }(); call(s.World()) }()
			<-done
			panic(p)
		}()
	}
	s.Step(simthread.TickInput{}) // and from its Tick, the sim's own, it plays
}
