//go:build cgo

package audio

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/audio/internal/pulse/proto"
	"github.com/tandem-engine/tandem/internal/mallocs"
	"github.com/tandem-engine/tandem/internal/soundtest"
	"github.com/tandem-engine/tandem/snapshot"
)

// TestPulseClicks plays 40 clicks at random ticks through the mixer and
// oto into PulseAudio's null sink, records its monitor with parec and
// checks the clicks: none lost, none doubled, every gap between onsets
// the intended gap within 1 ms at p99.
func TestPulseClicks(t *testing.T) {
	t.Parallel() // a server and a child process of its own: it mostly waits on the clicks' real time
	s := soundtest.Start(t)
	soundtest.Child(t, "TestClicksChild", append(s.Env(), "TANDEM_TEST_WANT=pulseaudio")...)
}

// TestPulseClicksOnCall plays the same clicks the way an engine that
// plays on call does (each at the next buffer the device pulls): the gaps
// are off by up to a pull (20 to 30 ms), which is what sample-exact
// starts remove.
func TestPulseClicksOnCall(t *testing.T) {
	t.Parallel() // a server and a child process of its own: it mostly waits on the clicks' real time
	s := soundtest.Start(t)
	soundtest.Child(t, "TestClicksChild", append(s.Env(), "TANDEM_TEST_WANT=pulseaudio", "TANDEM_TEST_ONCALL=1")...)
}

// TestReopen: a process's second run plays on the device its first
// opened (oto opens one per process), and one Output at a time does.
func TestReopen(t *testing.T) {
	t.Parallel() // a server and a child process of its own: it mostly waits on the clicks' real time
	s := soundtest.Start(t)
	soundtest.Child(t, "TestReopenChild", s.Env()...)
}

func TestReopenChild(t *testing.T) {
	soundtest.InChild(t)
	for run := range 2 {
		out, err := Open([]*Sound{click()}, Options{})
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		if _, err := Open(nil, Options{}); err == nil || !strings.Contains(err.Error(), "in use") {
			t.Errorf("run %d: a second Output at once: %v; want an error", run, err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for out.Stats().Frames < soundtest.Rate/2 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if f := out.Stats().Frames; f < soundtest.Rate/2 {
			t.Errorf("run %d: the device took %d frames in 5 s", run, f)
		}
		out.Close()
		out.Close() // twice is no matter
	}
	if _, err := Open(nil, Options{Rate: 44100}); err == nil || !strings.Contains(err.Error(), "48000 Hz") {
		t.Errorf("reopening at another rate: %v; want an error naming the device's", err)
	}
}

// TestALSAFallback: with no PulseAudio server to speak to, the mixer
// plays on an ALSA PCM of its own (oto's fallback where it cannot);
// ALSA's default device here is its pulse plugin pointed at the test's
// server (so the clicks can be recorded), and the same checks hold, with
// ALSA's measured latency's (checkHeard).
func TestALSAFallback(t *testing.T) {
	t.Parallel()
	soundtest.Child(t, "TestClicksChild", append(alsaEnv(t), "TANDEM_TEST_WANT=alsa")...)
}

// alsaEnv starts a PulseAudio server for a test and returns the
// environment of a child whose ALSA default device is the pulse plugin
// pointed at it, and whose own PulseAudio clients find no server.
func alsaEnv(t *testing.T) []string {
	if m, _ := filepath.Glob("/usr/lib/*/alsa-lib/libasound_module_pcm_pulse.so"); len(m) == 0 {
		soundtest.Need(t, "no ALSA pulse plugin (libasound2-plugins)")
	}
	s := soundtest.Start(t)
	home := t.TempDir()
	rc := fmt.Sprintf("pcm.!default { type pulse server \"unix:%s\" }\nctl.!default { type pulse server \"unix:%s\" }\n", s.Socket, s.Socket)
	if err := os.WriteFile(filepath.Join(home, ".asoundrc"), []byte(rc), 0o644); err != nil {
		t.Fatal(err)
	}
	// oto's and tandem's own PulseAudio clients are sent to a socket nobody listens on.
	return []string{"PULSE_SERVER=unix:" + filepath.Join(home, "none"), "XDG_RUNTIME_DIR=" + home, "HOME=" + home,
		"TANDEM_TEST_SOCKET=" + s.Socket}
}

// TestNoDevice: with no sound server and no ALSA device, Open says why,
// and the nil Output it leaves does nothing, quietly.
func TestNoDevice(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, ".asoundrc"), []byte("pcm.!default { type hw card 99 }\n"), 0o644)
	soundtest.Child(t, "TestNoDeviceChild", "PULSE_SERVER=unix:"+filepath.Join(home, "none"),
		"XDG_RUNTIME_DIR="+home, "HOME="+home, "ALSA_CONFIG_PATH="+filepath.Join(home, ".asoundrc"))
}

func TestNoDeviceChild(t *testing.T) {
	soundtest.InChild(t)
	var notice strings.Builder
	silent := Start(nil, false, Options{}, &notice)
	t.Logf("the notice: %s", notice.String())
	if !strings.HasPrefix(silent.Device(), "none: no sound device") || strings.Count(notice.String(), "\n") != 1 ||
		!strings.HasPrefix(notice.String(), "tandem: audio: no sound device") || !strings.HasSuffix(notice.String(), "running silent\n") {
		t.Errorf("Start with no device: device %q, notice %q; want one line and the reason", silent.Device(), notice.String())
	}
	muted := Start(nil, true, Options{}, &notice)
	if muted.Stats().Device != "none: muted (-mute)" {
		t.Errorf("muted: %q", muted.Stats().Device)
	}
	for _, none := range []*Output{nil, silent, muted} {
		none.Feed(&snapshot.Snapshot{})
		if d := none.SetOffset(20 * time.Millisecond); d != 20*time.Millisecond || none.Stats().Started != 0 || len(none.Onsets(nil)) != 0 {
			t.Errorf("a silent Output (%q) is not silent and empty", none.Device())
		}
		none.Close()
	}
}

// TestClicksChild is the body of TestPulseClicks and TestALSAFallback, in
// a process of its own.
func TestClicksChild(t *testing.T) {
	soundtest.InChild(t)
	onCall := os.Getenv("TANDEM_TEST_ONCALL") != ""
	out, err := Open([]*Sound{click()}, Options{OnCall: onCall})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if want := os.Getenv("TANDEM_TEST_WANT"); !strings.HasPrefix(out.Device(), want) {
		t.Fatalf("device %q; want %s", out.Device(), want)
	}
	// The offset a renderer 30 ms behind would ask for: room for this
	// test's sim goroutine, which sleeps to its ticks, to wake late under
	// -race on a loaded machine without its clicks starting late.
	offset := out.SetOffset(out.Latency() + 30*time.Millisecond)
	t.Logf("device %s, latency %v, offset %v", out.Device(), out.Latency(), offset)

	alsa := os.Getenv("TANDEM_TEST_WANT") == "alsa"
	var timed func() soundtest.Capture
	stop := func() []float32 { return timed().Frames }
	if alsa {
		timed = soundtest.RecordTimed(t, snapshot.Now) // heard on snapshot.Now's clock: checkHeard
	} else {
		stop = soundtest.Record(t)
	}
	// The device's clock settles (it anchors once the device has taken
	// twice its buffer) and parec starts.
	for deadline := time.Now().Add(10 * time.Second); out.Stats().Frames < 48000 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)

	// The sim thread: ticks at 60 Hz, clicks on random ticks 4 to 14 ticks
	// apart, each pushed when its tick is published (a little after its
	// time, as a loaded sim thread would).
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 3))
	const hz = 60
	t0 := snapshot.Now()
	tick := uint64(0)
	var aimed []int64
	for range 40 {
		tick += 4 + rng.Uint64N(11)
		at := t0 + int64(tick)*1e9/hz
		for snapshot.Now() < at {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(3 * time.Millisecond))))
		var s snapshot.Snapshot
		s.Tick, s.Time = tick, at
		s.Sounds.Add(snapshot.SoundEvent{Op: uint8(OpPlay), Sound: 0, Voice: uint32(tick), Volume: 1})
		out.Feed(&s)
		aimed = append(aimed, at+int64(offset))
	}
	time.Sleep(offset + 500*time.Millisecond)
	var c soundtest.Capture
	if alsa {
		c = timed()
	} else {
		c.Frames = stop()
	}
	frames := c.Frames
	on := soundtest.Onsets(frames, 0.3, 100)
	st := out.Stats()
	starts := out.Onsets(nil)
	t.Logf("recorded %.2f s, %d onsets; stats %+v", float64(len(frames)/2)/48000, len(on), st)
	if len(on) != len(aimed) {
		soundtest.Stalled(t, st.Device)
		soundtest.Underran(t, st.Underruns) // one heard after the recording's end
		t.Fatalf("%d clicks in the recording, %d played: lost or doubled", len(on), len(aimed))
	}
	if len(starts) != len(aimed) {
		t.Errorf("%d start records; want %d", len(starts), len(aimed))
	}
	var gapErr []float64
	for i := 1; i < len(on); i++ {
		got := float64(on[i]-on[i-1]) * 1e9 / 48000
		want := float64(aimed[i] - aimed[i-1])
		gapErr = append(gapErr, math.Abs(got-want))
	}
	sort.Float64s(gapErr)
	p50, p99 := gapErr[len(gapErr)/2], gapErr[len(gapErr)*99/100]
	t.Logf("gap error: p50 %.3f ms, p99 %.3f ms, max %.3f ms", p50/1e6, p99/1e6, gapErr[len(gapErr)-1]/1e6)
	switch {
	case st.Underruns > 0 && !onCall:
		// The device ran dry (the machine was too loaded to feed it): the
		// clicks written before the silence are late by it. TestUnderrun
		// checks the mixer's side of that; here it is the machine's.
		t.Logf("the device ran dry %d times: the gaps are not checked", st.Underruns)
	case onCall && p99 < 2e6:
		t.Errorf("on call, gap error p99 %.3f ms; want the pulls' granularity (several ms)", p99/1e6)
	case !onCall && p99 > 1e6:
		// (ALSA's own PCM too: its fills, a period apart, are timed as
		// PulseAudio's requests are.)
		t.Errorf("gap error p99 %.3f ms; want at most 1 ms", p99/1e6)
	}
	// Underruns and late starts are the machine's load, not the mixer's:
	// they are logged above, and the bench's audio_underruns reports them.
	if alsa && len(starts) == len(on) {
		checkHeard(t, st, starts, on, c)
	}
}

// checkHeard checks, on the mixer's own ALSA PCM, that its latency was
// measured (ALSA's delay), that each start record is within 1 ms of its
// aim, and that each click is heard where its start record says: within
// 2 ms at p50, 4 ms at p1 and p99.
func checkHeard(t *testing.T, st Stats, starts []Onset, on []int, c soundtest.Capture) {
	t.Helper()
	if st.LatencySource != LatencyALSA || !st.Anchored {
		t.Errorf("latency source %q (%s), anchored %v; want %q, anchored", st.LatencySource, st.LatencyWhy, st.Anchored, LatencyALSA)
	}
	var startErr, heardErr []float64
	for i, s := range starts {
		startErr = append(startErr, float64(s.Start-s.Aimed)/1e6)
		heardErr = append(heardErr, float64(c.At(on[i])-s.Start)/1e6)
	}
	slices.Sort(heardErr)
	p1, p50, p99 := heardErr[len(heardErr)/100], heardErr[len(heardErr)/2], heardErr[len(heardErr)*99/100]
	t.Logf("ALSA: device latency %.2f ms; start - aim max %.3f ms; heard - start p1 %.2f p50 %.2f p99 %.2f ms (recorder's sink %.1f ms)",
		st.DeviceLatencyMs, slices.Max(startErr), p1, p50, p99, float64(c.Ahead)/1e6)
	if m := max(slices.Max(startErr), -slices.Min(startErr)); m > 1 {
		t.Errorf("a start record %.3f ms off its aim; want within 1 ms", m)
	}
	if math.Abs(p50) > 2 || math.Abs(p1) > 4 || math.Abs(p99) > 4 {
		t.Errorf("clicks heard %.2f ms (p1 %.2f, p99 %.2f) after their start records; want within 2 ms at p50, 4 at p1 and p99", p50, p1, p99)
	}
}

// TestPulseStreamAllocs: on PulseAudio's own stream, serving the server's
// requests allocates nothing: the whole process's mallocs over a second
// of requests (about 130 at the default buffer), the quietest of three
// seconds, while the device plays (jfreymuth/pulse allocated a message
// per request; audio/internal/pulse reuses one). Nor do the requests of a
// reading of the server's timing, which a late request asks for.
func TestPulseStreamAllocs(t *testing.T) {
	t.Parallel() // a server and a child process of its own: it mostly waits on real time
	s := soundtest.Start(t)
	soundtest.Child(t, "TestPulseStreamAllocsChild", s.Env()...)
}

func TestPulseStreamAllocsChild(t *testing.T) {
	soundtest.InChild(t)
	// Every allocation is profiled, so that a count above 0 names who
	// allocated: the stream's code fails the test, the runtime growing its
	// own pools under a busy machine does not (mallocs.Stack.RuntimePool).
	runtime.MemProfileRate = 1
	out := openOnServer(t)
	time.Sleep(500 * time.Millisecond) // past the start's readings of the server's timing
	var frames int64
	n := quietest(t, "a second of the server's requests", func() {
		f0 := out.Stats().Frames
		time.Sleep(time.Second)
		frames = out.Stats().Frames - f0
	})
	if frames < soundtest.Rate/2 {
		t.Fatalf("the device took %d frames in a second; want about %d", frames, soundtest.Rate)
	}
	st := out.Stats()
	t.Logf("%d mallocs in the quietest second of three (%d frames); %d underruns, largest take %.1f ms", n, frames, st.Underruns, st.TakeMaxMs)
	if st.Underruns > 0 {
		soundtest.Underran(t, st.Underruns) // a reading of the server's timing after it allocates
	}
	if n != 0 {
		t.Errorf("%d mallocs in a second of the server's requests (%d frames); want 0", n, frames)
	}

	// A reading of the server's timing reads each reply only to its
	// latencies and skips the rest: the same figures as the whole reply's,
	// the connection still in step after it; and its requests allocate
	// nothing (the client's request path reuses its channel, timer and
	// buffers; the reply's map, volumes and name are read into the fields
	// that hold them), where the whole reply's property lists allocate by
	// the dozen.
	pt, err := openPulseTiming("tandem")
	if err != nil {
		t.Fatal(err)
	}
	defer pt.c.Close()
	var whole proto.GetSinkInputInfoReply
	var short proto.SinkInputLatencyReply
	for range 3 {
		if err := pt.c.RawRequest(&proto.GetSinkInputInfo{SinkInputIndex: pt.input}, &short); err != nil {
			t.Fatal(err)
		}
		if err := pt.c.RawRequest(&proto.GetSinkInputInfo{SinkInputIndex: pt.input}, &whole); err != nil {
			t.Fatal(err)
		}
		near := func(a, b proto.Microseconds) bool { return max(int64(a)-int64(b), int64(b)-int64(a)) < 20_000 } // read a moment apart, as the sink plays
		if short.SinkInputIndex != whole.SinkInputIndex || short.MediaName != whole.MediaName ||
			!near(short.SinkLatency, whole.SinkLatency) || !near(short.SinkInputLatency, whole.SinkInputLatency) {
			t.Errorf("the short reply %+v; the whole one's index %d, name %q, latencies %d and %d µs", short, whole.SinkInputIndex, whole.MediaName, whole.SinkInputLatency, whole.SinkLatency)
		}
	}
	per := quietest(t, "50 of a reading's requests", func() {
		for range 50 {
			if err := pt.c.RawRequest(&pt.req, &short); err != nil {
				t.Error(err)
			}
		}
	})
	reading := mallocs.Fewest(3, func() {
		if _, err := pt.heard0(out.Mixer, 16); err != nil {
			t.Error(err)
		}
	})
	wholePer := mallocs.Fewest(3, func() {
		for range 50 {
			if err := pt.c.RawRequest(&pt.req, &whole); err != nil {
				t.Error(err)
			}
		}
	}) / 50
	t.Logf("50 of a reading's requests: %d mallocs; a reading of 16: %d; a request with the whole reply, %d", per, reading, wholePer)
	if per != 0 {
		t.Errorf("50 of a reading's requests allocate %d times; want 0", per)
	}
	// A reading's 16 or more requests each wait on the read loop, and
	// sleep between them. It allocates now and then: a profile of every
	// allocation named the read loop parsing a message from the server
	// (proto.(*ProtocolReader).value: a string, a slice by reflection)
	// and heard0's slice growing in its first run. Fewer than one a
	// request, where each request allocated over a dozen times.
	if reading >= 16 {
		t.Errorf("a reading of 16 allocates %d times; want fewer than one a request", reading)
	}
}

// TestServerUnderflows stalls the mixer's reader past the device's
// buffer: the server plays silence and says so, and both counts see it,
// the server's notices (ServerUnderflows) and the mixer's own from its
// clock (Underruns). The notice a drained stream gets at the run's end
// is not counted: TestPressToSound's runs read 0 of both when nothing
// stalled.
func TestServerUnderflows(t *testing.T) {
	t.Parallel() // a server and a child process of its own: it mostly waits on real time
	s := soundtest.Start(t)
	soundtest.Child(t, "TestServerUnderflowsChild", s.Env()...)
}

func TestServerUnderflowsChild(t *testing.T) {
	soundtest.InChild(t)
	out := openOnServer(t)
	waitFor := func(what string, ok func(Stats) bool) Stats {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for !ok(out.Stats()) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		st := out.Stats()
		if !ok(st) {
			t.Fatalf("%s within 5 s: %+v", what, st)
		}
		return st
	}
	before := waitFor("the device taking frames", func(st Stats) bool { return st.Frames > soundtest.Rate/2 })
	if !before.ServerCounted {
		t.Fatal("ServerCounted false on the mixer's own PulseAudio stream")
	}
	out.direct.mu.Lock() // the stream's reader waits here: the server's buffer runs out
	time.Sleep(10 * out.buffer)
	out.direct.mu.Unlock()
	waitFor("a server underflow notice and the mixer's own underrun", func(st Stats) bool {
		return st.ServerUnderflows > before.ServerUnderflows && st.Underruns > before.Underruns
	})
}

// openOnServer opens the device on the test's server for a child test, with
// a click, and checks that the mixer plays on PulseAudio's own stream; it
// closes at the test's end.
func openOnServer(t *testing.T) *Output {
	t.Helper()
	out, err := Open([]*Sound{click()}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(out.Close)
	if out.direct == nil {
		t.Fatalf("device %q: want the mixer on PulseAudio's own stream", out.Device())
	}
	return out
}

// quietest returns the fewest allocations of three runs of f, or 0 when
// that run's were all the runtime growing a pool of its own (a sudog for
// a blocked goroutine, a thread: mallocs.Stack.RuntimePool), which it
// logs; when they were not, it logs who allocated.
func quietest(t *testing.T, what string, f func()) uint64 {
	n, ours, pools := mallocs.Quietest(3, f)
	switch {
	case n > 0 && len(ours) > 0:
		t.Logf("%s: who allocated in the quietest run:\n%s", what, strings.Join(ours, "\n"))
		return n
	case n > 0:
		t.Logf("%s: %d mallocs, all the runtime growing its own pools: %s", what, n, strings.Join(pools, "; "))
		return 0
	}
	return 0
}
