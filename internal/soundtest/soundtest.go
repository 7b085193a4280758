// Package soundtest starts a PulseAudio server with a null sink for a
// test, as the GL tests start Xvfb, records its monitor with parec, and
// finds the sounds in the recording. The server has its own runtime
// directory and socket: it never touches the user's sound.
//
// With CI=true a missing pulseaudio, parec or pactl fails the test;
// otherwise it skips. make deps installs them (pulseaudio,
// pulseaudio-utils, libasound2-plugins).
//
// Threads: any goroutine; a Server belongs to one test.
package soundtest

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Rate is the null sink's rate, and the recording's.
const Rate = 48000

// Server is a PulseAudio server with a null sink called "tandem".
type Server struct {
	Dir    string // its runtime directory
	Socket string // its native protocol socket
	cmd    *exec.Cmd
}

// Need fails the test when CI=true and skips it otherwise.
func Need(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format+" (CI=true: a missing sound server fails; install pulseaudio pulseaudio-utils libasound2-plugins, as make deps does)", args...)
	}
	t.Skipf(format, args...)
}

// Start starts a server for t; t's cleanup stops it.
func Start(t testing.TB) *Server {
	t.Helper()
	for _, bin := range []string{"pulseaudio", "parec", "pactl"} {
		if _, err := exec.LookPath(bin); err != nil {
			Need(t, "no %s: %v", bin, err)
		}
	}
	dir, err := os.MkdirTemp("", "tandem-pulse-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	s := &Server{Dir: dir, Socket: filepath.Join(dir, "native")}
	s.start(t)
	return s
}

// start starts the server process and waits for it to answer.
func (s *Server) start(t testing.TB) {
	t.Helper()
	dir := s.Dir
	cmd := exec.Command("pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
		"--disable-shm", "--log-target=stderr", "--log-level=error",
		"-L", "module-null-sink sink_name=tandem rate=48000 channels=2",
		"-L", "module-native-protocol-unix auth-anonymous=1 socket="+s.Socket)
	cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+dir, "PULSE_RUNTIME_PATH="+dir, "HOME="+dir, "PULSE_SERVER=")
	var log strings.Builder
	cmd.Stderr = &log
	if err := cmd.Start(); err != nil {
		Need(t, "pulseaudio: %v", err)
	}
	s.cmd = cmd
	t.Cleanup(func() { resume(cmd.Process); cmd.Process.Kill(); cmd.Wait() })
	for deadline := time.Now().Add(10 * time.Second); ; {
		if err := exec.Command("pactl", "--server=unix:"+s.Socket, "info").Run(); err == nil {
			return
		}
		if time.Now().After(deadline) {
			Need(t, "pulseaudio did not start within 10 s: %s", log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Kill kills the server (SIGKILL), as a sound server that crashes.
func (s *Server) Kill() {
	s.cmd.Process.Kill()
	s.cmd.Wait()
}

// Signal sends sig to the server: SIGSTOP stalls it, SIGCONT resumes it.
func (s *Server) Signal(sig os.Signal) { s.cmd.Process.Signal(sig) }

// Restart starts the server again on the same socket after Kill.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	os.Remove(s.Socket)
	s.start(t)
}

// Env is the environment that sends a PulseAudio client (oto's) to s.
func (s *Server) Env() []string {
	return []string{"PULSE_SERVER=unix:" + s.Socket, "XDG_RUNTIME_DIR=" + s.Dir, "HOME=" + s.Dir, "TANDEM_TEST_SOCKET=" + s.Socket}
}

// Child runs the test named run of the current test binary in a new
// process (oto opens one device per process) with env added and
// TANDEM_AUDIO_CHILD=1, and fails t if it fails or does not run. A child
// that failed through Underran, Stalled or LateTick (the machine's load,
// not the engine) runs again, up to childAttempts in all.
func Child(t testing.TB, run string, env ...string) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		cmd := exec.Command(os.Args[0], "-test.run=^"+run+"$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), append(env, "TANDEM_AUDIO_CHILD=1")...)
		out, err := cmd.CombinedOutput()
		t.Logf("%s:\n%s", run, out)
		if err != nil && strings.Contains(string(out), againMark) && attempt < childAttempts {
			t.Logf("%s: the machine's load, not the engine (said above, after %q): attempt %d of %d", run, againMark, attempt+1, childAttempts)
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", run, err)
		}
		if strings.Contains(string(out), "--- SKIP") || !strings.Contains(string(out), "--- PASS") {
			t.Fatalf("%s did not run", run)
		}
		return
	}
}

// childAttempts bounds how many times Child runs a child that failed
// through the machine's load: a run without it passes or fails on its
// own figures.
const childAttempts = 3

// againMark starts the failure of a child its parent runs again. The
// helpers that fail with it do nothing in a child that has failed
// already: a failure of the engine's own is not run again into a pass.
const againMark = "soundtest: run again: "

// Underran fails a Child whose checks of exact timing cannot hold because
// the device ran dry underruns times (each one shifts every later sound
// by the silence played). Nothing when underruns is 0.
func Underran(t testing.TB, underruns int64) {
	t.Helper()
	again(t, underruns > 0, "the device underran %d times: timing checks do not hold", underruns)
}

// Stalled fails a Child whose device took nothing for a second or more
// while its server answered (device is its report, which says so and
// names the call the stream's thread was in). Nothing when device does
// not say it stalled. (ALSA's pulse plugin was seen to stop for good on a
// loaded machine, once, in CI.)
func Stalled(t testing.TB, device string) {
	t.Helper()
	again(t, strings.Contains(device, "stalled"), "the device stalled: %s", device)
}

// LateTick fails a Child whose sim thread started a tick lateMs after
// it was due (the summary's tick_late_ms_max), past the margin the sound
// offset keeps for it: a sound of that tick reached the mixer after its
// start was due, by the machine's load. Nothing when it is within.
func LateTick(t testing.TB, lateMs float64, margin time.Duration) {
	t.Helper()
	again(t, lateMs > float64(margin)/1e6, "the sim started a tick %.2f ms late, past the offset's %v margin: its sounds started late", lateMs, margin)
}

// again fails t with againMark and why when loaded, unless t has failed
// already, for a reason of its own: that is not run again into a pass.
func again(t testing.TB, loaded bool, why string, args ...any) {
	t.Helper()
	if loaded && !t.Failed() {
		t.Fatalf(againMark+why, args...)
	}
}

// InChildEnv reports whether the test runs as a Child, for a test that is
// its own parent.
func InChildEnv() bool { return os.Getenv("TANDEM_AUDIO_CHILD") != "" }

// InChild reports whether the test runs as a Child; a child test skips
// itself otherwise.
func InChild(t testing.TB) bool {
	if os.Getenv("TANDEM_AUDIO_CHILD") == "" {
		t.Skip("run in a process of its own by its parent test")
		return false
	}
	return true
}

// Record records the monitor of the server whose socket is in
// TANDEM_TEST_SOCKET (a Child's) as float32 stereo at Rate; stop ends it
// and returns the frames, interleaved.
func Record(t testing.TB) (stop func() []float32) {
	t.Helper()
	rec := filepath.Join(t.TempDir(), "rec.raw")
	parec := exec.Command("parec", "--server=unix:"+os.Getenv("TANDEM_TEST_SOCKET"), "--device=tandem.monitor",
		"--format=float32le", "--rate=48000", "--channels=2", "--raw", "--latency-msec=20", rec)
	if err := parec.Start(); err != nil {
		t.Fatal(err)
	}
	return func() []float32 {
		parec.Process.Signal(os.Interrupt)
		parec.Wait()
		raw, err := os.ReadFile(rec)
		if err != nil {
			t.Fatal(err)
		}
		frames := make([]float32, len(raw)/4)
		for i := range frames {
			frames[i] = math.Float32frombits(uint32(raw[4*i]) | uint32(raw[4*i+1])<<8 | uint32(raw[4*i+2])<<16 | uint32(raw[4*i+3])<<24)
		}
		return frames
	}
}

// Capture is a recording of the monitor put on snapshot.Now's clock
// (CLOCK_MONOTONIC): frame k of Frames is heard at At(k).
type Capture struct {
	Frames []float32 // interleaved stereo
	// Start is when frame 0 is heard, ns on snapshot.Now's clock: each
	// read of parec's output that ends at frame k arrives at a; the sink
	// renders a frame at most its latency ahead of its time, and the
	// read comes after the render, so frame k is heard no sooner than
	// a − that latency: Start is the least a − k·Period plus the sink's
	// configured latency (Ahead), which parec's 2 ms fragments bring down
	// to 2 ms. The recorder lowers the sink's latency for every stream on
	// it: the null sink follows the least its clients ask for.
	Start int64
	Ahead int64 // ns: the sink's latency added to the least read, from pactl
	// Period is a frame's length on snapshot.Now's clock, ns, as the
	// reads measure it (fitRecording): the null sink's clock is its
	// timer's, and its frames need not last 1/Rate s each on ours. PPM
	// is how far it is from 1/Rate, in parts per million.
	Period float64
	PPM    float64
}

// At is when frame k of the recording is heard, ns on snapshot.Now's
// clock.
func (c Capture) At(k int) int64 { return c.Start + int64(math.Round(float64(k)*c.Period)) }

// fitRecording puts a recording on the clock that timed its reads: read
// i ended at frame ks[i] and arrived at ats[i]. Each read arrives no
// sooner than its last frame was rendered, so the frames' times lie on a
// line under every (ks[i], ats[i]): its slope is the least arrival less
// the frames' nominal time in the first half of the reads against the
// same in the second half, and its start the least arrival less the
// frames' time on that slope. A record shorter than fitMinSpan keeps the
// nominal 1/Rate: its two halves' least reads are too close together to
// measure a slope, and a clock tens of ppm off moves it under 0.1 ms.
func fitRecording(ks, ats []int64) (start int64, period float64) {
	period = 1e9 / Rate
	if len(ks) == 0 {
		return math.MaxInt64, period
	}
	least := func(from, to int) (k int64, d float64) {
		d = math.Inf(1)
		for i := from; i < to; i++ {
			if v := float64(ats[i]) - float64(ks[i])*1e9/Rate; v < d {
				k, d = ks[i], v
			}
		}
		return k, d
	}
	k1, d1 := least(0, len(ks)/2)
	k2, d2 := least(len(ks)/2, len(ks))
	if float64(k2-k1)*1e9/Rate >= float64(fitMinSpan) {
		period += (d2 - d1) / float64(k2-k1)
	}
	s := math.Inf(1)
	for i := range ks {
		s = min(s, float64(ats[i])-float64(ks[i])*period)
	}
	return int64(math.Round(s)), period
}

// recordChunk is the size of RecordTimed's chunks, bytes: whole frames.
const recordChunk = 1 << 20

// fitMinSpan is the least time between the two halves' least reads for
// fitRecording to measure the sink's rate.
const fitMinSpan = 2 * time.Second

// RecordTimed records the monitor of the server whose socket is in
// TANDEM_TEST_SOCKET, as Record does, in 2 ms fragments read as they come
// and timed on now (snapshot.Now, passed in: this package times nothing
// of its own); stop ends it.
func RecordTimed(t testing.TB, now func() int64) (stop func() Capture) {
	t.Helper()
	socket := os.Getenv("TANDEM_TEST_SOCKET")
	parec := exec.Command("parec", "--server=unix:"+socket, "--device=tandem.monitor",
		"--format=float32le", "--rate=48000", "--channels=2", "--raw", "--latency-msec=2")
	pipe, err := parec.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parec.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan Capture, 1)
	go func() {
		// The bytes go into chunks of recordChunk that are never copied
		// again, not into one slice grown as it fills: this goroutine
		// shares the process with the engine it records, and growing a
		// slice of many MB (allocate, fault its pages in, copy) held the
		// engine's sim thread and sound up to 30 ms in runs of 30 s.
		var chunks [][]byte
		var ks, ats []int64
		total := 0
		buf := make([]byte, 1<<16)
		for {
			n, err := pipe.Read(buf)
			at := now()
			for b := buf[:n]; len(b) > 0; {
				if len(chunks) == 0 || len(chunks[len(chunks)-1]) == recordChunk {
					chunks = append(chunks, make([]byte, 0, recordChunk))
				}
				c := &chunks[len(chunks)-1]
				m := min(len(b), recordChunk-len(*c))
				*c, b = append(*c, b[:m]...), b[m:]
			}
			if total += n; n > 0 {
				ks, ats = append(ks, int64(total/8)), append(ats, at)
			}
			if err != nil {
				break
			}
		}
		frames := make([]float32, 0, total/4)
		for _, c := range chunks { // recordChunk is whole samples: none straddles two
			for i := 0; i+4 <= len(c); i += 4 {
				frames = append(frames, math.Float32frombits(uint32(c[i])|uint32(c[i+1])<<8|uint32(c[i+2])<<16|uint32(c[i+3])<<24))
			}
		}
		start, period := fitRecording(ks, ats)
		done <- Capture{Frames: frames, Start: start, Period: period, PPM: (period*Rate/1e9 - 1) * 1e6}
	}()
	return func() Capture {
		ahead := sinkLatency(socket)
		parec.Process.Signal(os.Interrupt)
		c := <-done
		parec.Wait()
		c.Start += ahead
		c.Ahead = ahead
		return c
	}
}

// sinkLatency returns the null sink's configured latency, ns, as pactl
// says it ("Latency: 1234 usec, configured 2000 usec"); 0 if it cannot.
func sinkLatency(socket string) int64 {
	out, err := exec.Command("pactl", "--server=unix:"+socket, "list", "sinks").Output()
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(out), "\n") {
		if _, rest, ok := strings.Cut(line, "configured "); ok && strings.Contains(line, "Latency:") {
			var us int64
			if _, err := fmt.Sscanf(rest, "%d usec", &us); err == nil {
				return us * 1000
			}
		}
	}
	return 0
}

// Onsets returns the frames of rec (stereo) where the left channel rises
// past threshold after at least quiet frames below it.
func Onsets(rec []float32, threshold float32, quiet int) []int {
	var on []int
	q := quiet
	for j := 0; j < len(rec)/2; j++ {
		if v := rec[2*j]; v > threshold || v < -threshold {
			if q >= quiet {
				on = append(on, j)
			}
			q = 0
		} else {
			q++
		}
	}
	return on
}

// Peak returns the largest magnitude in rec.
func Peak(rec []float32) float32 {
	p := float32(0)
	for _, v := range rec {
		p = max(p, v, -v)
	}
	return p
}
