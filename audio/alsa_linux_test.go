//go:build cgo && linux

package audio

import (
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/mallocs"
	"github.com/tandem-engine/tandem/internal/soundtest"
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
	out, err := Open(nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	d, ok := out.os.(*directALSA)
	if !ok {
		t.Fatalf("device %q: not the mixer's own ALSA PCM", out.Device())
	}
	time.Sleep(500 * time.Millisecond)
	var frames, fills int64
	n := mallocs.Fewest(3, func() {
		f0, w0 := out.Stats().Frames, d.fills.Load()
		time.Sleep(time.Second)
		frames, fills = out.Stats().Frames-f0, d.fills.Load()-w0
	})
	st := out.Stats()
	t.Logf("%d mallocs in the quietest second of three (%d frames, %d fills); source %s, %d underruns, %d xruns", n, frames, fills, st.LatencySource, st.Underruns, d.s.XRuns())
	if frames < soundtest.Rate/2 || fills < 10 {
		t.Fatalf("the device took %d frames in %d fills in a second; want about %d", frames, fills, soundtest.Rate)
	}
	if st.LatencySource != LatencyALSA {
		t.Errorf("latency source %q (%s); want %q", st.LatencySource, st.LatencyWhy, LatencyALSA)
	}
	if n != 0 {
		t.Errorf("%d mallocs in a second of fills; want 0", n)
	}
}
