//go:build cgo && linux

package audio

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/mallocs"
	"github.com/tandem-engine/tandem/internal/soundtest"
	"github.com/tandem-engine/tandem/snapshot"
)

// TestALSAStreamAllocs: on the mixer's own ALSA PCM, serving the device
// (each fill, ALSA's delay read at it and the windows handed to the
// mixer) allocates nothing: the whole process's mallocs over a second of
// fills, the quietest of three seconds.
func TestALSAStreamAllocs(t *testing.T) {
	t.Parallel() // a server and a child process of its own: it mostly waits on real time
	soundtest.Child(t, "TestALSAStreamAllocsChild", alsaEnv(t)...)
}

func TestALSAStreamAllocsChild(t *testing.T) {
	soundtest.InChild(t)
	out, d := openALSA(t, nil)
	time.Sleep(500 * time.Millisecond)
	// The quietest of three seconds that streamed: a second the device
	// stalled in (an xrun on a loaded machine: once, in the race pass, no
	// frame in a whole second) allocates nothing because nothing ran, and
	// proves nothing. Up to six seconds are tried.
	var frames, fills int64
	n, streamed := ^uint64(0), 0
	for range 6 {
		var fr, fi int64
		c := mallocs.Count(func() {
			f0, w0 := out.Stats().Frames, d.fills.Load()
			time.Sleep(time.Second)
			fr, fi = out.Stats().Frames-f0, d.fills.Load()-w0
		})
		if fr < soundtest.Rate/2 || fi < 10 {
			t.Logf("a second of %d frames in %d fills: the device stalled; not counted", fr, fi)
			continue
		}
		if streamed++; c < n {
			n, frames, fills = c, fr, fi
		}
		if streamed == 3 {
			break
		}
	}
	st := out.Stats()
	if streamed == 0 {
		t.Fatalf("the device took under %d frames in every second of six; want about %d a second (%d underruns, %d xruns)", soundtest.Rate/2, soundtest.Rate, st.Underruns, d.s.XRuns())
	}
	t.Logf("%d mallocs in the quietest second of %d that streamed (%d frames, %d fills); source %s, %d underruns, %d xruns", n, streamed, frames, fills, st.LatencySource, st.Underruns, d.s.XRuns())
	if st.LatencySource != LatencyALSA {
		t.Errorf("latency source %q (%s); want %q", st.LatencySource, st.LatencyWhy, LatencyALSA)
	}
	if n != 0 {
		t.Errorf("%d mallocs in a second of fills; want 0", n)
	}
}

// TestALSAUnderrun: when the mixer's ALSA PCM runs dry (its thread held
// up past the buffer, on purpose), the underrun is counted, and ALSA's
// delay, read again, puts the clicks after it back where their start
// records say: within 2 ms, from a second after the underrun on.
func TestALSAUnderrun(t *testing.T) {
	t.Parallel()
	soundtest.Child(t, "TestALSAUnderrunChild", alsaEnv(t)...)
}

func TestALSAUnderrunChild(t *testing.T) {
	soundtest.InChild(t)
	out, d := openALSA(t, []*Sound{click()})
	offset := out.SetOffset(out.Latency() + 30*time.Millisecond)
	stop := soundtest.RecordTimed(t, snapshot.Now)
	time.Sleep(500 * time.Millisecond) // parec starts
	const hz, every, clicks, stallAt = 60, 8, 24, 6
	t0, stalled := snapshot.Now(), int64(0)
	for i := range clicks {
		tick := uint64(1 + every*i)
		at := t0 + int64(tick)*1e9/hz
		for snapshot.Now() < at {
			time.Sleep(time.Millisecond)
		}
		var s snapshot.Snapshot
		s.Tick, s.Time = tick, at
		s.Sounds.Add(snapshot.SoundEvent{Op: uint8(OpPlay), Voice: uint32(tick), Volume: 1})
		out.Feed(&s)
		if i == stallAt {
			stalled = snapshot.Now()
			d.stall.Store(int64(3 * d.ahead())) // past the buffer: the device runs dry
		}
	}
	time.Sleep(offset + 500*time.Millisecond)
	c := stop()
	on := soundtest.Onsets(c.Frames, 0.3, 100)
	starts := out.Onsets(nil)
	st := out.Stats()
	t.Logf("%d clicks heard, %d started; %d underruns (%d xruns), %d retimed; source %s", len(on), len(starts), st.Underruns, d.s.XRuns(), st.Retimed, st.LatencySource)
	if st.Underruns < 1 || d.s.XRuns() < 1 {
		t.Fatalf("%d underruns, %d xruns counted; want the one made", st.Underruns, d.s.XRuns())
	}
	if len(on) != len(starts) || len(starts) != clicks {
		t.Fatalf("%d clicks heard, %d started, %d played", len(on), len(starts), clicks)
	}
	// An underrun past the one made (the machine's load) moves a click
	// mixed before it and heard after: the parent runs the child again.
	soundtest.Underran(t, d.s.XRuns()-1)
	checked := 0
	for i, s := range starts {
		heard := c.At(on[i])
		e := float64(heard-s.Start) / 1e6
		t.Logf("click %d: started %.3f s after the stall, heard %.2f ms after its start record", i, float64(s.Start-stalled)/1e9, e)
		if s.Start > stalled+1e9 {
			checked++
			if e > 2 || e < -2 {
				t.Errorf("click %d, %.2f s after the underrun: heard %.2f ms after its start record; want within 2 ms", i, float64(s.Start-stalled)/1e9, e)
			}
		}
	}
	if checked < 5 {
		t.Errorf("%d clicks a second after the underrun; want at least 5", checked)
	}
}

// TestALSAGone: the sound server behind ALSA's pulse plugin exits under a
// playing PCM: the loss is said (the PCM's error), the run goes on, and
// Close returns at once.
func TestALSAGone(t *testing.T) {
	t.Parallel()
	soundtest.Child(t, "TestALSAGoneChild", alsaEnv(t)...)
}

func TestALSAGoneChild(t *testing.T) {
	soundtest.InChild(t)
	var notice strings.Builder
	out := Start(nil, false, Options{}, &notice)
	if !strings.HasPrefix(out.Device(), "alsa: ") {
		t.Fatalf("device %q; want the mixer's own ALSA PCM", out.Device())
	}
	time.Sleep(300 * time.Millisecond)
	if err := exec.Command("pactl", "--server=unix:"+os.Getenv("TANDEM_TEST_SOCKET"), "exit").Run(); err != nil {
		t.Fatalf("pactl exit: %v", err)
	}
	for deadline := time.Now().Add(3 * time.Second); !strings.Contains(out.Stats().Device, "lost") && !strings.Contains(out.Stats().Device, "stalled"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("device %q 3 s after the server exited; want it lost or stalled", out.Stats().Device)
		}
	}
	t0 := time.Now()
	out.Close()
	t.Logf("device %q; notice %q; Close took %v", out.Stats().Device, notice.String(), time.Since(t0))
	if d := time.Since(t0); d > 2*stopWait {
		t.Errorf("Close took %v after the device went; want at most %v", d, 2*stopWait)
	}
	// The PCM closed once: a second end reports the thread gone, at once.
	t1 := time.Now()
	if !out.os.end(false) || time.Since(t1) > 100*time.Millisecond {
		t.Errorf("a second end of the PCM took %v; want at once", time.Since(t1))
	}
}

// TestALSAReopen: Outputs opened and closed one after another in a
// process each play on a PCM of their own, measured, and each Close
// leaves the device free for the next Open. Three: each Open waits for
// the null sink to start the plugin's new stream (docs/sound.md).
func TestALSAReopen(t *testing.T) {
	t.Parallel()
	soundtest.Child(t, "TestALSAReopenChild", alsaEnv(t)...)
}

func TestALSAReopenChild(t *testing.T) {
	soundtest.InChild(t)
	for i := range 3 {
		t0 := time.Now()
		out, err := Open([]*Sound{click()}, Options{})
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		t.Logf("open %d took %v (the plugin's new stream on the null sink)", i, time.Since(t0))
		out.SetOffset(out.Latency())
		var s snapshot.Snapshot
		s.Tick, s.Time = 1, snapshot.Now()
		s.Sounds.Add(snapshot.SoundEvent{Op: uint8(OpPlay), Voice: 1, Volume: 1})
		out.Feed(&s)
		time.Sleep(20 * time.Millisecond)
		out.Close()
		out.Close() // a second Close does nothing
		if st := out.Stats(); st.LatencySource != LatencyALSA || !st.Anchored {
			t.Errorf("open %d: latency source %q (%s), anchored %v; want %q, anchored", i, st.LatencySource, st.LatencyWhy, st.Anchored, LatencyALSA)
		}
	}
}

// openALSA opens the device for a child test with sounds, and checks
// that the mixer plays on ALSA's PCM of its own; it closes at the test's
// end.
func openALSA(t *testing.T, sounds []*Sound) (*Output, *directALSA) {
	t.Helper()
	out, err := Open(sounds, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(out.Close)
	d, ok := out.os.(*directALSA)
	if !ok {
		t.Fatalf("device %q: not the mixer's own ALSA PCM", out.Device())
	}
	return out, d
}

// TestALSAStall: the sink behind ALSA's pulse plugin is suspended under
// a playing PCM, so that the device takes nothing while its server
// answers: the stall is said with the ALSA call the stream's thread is
// in, and once the sink plays again, so does the run.
func TestALSAStall(t *testing.T) {
	t.Parallel()
	soundtest.Child(t, "TestALSAStallChild", alsaEnv(t)...)
}

func TestALSAStallChild(t *testing.T) {
	soundtest.InChild(t)
	out, d := openALSA(t, nil)
	pactl := func(args ...string) {
		if b, err := exec.Command("pactl", append([]string{"--server=unix:" + os.Getenv("TANDEM_TEST_SOCKET")}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("pactl %v: %v: %s", args, err, b)
		}
	}
	time.Sleep(1500 * time.Millisecond) // past the plugin's start
	pactl("suspend-sink", "@DEFAULT_SINK@", "1")
	for deadline := time.Now().Add(4 * time.Second); !strings.Contains(out.Stats().Device, "stalled"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("device %q 4 s after the sink was suspended; want it stalled", out.Stats().Device)
		}
	}
	time.Sleep(3 * time.Second)
	f0, x0 := out.Stats().Frames, d.s.XRuns()
	pactl("suspend-sink", "@DEFAULT_SINK@", "0")
	for deadline := time.Now().Add(4 * time.Second); out.Stats().Frames < f0+soundtest.Rate/2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the device took %d frames in 4 s after the sink came back (%q); want it playing again", out.Stats().Frames-f0, out.Stats().Device)
		}
	}
	t.Logf("device %q; %d xruns during the stall, %d after", out.Stats().Device, x0, d.s.XRuns()-x0)
	if !strings.Contains(out.Stats().Device, "its thread in snd_pcm_") {
		t.Errorf("device %q; want the stall to name the ALSA call the stream's thread is in", out.Stats().Device)
	}
}
