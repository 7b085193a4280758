package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// mistakesGame makes, by its -mistake flag, one of the mistakes a game
// makes first: a misspelt image or sound name, a truncated WAV, a sounds
// pattern that is not one, a shader that does not compile, and a bad
// value of its own -speed flag.
const mistakesGame = `package main

import (
	"flag"
	"image"
	"os"

	"github.com/tandem-engine/tandem"
)

var (
	speed   = flag.Int("speed", 1, "px a tick, 1 to 20")
	mistake = flag.String("mistake", "", "which mistake Setup makes")
	assets  = flag.String("assets", ".", "the folder of sounds")
)

type game struct{}

func (game) Setup(s *tandem.Setup) error {
	if *speed < 1 || *speed > 20 {
		return &tandem.FlagError{Flag: "speed", Value: *speed, Want: "1 to 20 px a tick"}
	}
	fsys := os.DirFS(*assets)
	s.Image("player", image.NewRGBA(image.Rect(0, 0, 8, 8)))
	s.Image("coin", image.NewRGBA(image.Rect(0, 0, 8, 8)))
	if err := s.Sounds(fsys, "sounds/*.wav"); err != nil {
		return err
	}
	switch *mistake {
	case "frame":
		s.Frame("playr")
	case "sound":
		s.SoundNamed("jmup")
	case "wav":
		if err := s.Sounds(fsys, "cut/*.wav"); err != nil {
			return err
		}
	case "pattern":
		if err := s.Sounds(fsys, "sounds/[.wav"); err != nil {
			return err
		}
	case "shader":
		sh, err := s.Shader("wobble", "#version 410 core\nin vec2 v_uv;\nout vec4 o_color;\nvoid main() { o_color = vec3(v_uv, 1.0); }\n")
		if err != nil {
			return err
		}
		s.ScreenShader(sh)
	}
	s.World().Spawn(tandem.Sprite{Frame: s.Frame("player")})
	return nil
}

func (game) Tick(w *tandem.World) {}

func main() { tandem.Main(game{}) }
`

// TestMistakesBeforeDisplay runs a game's first mistakes with no X server
// to be had (no DISPLAY, no Xvfb on PATH): each must print its message
// and exit before a display is asked for, 2 for the game's own flag as
// for tandem's, 1 for the rest. The same game without a mistake then
// fails for want of a display, which shows that none could be reached.
func TestMistakesBeforeDisplay(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mistakes")
	goCmd(t, "build", "-o", bin, writeGame(t, mistakesGame))
	assets := t.TempDir()
	for _, f := range []struct {
		name string
		data []byte
	}{{"sounds/jump.wav", testWAV(100)}, {"sounds/coin.wav", testWAV(100)}, {"cut/cut.wav", testWAV(100)[:60]}} {
		p := filepath.Join(assets, f.name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// No display and no X server to start: PATH is an empty folder.
	env := []string{"PATH=" + t.TempDir(), "HOME=" + t.TempDir()}
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"-speed", "0"}, 2, []string{"mistakes run: -speed 0: want 1 to 20 px a tick"}},
		{[]string{"bench", "-speed", "99"}, 2, []string{"mistakes bench: -speed 99: want 1 to 20 px a tick"}},
		{[]string{"bench", "-matrix", "-reps", "1", "-speed", "99"}, 2, []string{"mistakes bench: -speed 99: want 1 to 20 px a tick"}},
		{[]string{"-mistake", "frame"}, 1, []string{`no image called "playr": did you mean "player"? the images are coin, player`}},
		{[]string{"-mistake", "sound"}, 1, []string{`no sound called "jmup": did you mean "jump"? the sounds are coin, jump`}},
		{[]string{"-mistake", "wav"}, 1, []string{"cut.wav"}},
		{[]string{"-mistake", "pattern"}, 1, []string{`sounds "sounds/[.wav"`, "syntax error in pattern"}},
		{[]string{"-speed", "0", "-json"}, 2, []string{`"error":"-speed 0: want 1 to 20 px a tick","exit_code":2`}},
		// A vec3 where a vec4 goes: the driver's compile, in a GL context
		// with no display (internal/glcheck: EGL, which Linux CI has).
		{[]string{"-mistake", "shader"}, 1, []string{`tandem: shader "wobble": line 4: `, "4 | void main() { o_color = vec3(v_uv, 1.0); }"}},
	} {
		if tc.args[len(tc.args)-1] == "shader" && runtime.GOOS != "linux" {
			continue // elsewhere the window's compile is the first (docs/drawing.md)
		}
		cmd := exec.Command(bin, append(tc.args, "-assets", assets, "-seconds", "1")...)
		cmd.Env = env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
			t.Errorf("%v: %v, want exit code %d\n%s", tc.args, err, tc.code, stderr.String())
			continue
		}
		out := stdout.String() + stderr.String()
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v says no %q:\n%s", tc.args, w, out)
			}
		}
		if strings.Contains(out, "Xvfb") || strings.Contains(out, "display") {
			t.Errorf("%v reached for a display before its message:\n%s", tc.args, out)
		}
	}
	// The control: without a mistake the run goes on to ask for a
	// display, and there is none.
	cmd := exec.Command(bin, "-assets", assets, "-seconds", "1")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "Xvfb") {
		t.Fatalf("no mistake: %v\n%s\nwant exit code 1 and a message asking for Xvfb", err, out)
	}
}

// testWAV is a 16-bit mono PCM WAV of n samples of a quiet square wave.
func testWAV(n int) []byte {
	var b bytes.Buffer
	w := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	w(uint32(36 + 2*n))
	b.WriteString("WAVEfmt ")
	w(uint32(16))
	w(uint16(1))     // PCM
	w(uint16(1))     // mono
	w(uint32(44100)) // rate
	w(uint32(88200)) // bytes a second
	w(uint16(2))     // block
	w(uint16(16))    // bits
	b.WriteString("data")
	w(uint32(2 * n))
	for i := range n {
		w(int16(1000 - 2000*(i/10%2)))
	}
	return b.Bytes()
}
