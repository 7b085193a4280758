//go:build cgo && linux

package audio

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/tandem-engine/tandem/audio/internal/alsa"
	"github.com/tandem-engine/tandem/snapshot"
)

// directALSA plays a mixer on an ALSA PCM of its own, where no PulseAudio
// server answers, with no oto player between: each time the device has
// played a period, the mixer fills exactly the frames the PCM has room
// for. The frames the PCM still holds are the mixer's "buffered": a take
// is what the device played since, and none held at a fill is the device
// run dry (ALSA's underrun, which the stream recovers from).
//
// The device's timing is ALSA's delay (snd_pcm_delay: the frames written
// and not yet heard, the sound server's or the card's own latency
// included), read at each fill between two reads of CLOCK_MONOTONIC, a
// local call that allocates nothing; the least of every followEvents
// readings is kept (readWindow). Open measures the latency from it; once
// followed, the first window after each underrun sets it anew (the PCM
// restarted, and the silence moved every later frame), not every
// window as WASAPI's stream clock is: the delay of ALSA's pulse plugin,
// PulseAudio's interpolated latency, drifts between the server's timing
// updates and then jumps back, while what is heard holds still, and a
// clock that followed it moved in steps that were not heard (how far:
// docs/results/2026-11-27-sound-alsa.md).
type directALSA struct {
	m       *Mixer
	s       *alsa.Stream
	queued  atomic.Int64
	fills   atomic.Int64
	stopped atomic.Bool
	follows atomic.Bool
	offset  int64      // snapshot.Now's reading at CLOCK_MONOTONIC's 0, ns
	win     readWindow // the stream thread's
	retime  bool       // set the latency from the next window; the stream thread's
	xruns   int64      // ALSA's underruns seen; the stream thread's
	// The last window's least heard0 and the device's latency from a take
	// to its being heard, ns.
	heard, device atomic.Int64
	// stall is a test's: the next fill sleeps this long first, ns (an
	// underrun made on purpose).
	stall atomic.Int64
}

// osName reports whether ALSA's default PCM opens at o's rate and
// buffer, and names it. The PCM is closed again: each Output opens its
// own (openOS).
func osName(o Options) (string, bool) {
	restore := quietStderr() // libasound's own complaints, as openDevice's
	s, err := alsa.Open(o.Rate, o.Buffer)
	restore()
	if err != nil {
		return "", false
	}
	s.Close(false, stopWait)
	return "alsa: " + s.Name, true
}

// openOS plays m on an ALSA PCM of its own.
func openOS(m *Mixer, o Options) (osStream, error) {
	s, err := alsa.Open(o.Rate, o.Buffer)
	if err != nil {
		return nil, fmt.Errorf("ALSA: %w", err)
	}
	d := &directALSA{m: m, s: s, offset: monoOffset()}
	d.win.reset()
	m.buffered = func() int { return int(d.queued.Load()) }
	if err := s.Start(d); err != nil {
		s.Close(false, stopWait)
		return nil, fmt.Errorf("ALSA: %w", err)
	}
	// The device plays once it takes past the first fill (ALSA's pulse
	// plugin takes a whole buffer into the server's at once, and a fresh
	// sink may take nothing for most of two seconds): the clock's anchor
	// is waited for from there, as PulseAudio's stream's start is.
	for deadline := time.Now().Add(o.Wait); d.fills.Load() < 3; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			d.end(false)
			return nil, fmt.Errorf("ALSA: the device did not start within %v", o.Wait)
		}
	}
	return d, nil
}

// Fill is the stream's: the mixer's next frames, float32 stereo, for the
// PCM's room. It allocates nothing.
func (d *directALSA) Fill(p []byte, queued int) {
	if d.stopped.Load() {
		clear(p)
		return
	}
	d.queued.Store(int64(queued))
	d.fills.Add(1)
	if st := d.stall.Swap(0); st > 0 {
		time.Sleep(time.Duration(st))
	}
	x := d.s.XRuns()
	if x != d.xruns && queued != 0 {
		// ALSA's underrun, recovered while the fill was written: the PCM
		// holds frames but waits for a whole buffer to start again, so the
		// mixer does not see it run dry. Counted here.
		d.m.st.underruns.Add(1)
	}
	if x != d.xruns || queued == 0 {
		// The device ran dry or has not started: its delay says nothing
		// yet of when the next frame is heard, and the window's readings
		// from before are of frames heard sooner. Once followed, the next
		// window after it sets the device's latency anew.
		d.xruns = x
		d.win.reset()
		d.retime = d.follows.Load()
	} else if r, err := d.s.Read(); err == nil {
		taken0 := d.m.now() - d.m.clock.framesNs(d.m.written-int64(queued))
		if heard0, latency, full := d.win.add(r.Heard0(d.m.written, d.offset), taken0); full {
			d.heard.Store(heard0)
			d.device.Store(latency)
			if d.retime {
				d.m.setLatency(heard0 - d.m.clock.origin) // (the clock is this thread's)
				d.retime = false
			}
		}
	}
	n, _ := d.m.Read(p) // (which takes a window handed on)
	clear(p[n:])
}

// heard0 returns when the device's frame 0 is heard, ns on snapshot.Now's
// clock, by ALSA's delay: the least reading of the next windows that make
// n readings, waiting at most a window's worth of the device's periods
// each, and a second more.
func (d *directALSA) heard0(n int) (int64, error) {
	windows := max((n+followEvents-1)/followEvents, 1)
	per := time.Duration(followEvents*d.s.Period) * time.Second / time.Duration(d.s.Rate)
	deadline := time.Now().Add(time.Duration(windows)*per + time.Second)
	least, seen := int64(maxInt64), 0
	for last := d.heard.Load(); seen < windows; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("audio: ALSA's delay: %d windows of readings of %d in %v", seen, windows, time.Duration(windows)*per+time.Second)
		}
		if h := d.heard.Load(); h != last {
			last, least, seen = h, min(least, h), seen+1
		}
	}
	return least, nil
}

// ahead is how long before its take a frame is mixed: a whole buffer,
// the PCM's room at a fill being filled at once.
func (d *directALSA) ahead() time.Duration {
	return time.Duration(d.s.Frames) * time.Second / time.Duration(d.s.Rate)
}

// settle reports that the device's timing holds still: it is not
// followed but after an underrun (see directALSA), so nothing moves it.
func (d *directALSA) settle(time.Time) bool { return true }

// latency is the device's latency from a take to its being heard, by the
// last window of ALSA's delay.
func (d *directALSA) latency() time.Duration { return time.Duration(max(d.device.Load(), 0)) }

// where names the ALSA call the stream's thread is in: a stall's report.
func (d *directALSA) where() string { return d.s.Phase() }

func (d *directALSA) err() error     { return d.s.Err() }
func (d *directALSA) follow()        { d.follows.Store(true) }
func (d *directALSA) source() string { return LatencyALSA }

// end stops reading the mixer, then stops and closes the PCM; with drain
// the device first plays what it holds. Its waits are bounded; it
// reports whether the stream's thread left the mixer in time.
func (d *directALSA) end(drain bool) bool {
	d.stopped.Store(true)
	return d.s.Close(drain, stopWait)
}

// monoOffset returns snapshot.Now's reading at CLOCK_MONOTONIC's 0, ns:
// from the tightest of a few reads of the one around the other.
func monoOffset() int64 {
	var off, width int64
	for i := range 16 {
		t0 := snapshot.Now()
		c := alsa.MonoNs()
		t1 := snapshot.Now()
		if i == 0 || t1-t0 < width {
			off, width = alsa.Offset(t0, c, t1), t1-t0
		}
	}
	return off
}
