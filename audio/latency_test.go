//go:build cgo

package audio

import (
	"math"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/soundtest"
	"github.com/tandem-engine/tandem/snapshot"
)

// TestPulseLatency: on PulseAudio the device's latency is measured from
// the server's timing, the clock anchors before Open returns, and each
// click is heard when its start record says: the onsets in the monitor's
// recording, put on snapshot.Now's clock, against Onset.Start, the first
// click (played at once after Open, as a game's first tick would) with
// the others.
func TestPulseLatency(t *testing.T) {
	t.Parallel() // a server and a child process of its own: it mostly waits on the clicks' real time
	s := soundtest.Start(t)
	soundtest.Child(t, "TestLatencyChild", s.Env()...)
}

func TestLatencyChild(t *testing.T) {
	soundtest.InChild(t)
	stop := soundtest.RecordTimed(t, snapshot.Now)
	time.Sleep(300 * time.Millisecond) // parec joins the sink before the device opens
	buffer, _ := time.ParseDuration(os.Getenv("TANDEM_TEST_BUFFER"))
	out, err := Open([]*Sound{click()}, Options{Buffer: buffer})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	st := out.Stats()
	t.Logf("device %s: latency %.2f ms (%s %s), least offset %v, anchored %v in %.1f ms",
		out.Device(), st.DeviceLatencyMs, st.LatencySource, st.LatencyWhy, out.Latency(), st.Anchored, st.AnchorMs)
	if !st.Anchored || st.LatencySource != LatencyPulse || st.DeviceLatencyMs <= 0 || st.DeviceLatencyMs > 1000 {
		t.Fatalf("anchored %v, latency %.2f ms from %q (%s): want anchored and measured by the server", st.Anchored, st.DeviceLatencyMs, st.LatencySource, st.LatencyWhy)
	}
	offset := out.SetOffset(0)
	feedClicks(out, 20)
	time.Sleep(offset + 300*time.Millisecond)
	c := stop()
	starts := out.Onsets(nil)
	on := soundtest.Onsets(c.Frames, 0.3, 100)
	if len(on) != len(starts) || len(starts) != 20 {
		t.Fatalf("%d onsets recorded, %d start records; want 20 of each", len(on), len(starts))
	}
	var aimErr, heardErr []float64
	for i, o := range starts {
		heard := c.At(on[i])
		aimErr = append(aimErr, math.Abs(float64(o.Start-o.Aimed))/1e6)
		heardErr = append(heardErr, float64(heard-o.Start)/1e6)
	}
	t.Logf("stats %+v", out.Stats())
	t.Logf("sink latency added %.2f ms; start - aimed (ms): %.3f; heard - start (ms): %.2f", float64(c.Ahead)/1e6, aimErr, heardErr)
	if slices.Max(aimErr) > 1 {
		t.Errorf("a start %.3f ms off its aim; want every one within 1 ms, the first included", slices.Max(aimErr))
	}
	slices.Sort(heardErr)
	if med := heardErr[len(heardErr)/2]; math.Abs(med) > 2 {
		t.Errorf("heard %.2f ms after the start records say (median): the measured latency is off", med)
	}
}

// TestRetimeLimit: readings of the server's timing asked for back to back
// start at once up to retimeBurst of them, then wait until the first is
// retimeBurst seconds old, at most retimeBurst in as many seconds; after a
// quiet spell the burst is there again.
func TestRetimeLimit(t *testing.T) {
	var l retimeLimit
	t0 := time.Unix(100, 0)
	now := t0
	var starts []time.Duration
	for range 6 { // asked for continually: each reading starts as soon as it may
		now = now.Add(l.wait(now))
		l.took(now)
		starts = append(starts, now.Sub(t0))
		now = now.Add(50 * time.Millisecond) // the reading's length
	}
	want := []time.Duration{0, 50 * time.Millisecond, 100 * time.Millisecond, 3 * time.Second, 3050 * time.Millisecond, 3100 * time.Millisecond}
	if !slices.Equal(starts, want) {
		t.Errorf("readings asked for back to back start at %v; want %v", starts, want)
	}
	if w := l.wait(t0.Add(10 * time.Second)); w != 0 {
		t.Errorf("after 7 s of quiet the next reading waits %v; want 0", w)
	}
}

// feedClicks feeds out n ticks of a 60 Hz sim, 9 ticks apart from tick 1
// (played at once: no warm-up), each playing sound 0, each at its tick's
// time as a sim thread publishes it.
func feedClicks(out *Output, n int) {
	const hz = 60
	t0 := snapshot.Now()
	for i := range n {
		tick := uint64(1 + 9*i)
		at := t0 + int64(tick-1)*1e9/hz
		for snapshot.Now() < at {
			time.Sleep(time.Millisecond)
		}
		var s snapshot.Snapshot
		s.Tick, s.Time = tick, at
		s.Sounds.Add(snapshot.SoundEvent{Op: uint8(OpPlay), Sound: 0, Voice: uint32(tick), Volume: 1})
		out.Feed(&s)
	}
}
