//go:build cgo && linux

package tandem

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/jsonline"
	"github.com/tandem-engine/tandem/internal/soundtest"
)

// longWAV is 11 s of mono 16-bit PCM at 48 kHz: streamed, a frame of
// 2 bytes (the layout that once crashed the stream).
func longWAV() []byte {
	const rate, n = 48000, 48000 * 11
	var b bytes.Buffer
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(36+2*n))
	b.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(rate), uint32(2 * rate), uint16(2), uint16(16)} {
		binary.Write(&b, binary.LittleEndian, v)
	}
	b.WriteString("data")
	binary.Write(&b, binary.LittleEndian, uint32(2*n))
	for i := range n {
		binary.Write(&b, binary.LittleEndian, int16((i%40)*300))
	}
	return b.Bytes()
}

// cutter loads the sounds of its folder, plays music.wav as the music
// from tick 1, and at tick 30 cuts that file to nothing while it loops.
// Its state stops changing at tick cutterTicks, so that two runs of
// -seconds 3 end in the same state even when a loaded machine lets one
// step fewer ticks than the other (178 of 180 in a make test run).
const cutterTicks = 120

type cutter struct {
	dir   string
	music Sound
	id    ID
	x     float32
}

func (g *cutter) Info() Info { return Info{Name: "cutter"} }

// StateHash covers the cutter's state, not the tick it was taken at (the
// engine's own hash of the entities counts the ticks).
func (g *cutter) StateHash() uint64 { return uint64(math.Float32bits(g.x)) }

func (g *cutter) Setup(s *Setup) error {
	g.x = 0
	if err := s.Sounds(os.DirFS(g.dir), "*.wav"); err != nil {
		return err
	}
	g.music = s.SoundNamed("music")
	g.id = s.World().Spawn(Sprite{X: 1, Y: 1})
	return nil
}

func (g *cutter) Tick(w *World) {
	if w.Tick() <= cutterTicks {
		g.x++
		w.Move(g.id, g.x, 1)
	}
	switch w.Tick() {
	case 1:
		w.Music(g.music, 0.5)
	case 30:
		os.Truncate(filepath.Join(g.dir, "music.wav"), 0) // a file cut while it plays; not the game's state
	}
}

// TestSoundFaultsInRun: issue 32's faults through the whole command
// line. Looping music cut while it plays: the run ends on time with its
// summary, the stream's failure said once on stderr and in the JSON,
// naming the file, and the state hash is a -mute run's. A FIFO in the
// sounds folder: Setup refuses it at once, naming it.
func TestSoundFaultsInRun(t *testing.T) {
	if !soundtest.InChildEnv() {
		s := soundtest.Start(t)
		soundtest.Child(t, "TestSoundFaultsInRun", s.Env()...)
		return
	}
	dir := t.TempDir()
	g := &cutter{dir: dir}
	run := func(args ...string) (int, string, string) {
		if err := os.WriteFile(filepath.Join(dir, "music.wav"), longWAV(), 0o644); err != nil {
			t.Fatal(err)
		}
		// The run's notices (internal/app's) go to os.Stderr: a file here.
		notes, err := os.CreateTemp(t.TempDir(), "stderr")
		if err != nil {
			t.Fatal(err)
		}
		saved := os.Stderr
		os.Stderr = notes
		var stdout, stderr bytes.Buffer
		code := 0
		within(t, 30*time.Second, strings.Join(args, " "), func() { onMain(func() { code = Command(args, &stdout, &stderr, g) }) })
		os.Stderr = saved
		notes.Close()
		b, _ := os.ReadFile(notes.Name())
		return code, stdout.String(), stderr.String() + string(b)
	}
	code, out, errs := run("run", "-seconds", "3", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	t.Logf("%s\n%s", out, errs)
	if n := jsonline.Field(t, out, "audio_stream_errors"); n != 1.0 {
		t.Errorf("audio_stream_errors %v; want 1", n)
	}
	if e, _ := jsonline.Field(t, out, "audio_stream_error").(string); !strings.Contains(e, "music.wav") || !strings.Contains(e, "cut while playing") {
		t.Errorf("audio_stream_error %q; want the file named and what befell it", e)
	}
	if a, _ := jsonline.Field(t, out, "audio").(string); !strings.Contains(a, "a stream failed at") {
		t.Errorf("audio %q does not say a stream failed", a)
	}
	if n := strings.Count(errs, "sound: stream music.wav:"); n != 1 {
		t.Errorf("stderr says the stream failed %d times; want once:\n%s", n, errs)
	}
	code, muted, errs := run("run", "-seconds", "3", "-json", "-mute")
	if code != 0 || jsonline.Field(t, muted, "state_hash") != jsonline.Field(t, out, "state_hash") {
		t.Errorf("-mute: exit %d, state_hash %v; with sound %v: %s", code, jsonline.Field(t, muted, "state_hash"), jsonline.Field(t, out, "state_hash"), errs)
	}

	if err := syscall.Mkfifo(filepath.Join(dir, "x.wav"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errs = run("run", "-seconds", "3", "-json")
	if code != 1 || !strings.Contains(errs, "x.wav: a FIFO, not a regular file") {
		t.Errorf("a FIFO in the sounds folder: exit %d: %s", code, errs)
	}
}
