//go:build cgo && linux

package audio

import (
	"bufio"
	"math"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/tandem-engine/tandem/internal/soundtest"
)

// TestWASAPIUnderWine runs the Windows build of this package's
// TestWASAPIChild under Wine (its path in TANDEM_WINE_AUDIO_TEST;
// scripts/wasapi-wine builds it and sets it), on a PulseAudio null sink of
// its own, which Wine's WASAPI reaches through winepulse.drv, and records
// the sink's monitor here on the clock Wine's performance counter reads
// (CLOCK_MONOTONIC_RAW in Wine 8). The child checks what Windows can; this
// side hears each of its 20 clicks in the recording and puts it against
// its start record: the median says how far from what is heard Wine's
// device position puts a frame (a few ms: Wine paces its position by
// PulseAudio's clock, a period at each tick of a timer of its own), the
// spread how far the clock moved during the clicks. Wine's position
// re-phases by 1 to 3 ms now and then as its timer does, and the clock
// follows it: the bound here is Wine's, not the sample-exact gaps that
// TestPulseClicks holds tandem's own PulseAudio stream to
// (docs/results/2026-11-27-sound-wasapi.md).
func TestWASAPIUnderWine(t *testing.T) {
	exe := wineExe(t)
	s := soundtest.Start(t)
	t.Setenv("TANDEM_TEST_SOCKET", s.Socket)
	stop := soundtest.RecordTimed(t, func() int64 { return clockNs(unix.CLOCK_MONOTONIC_RAW) })
	var starts []int64
	underWine(t, exe, "TestWASAPIChild", s, func(line string) {
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "WASAPI-QPC":
			// The counter is CLOCK_MONOTONIC_RAW's 100 ns ticks: read a
			// moment later here, through a pipe.
			q, _ := strconv.ParseInt(f[1], 10, 64)
			raw := clockNs(unix.CLOCK_MONOTONIC_RAW)
			if d := raw - q*100; d < 0 || d > 200e6 {
				t.Errorf("Wine's counter %d ns read %.1f ms before CLOCK_MONOTONIC_RAW here: not its clock", q*100, float64(d)/1e6)
			}
		case len(f) == 1 && f[0] == "WASAPI-PLAYING":
			// What PulseAudio holds of Wine's stream: Wine's device
			// position does not count it.
			if p, err := exec.Command("pactl", "--server=unix:"+s.Socket, "list", "sink-inputs").Output(); err == nil {
				t.Logf("sink inputs while it plays:\n%s", p)
			}
		case len(f) == 3 && f[0] == "WASAPI-START":
			at, _ := strconv.ParseInt(f[1], 10, 64)
			starts = append(starts, at)
		}
	})
	c := stop()
	on := soundtest.Onsets(c.Frames, 0.3, 100)
	if len(on) != len(starts) || len(starts) != 20 {
		t.Fatalf("%d onsets recorded, %d start records; want 20 of each", len(on), len(starts))
	}
	var heard []float64
	for i, st := range starts {
		heard = append(heard, float64(c.At(on[i])-st)/1e6)
	}
	t.Logf("sink latency added %.2f ms; heard - start (ms): %.2f", float64(c.Ahead)/1e6, heard)
	slices.Sort(heard)
	p50, spread := heard[len(heard)/2], heard[len(heard)-1]-heard[0]
	t.Logf("heard after the start record: median %.2f ms, spread %.2f ms", p50, spread)
	if spread > 5 {
		t.Errorf("heard - start spreads %.2f ms over the clicks; want at most 5 (Wine's position re-phasing by up to 3 ms)", spread)
	}
	if math.Abs(p50) > 15 {
		t.Errorf("heard %.2f ms after the start records say (median): want within 15 ms (Wine's 10 ms period and its timer's half-period adjustments)", p50)
	}
}

// clockNs reads clock id, ns.
func clockNs(id int32) int64 {
	var ts unix.Timespec
	unix.ClockGettime(id, &ts)
	return ts.Nano()
}

// TestWASAPIGoneUnderWine kills the sound server behind Wine's device
// while TestWASAPIGoneChild plays on it: the child checks the run goes
// on and says so.
func TestWASAPIGoneUnderWine(t *testing.T) {
	exe := wineExe(t)
	s := soundtest.Start(t)
	underWine(t, exe, "TestWASAPIGoneChild", s, func(line string) {
		if strings.TrimSpace(line) == "WASAPI-KILL" {
			s.Kill()
		}
	})
}

// wineExe returns the Windows test program to run under Wine, or skips
// the test when none was built (scripts/wasapi-wine sets it).
func wineExe(t *testing.T) string {
	t.Helper()
	exe := os.Getenv("TANDEM_WINE_AUDIO_TEST")
	if exe == "" {
		t.Skip("scripts/wasapi-wine cross-builds this package's tests for Windows and runs this one with TANDEM_WINE_AUDIO_TEST set")
	}
	return exe
}

// underWine runs the Windows test child of exe under Wine, sent to s's
// sound server, hands each line it prints to line as it comes, and fails
// t unless the child passed.
func underWine(t *testing.T, exe, child string, s *soundtest.Server, line func(string)) {
	t.Helper()
	cmd := exec.Command("wine", exe, "-test.run=^"+child+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), append(s.Env(), "TANDEM_AUDIO_CHILD=1")...)
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	sc := bufio.NewScanner(pipe)
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		line(sc.Text())
	}
	err = cmd.Wait()
	t.Logf("wine %s:\n%s", exe, out.String())
	if err != nil || !strings.Contains(out.String(), "--- PASS: "+child) {
		t.Errorf("%s under Wine: %v", child, err)
	}
}
