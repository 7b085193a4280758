//go:build cgo && linux

package tandem

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/audio"
	"github.com/tandem-engine/tandem/bench"
	"github.com/tandem-engine/tandem/internal/jsonline"
	"github.com/tandem-engine/tandem/internal/soundtest"
	"github.com/tandem-engine/tandem/snapshot"
)

// silentGame is a game that plays nothing itself: the bench's click on each
// press of its key is the only sound.
type silentGame struct{}

func (silentGame) Info() Info { return Info{Name: "silentGame"} }
func (silentGame) Setup(s *Setup) error {
	s.World().Spawn(Sprite{X: 1, Y: 1})
	return nil
}
func (silentGame) Tick(*World) {}

// TestPressToSound measures from outside what a player hears: real key
// presses through XTest (the bench's -input real), the first present whose
// frame shows each (inputs.csv, found by the bench's probe colour read
// back), and the click each press plays found in a recording of the
// PulseAudio null sink's monitor put on the same monotonic clock
// (soundtest.RecordTimed). It checks what must hold on any machine: every
// click heard, the heard gaps their aimed gaps within 1 ms at p99, every
// row of sounds.csv (the first ones included: -warmup 0) within 1 ms of
// its aim, each heard where its start record says (within 1 ms at
// p50), and the summary's av_offset_ms_p50 within 3 ms of the heard
// sound-after-picture. The latencies themselves are figures, not
// asserted (scripts/sound-latency prints them for docs/results): a
// RESULT line per run. make test runs the threaded loop under 25 ms of
// render work; TANDEM_PRESS_RUNS names others
// (LOOP:RENDERCOST[:av-lock][:fpsN][:BUFFER],...; fpsN caps the frame rate at N);
// TANDEM_PRESS_ALSA=1 plays through ALSA's pulse plugin instead.
func TestPressToSound(t *testing.T) {
	if raceEnabled {
		t.Skip("times the sound device against the sim, which the race detector slows: make test runs it alone without -race")
	}
	if soundtest.InChildEnv() {
		pressToSoundChild(t, os.Getenv("TANDEM_PRESS_RUN"))
		return
	}
	needDisplay(t)
	s := soundtest.Start(t)
	runs := os.Getenv("TANDEM_PRESS_RUNS")
	if runs == "" {
		runs = "threaded:25ms"
	}
	env := s.Env()
	if os.Getenv("TANDEM_PRESS_ALSA") != "" {
		// Through ALSA: its default device the pulse plugin pointed at
		// the server, which the run's own PulseAudio client cannot find.
		home := t.TempDir()
		rc := fmt.Sprintf("pcm.!default { type pulse server \"unix:%s\" }\n", s.Socket)
		if err := os.WriteFile(filepath.Join(home, ".asoundrc"), []byte(rc), 0o644); err != nil {
			t.Fatal(err)
		}
		env = []string{"PULSE_SERVER=unix:" + filepath.Join(home, "none"), "XDG_RUNTIME_DIR=" + home, "HOME=" + home, "TANDEM_TEST_SOCKET=" + s.Socket}
	}
	for _, run := range strings.Split(runs, ",") {
		t.Run(run, func(t *testing.T) {
			soundtest.Child(t, "TestPressToSound", append(env, "TANDEM_PRESS_RUN="+run)...)
		})
	}
}

// pressToSoundChild is TestPressToSound's run, in a process of its own.
func pressToSoundChild(t *testing.T, run string) {
	parts := strings.Split(run, ":")
	if len(parts) < 2 {
		t.Fatalf("run %q: want LOOP:RENDERCOST[:av-lock][:fpsN][:BUFFER]", run)
	}
	out := t.TempDir()
	seconds := cmpOr(os.Getenv("TANDEM_PRESS_SECONDS"), "8")
	args := []string{"bench", "-loop", parts[0], "-rendercost", parts[1], "-seconds", seconds, "-warmup", "0",
		"-input", "xtest", "-json", "-out", out}
	for _, p := range parts[2:] {
		switch {
		case p == "av-lock":
			args = append(args, "-av-lock")
		case strings.HasPrefix(p, "fps"):
			args = append(args, "-fps-cap", strings.TrimPrefix(p, "fps"))
		default:
			args = append(args, "-audio-buffer", p)
		}
	}
	stop := soundtest.RecordTimed(t, snapshot.Now)
	var stdout, stderr bytes.Buffer
	code := 0
	onMain(func() { code = Command(args, &stdout, &stderr, silentGame{}) })
	c := stop()
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, stderr.String())
	}
	sum := stdout.String()
	t.Logf("%s: %s", run, sum)
	if src := jsonline.Field(t, sum, "input_source"); src != nil && !strings.Contains(fmt.Sprint(src), "xtest") {
		t.Fatalf("input_source %v: the presses must be real (XTest)", src)
	}
	presses, err := bench.ReadCSVFile(filepath.Join(out, "inputs.csv"), bench.ReadPressesCSV)
	if err != nil {
		t.Fatal(err)
	}
	ticks := soundsColumn(t, filepath.Join(out, "sounds.csv"), 0)
	aimed := soundsColumn(t, filepath.Join(out, "sounds.csv"), 1)
	starts := soundsColumn(t, filepath.Join(out, "sounds.csv"), 2)
	on := soundtest.Onsets(c.Frames, 0.2, soundtest.Rate/100)
	heardAt := func(i int) int64 { return c.At(on[i]) }
	if len(on) != len(starts) {
		t.Fatalf("%d clicks in the recording, %d in sounds.csv: lost or doubled", len(on), len(starts))
	}
	var startErr, heardErr, gapErr []float64
	for i := range starts {
		startErr = append(startErr, math.Abs(float64(starts[i]-aimed[i]))/1e6)
		heardErr = append(heardErr, float64(heardAt(i)-starts[i])/1e6)
		if i > 0 {
			gapErr = append(gapErr, math.Abs(float64((heardAt(i)-heardAt(i-1))-(aimed[i]-aimed[i-1])))/1e6)
		}
	}
	byTick := map[uint64]int{}
	for i, tk := range ticks {
		byTick[uint64(tk)] = i
	}
	var toSound, toPicture, after []float64
	for _, p := range presses {
		i, ok := byTick[p.Tick+1] // sounds.csv numbers ticks from 1, the press rows from 0
		if !p.Down || !ok {
			continue
		}
		toSound = append(toSound, float64(heardAt(i)-p.At)/1e6)
		toPicture = append(toPicture, float64(p.Present-p.At)/1e6)
		after = append(after, float64(heardAt(i)-p.Present)/1e6)
	}
	if len(toSound) < 8 {
		t.Logf("presses %+v; ticks %v", presses, ticks)
		t.Fatalf("%d presses heard and shown; want at least 8", len(toSound))
	}
	q := func(v []float64, p float64) float64 { return bench.Percentile(slices.Clone(v), p) }
	jsonAV, _ := jsonline.Field(t, sum, "av_offset_ms_p50").(float64)
	underruns, _ := jsonline.Field(t, sum, "audio_underruns").(float64)
	serverUnderflows, counted := jsonline.Field(t, sum, "audio_server_underflows").(float64)
	if alsa := os.Getenv("TANDEM_PRESS_ALSA") != ""; !counted && !alsa {
		t.Fatalf("audio_server_underflows %v: want the server's count (the mixer plays on a PulseAudio stream of its own here)", jsonline.Field(t, sum, "audio_server_underflows"))
	} else if src := jsonline.Field(t, sum, "audio_latency_source"); alsa && src != "alsa" {
		t.Fatalf("audio_latency_source %v: want alsa (ALSA's delay of the mixer's own PCM)", src)
	}
	t.Logf("RESULT run=%s presses=%d press_to_sound_p50=%.1f press_to_sound_p99=%.1f press_to_picture_p50=%.1f after_picture_p1=%.1f after_picture_p50=%.1f after_picture_p99=%.1f json_av_offset_p50=%.2f heard_minus_start_p50=%.2f gap_err_p99=%.3f start_err_max=%.3f underruns=%.0f server_underflows=%.0f device_latency=%v offset_floor=%v sink_ahead=%.1f sink_ppm=%.1f",
		run, len(toSound), q(toSound, 0.5), q(toSound, 0.99), q(toPicture, 0.5), q(after, 0.01), q(after, 0.5), q(after, 0.99),
		jsonAV, q(heardErr, 0.5), q(gapErr, 0.99), slices.Max(startErr), underruns, serverUnderflows,
		jsonline.Field(t, sum, "audio_device_latency_ms"), jsonline.Field(t, sum, "audio_latency_ms"), float64(c.Ahead)/1e6, c.PPM)
	// A device that ran dry, by the mixer's count or the server's, shifts
	// every later click by the silence it played: the run's timing checks
	// cannot hold, and its parent runs it again (soundtest.Child), at
	// most three times. scripts/sound-latency
	// counts underruns over many runs for docs/results.
	soundtest.Underran(t, int64(max(underruns, serverUnderflows)))
	// So does a sim thread the machine held past the offset's margin: its
	// tick's click started late.
	late, _ := jsonline.Field(t, sum, "tick_late_ms_max").(float64)
	soundtest.LateTick(t, late, audio.DefaultMargin)
	if m := slices.Max(startErr); m > 1 {
		t.Errorf("a row of sounds.csv starts %.3f ms off its aim; want every row, the first included, within 1 ms", m)
	}
	if p := q(gapErr, 0.99); p > 1 {
		t.Errorf("heard gaps off their aimed gaps by %.3f ms at p99; want within 1 ms", p)
	}
	if p := q(heardErr, 0.5); math.Abs(p) > 1 {
		t.Errorf("clicks heard %.2f ms after their start records at p50; want within 1 ms: the device's latency is not what was measured", p)
	}
	if d := jsonAV - q(after, 0.5); math.Abs(d) > 3 {
		t.Errorf("av_offset_ms_p50 %.2f, heard %.2f: want within 3 ms", jsonAV, q(after, 0.5))
	}
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
