//go:build cgo

package audio

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/audio/internal/wasapi"
	"github.com/tandem-engine/tandem/internal/mallocs"
	"github.com/tandem-engine/tandem/internal/soundtest"
)

// TestWASAPIChild is TestWASAPIUnderWine's Windows side (wasapi_wine_test.go
// runs it under Wine, on a PulseAudio null sink whose monitor it records):
// the mixer plays on WASAPI's own stream, its latency measured from the
// stream's clock, the clock anchored before Open returns, every start on
// its aim, no allocation while the engine's events are served; and it
// prints the performance counter and each start record on the counter's
// clock (100 ns ticks as ns), for the recording's side to hear.
func TestWASAPIChild(t *testing.T) {
	soundtest.InChild(t)
	fmt.Printf("WASAPI-QPC %d\n", wasapi.QPC())
	// Wine's stream runs slow for its first second and a half (docs/sound.md):
	// its clock settles in about 2.3 s, past the default bound.
	out, err := Open([]*Sound{click()}, Options{AnchorWait: 4 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	st := out.Stats()
	d, ok := out.os.(*directWASAPI)
	if !ok {
		t.Fatalf("device %q: want the mixer on WASAPI's own stream", out.Device())
	}
	t.Logf("device %s: buffer %d frames, stream latency %v; latency %.2f ms (%s %s), ahead %.2f ms, least offset %v, anchored %v in %.1f ms",
		out.Device(), d.s.Frames, d.s.Latency, st.DeviceLatencyMs, st.LatencySource, st.LatencyWhy, st.AheadMs, out.Latency(), st.Anchored, st.AnchorMs)
	// (0 is Wine's: its position is the frames its engine took, heard a
	// few ms later by PulseAudio, which it does not count.)
	if !st.Anchored || st.LatencySource != LatencyWASAPI || st.DeviceLatencyMs < 0 || st.DeviceLatencyMs > 500 {
		t.Fatalf("anchored %v, latency %.2f ms from %q (%s): want anchored and measured by the stream's clock", st.Anchored, st.DeviceLatencyMs, st.LatencySource, st.LatencyWhy)
	}

	fmt.Printf("WASAPI-PLAYING\n")
	say := func(when string) {
		st := out.Stats()
		fmt.Printf("WASAPI-STATS %s: underruns %d latency %.3f ms ahead %.3f ms clock-steps %d retimed %d timing-errors %d\n", when, st.Underruns, st.DeviceLatencyMs, st.AheadMs, st.ClockSteps, st.Retimed, st.TimingErrors)
	}
	say("open")

	offset := out.SetOffset(0)
	feedClicks(out, 20)
	time.Sleep(offset + 300*time.Millisecond)
	qpcOffset := qpcOffset() // snapshot.Now against the counter, to put the start records on it
	starts := out.Onsets(nil)
	var aimErr []float64
	for _, o := range starts {
		aimErr = append(aimErr, math.Abs(float64(o.Start-o.Aimed))/1e6)
		fmt.Printf("WASAPI-START %d %d\n", o.Start-qpcOffset, o.Aimed-qpcOffset)
	}
	say("after the clicks")

	// Serving the engine's events allocates nothing: the whole process's
	// mallocs over a second of events, the quietest of three.
	var frames int64
	n := mallocs.Fewest(3, func() {
		f0 := out.Mixer.st.written.Load() // (Stats sorts the start errors: it allocates once sounds started)
		time.Sleep(time.Second)
		frames = out.Mixer.st.written.Load() - f0
	})
	t.Logf("%d mallocs in the quietest second of three (%d frames)", n, frames)
	if frames < soundtest.Rate/2 {
		t.Fatalf("the device took %d frames in a second; want about %d", frames, soundtest.Rate)
	}
	if n != 0 {
		t.Errorf("%d mallocs in a second of the engine's events (%d frames); want 0", n, frames)
	}

	say("end")
	st = out.Stats()
	t.Logf("stats %+v; start - aimed (ms): %.3f", st, aimErr)
	if len(starts) != 20 {
		t.Fatalf("%d start records; want 20", len(starts))
	}
	if slices.Max(aimErr) > 1 {
		t.Errorf("a start %.3f ms off its aim; want every one within 1 ms, the first included", slices.Max(aimErr))
	}

	// Close lets the stream go (a second Close does nothing), and the
	// next Open plays on a stream of its own again.
	out.Close()
	out.Close()
	again, err := Open([]*Sound{click()}, Options{AnchorWait: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	if _, ok := again.os.(*directWASAPI); !ok || again.Stats().LatencySource == "" {
		t.Errorf("Open after Close: device %q, latency from %q; want WASAPI's own stream again", again.Device(), again.Stats().LatencySource)
	}
	again.Close()
}

// TestWASAPIGoneChild is TestWASAPIGoneUnderWine's Windows side: the
// sound server behind Wine's device is killed while the stream plays (the
// parent does it when told), the engine stops serving the stream
// (AUDCLNT_E_DEVICE_INVALIDATED), and the run goes on, the loss said
// with its reason, and Close returns at once.
func TestWASAPIGoneChild(t *testing.T) {
	soundtest.InChild(t)
	out, err := Open([]*Sound{click()}, Options{AnchorWait: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := out.os.(*directWASAPI); !ok {
		t.Fatalf("device %q: want the mixer on WASAPI's own stream", out.Device())
	}
	time.Sleep(time.Second) // playing
	fmt.Printf("WASAPI-KILL\n")
	d := out.os.(*directWASAPI)
	for range 6 { // the watcher says a stall after 1 s without a take
		time.Sleep(500 * time.Millisecond)
		t.Logf("frames %d, the stream's error: %v", out.Mixer.st.written.Load(), d.s.Err())
	}
	dev := out.Stats().Device
	t0 := time.Now()
	out.Close()
	t.Logf("device after the server went: %q; Close took %v", dev, time.Since(t0))
	if !strings.Contains(dev, "device lost at") || !strings.Contains(dev, "AUDCLNT_E_DEVICE_INVALIDATED") {
		t.Errorf("device %q: want the loss said, and why", dev)
	}
	if d := time.Since(t0); d > 3*stopWait {
		t.Errorf("Close took %v; want it bounded", d)
	}
}
