//go:build cgo

package audio

import (
	"errors"
	"fmt"
	"github.com/tandem-engine/tandem/internal/quantile"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tandem-engine/tandem/audio/internal/pulse"
	"github.com/tandem-engine/tandem/audio/internal/pulse/proto"
)

// Where the device's latency comes from (Stats.LatencySource, the
// summary's audio_latency_source).
const (
	// LatencyPulse is measured: PulseAudio's own timing of this process's
	// stream, the data it holds for it and its sink's latency, read at
	// instants when the frames handed to it are known.
	LatencyPulse = "pulseaudio"
	// LatencyWASAPI is measured: the WASAPI stream's clock on Windows, the
	// position the speakers play with the performance counter's instant
	// (IAudioClock::GetPosition), read at the stream's events.
	LatencyWASAPI = "wasapi"
	// LatencyALSA is measured: ALSA's delay on Linux with no PulseAudio
	// server, the frames the mixer's own PCM holds and the device's (or
	// its plugin's server's) latency, read at the PCM's fills.
	LatencyALSA = "alsa"
	// LatencyModel is the buffer asked for, assumed: oto gives no delay
	// (where the mixer's own ALSA PCM or WASAPI stream did not open), or the
	// device's timing could not be read.
	LatencyModel = "model"
)

// timing is how the device's start went: whether the clock anchored and
// how long that took, and the device's latency and where it came from.
type timing struct {
	anchored bool
	anchorIn time.Duration
	device   time.Duration // from a frame's take to its being heard
	ahead    time.Duration // what the mixer keeps ahead of the device's takes
	source   string
	why      string // why the latency is the model's, "" when measured
	// The goroutine that reads the server's timing during the run.
	stop, done chan struct{}
}

// startClock waits for the device's clock to anchor, measures the
// device's latency and sets the least offset from it: the device's
// latency, what the mixer keeps ahead of it and the margin. Open's, once
// the player plays.
func (o *Output) startClock(opt Options) {
	t0 := time.Now()
	o.timing.anchored = o.anchor(opt.AnchorWait)
	o.timing.anchorIn = time.Since(t0)
	if !o.timing.anchored {
		o.timing.device, o.timing.source = opt.Buffer, LatencyModel
		o.timing.why = fmt.Sprintf("the clock did not anchor within %v (the device took %d frames)", opt.AnchorWait, o.Mixer.st.written.Load()-int64(o.Mixer.level()))
		o.Mixer.setLatency(int64(opt.Buffer))
	} else {
		o.timing.device, o.timing.source, o.timing.why = o.measure(opt.Name, opt.Buffer)
		if o.os != nil && o.timing.source != LatencyModel {
			if !o.os.settle(t0.Add(opt.AnchorWait)) {
				// The device's clock still moved: the first sounds may be late.
				o.timing.anchored = false
			}
			// From a take to its being heard, measured at the events of
			// the settled device: a device whose takes slipped since the
			// clock anchored (Wine's first second and a half) moved the
			// clock's origin and level, and heard0 less the origin is no
			// longer what a take waits.
			o.timing.device = o.os.latency()
		}
		o.timing.anchorIn = time.Since(t0)
	}
	if o.direct != nil {
		// Read at the server's requests, the mixer writes a frame up to
		// one request before the device would take it: a sound must be
		// known that much sooner.
		opt.Ahead = time.Duration(o.Mixer.clock.framesNs(o.Mixer.st.takeLeast.Load()))
	} else if o.os != nil {
		opt.Ahead = o.os.ahead()
	}
	o.timing.ahead = opt.Ahead
	o.lat = o.timing.device + opt.Ahead + opt.Margin
}

// stats puts the device's timing in s.
func (t *timing) stats(s *Stats) {
	s.Anchored, s.AnchorMs = t.anchored, float64(t.anchorIn)/1e6
	s.DeviceLatencyMs, s.LatencySource, s.LatencyWhy = float64(t.device)/1e6, t.source, t.why
	s.AheadMs = float64(t.ahead) / 1e6
}

// defaultBuffer returns the device's buffer when none is asked for:
// DefaultBuffer where the mixer plays on a stream of its own whose timing
// is measured (PulseAudio's, ALSA's own PCM on Linux, WASAPI's; open
// falls back to alsaBuffer where it plays through oto instead),
// alsaBuffer elsewhere.
func defaultBuffer() time.Duration {
	switch runtime.GOOS {
	case "windows", "linux":
		return DefaultBuffer
	case "freebsd": // PulseAudio's stream, or oto's ALSA
		c, err := pulse.NewClient(pulse.ClientApplicationName("tandem"), pulse.ClientTimeout(time.Second))
		if err != nil {
			return alsaBuffer
		}
		c.Close()
		return DefaultBuffer
	}
	return alsaBuffer // the others: no timing to measure
}

// anchor waits, at most d, for the mixer's clock to anchor (the device has
// taken twice its buffer and the clock's first reads are in), so that a
// sound on the sim's first tick starts on its sample like every later one.
// It reports whether it did.
func (o *Output) anchor(d time.Duration) bool {
	for deadline := time.Now().Add(d); !o.Mixer.anchored.Load(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// measure sets the device's latency, once the clock has anchored: on
// PulseAudio the server's timing of the stream, which a goroutine then
// reads again whenever the clock sees the device's takes step
// (watchTiming), until Close; on WASAPI the stream's clock, which the
// stream then hands on as it plays (directWASAPI); else the buffer
// asked for. It returns the latency and where it came from, and why the
// device's could not be had ("" when it was).
func (o *Output) measure(name string, model time.Duration) (time.Duration, string, string) {
	if o.os != nil {
		heard0, err := o.os.heard0(24)
		if err != nil {
			o.Mixer.setLatency(int64(model))
			return model, LatencyModel, err.Error()
		}
		lat := time.Duration(heard0 - o.Mixer.clockOrigin.Load())
		o.Mixer.setLatency(int64(lat))
		o.os.follow()
		return lat, o.os.source(), ""
	}
	if !strings.HasPrefix(o.device, LatencyPulse) {
		o.Mixer.setLatency(int64(model))
		return model, LatencyModel, "oto gives no delay for " + o.device
	}
	pt, err := openPulseTiming(name)
	if err == nil {
		var heard0 int64
		if heard0, err = pt.heard0(o.Mixer, 24); err == nil {
			lat := time.Duration(heard0 - o.Mixer.clockOrigin.Load())
			o.Mixer.setLatency(int64(lat))
			o.timing.stop = make(chan struct{})
			o.timing.done = make(chan struct{})
			go func() {
				defer close(o.timing.done)
				defer pt.c.Close()
				watchTiming(o.Mixer, func(n int) (int64, error) { return pt.heard0(o.Mixer, n) }, o.timing.stop)
			}()
			return lat, LatencyPulse, ""
		}
		pt.c.Close()
	}
	o.Mixer.setLatency(int64(model))
	return model, LatencyModel, err.Error()
}

// stopTiming stops the goroutine that reads the server's timing, and
// waits for it. Close's, before the mixer is freed.
func (o *Output) stopTiming() {
	if o.timing.stop != nil {
		close(o.timing.stop)
		<-o.timing.done
		o.timing.stop = nil
	}
}

// The server's timing is read again when the clock sees the device's
// takes step or its player run dry: a sound server plays silence on its
// own side when the process feeds it late (oto's player never ran dry,
// so the clock takes the step for a change of the server's buffer
// level), and every frame after it is heard later. Only then: a reading
// is 32 to 256 requests to the server's main thread (retimeBurst).
// retimeSettle is how long after the step the reading starts.
const retimeSettle = 20 * time.Millisecond

// retimeBurst bounds the readings of the server's timing: at most this
// many in any as many seconds. Asked for at every pull while the clock ran
// late, readings followed one another without a pause, hundreds of
// requests a second to the server's main thread, and the gaps between the
// stream's requests grew from 7.5 ms to 24 to 88 ms while they went on,
// each gap past the buffer an underrun; one a second at most delayed the
// reading after a second step, and the sounds placed meanwhile were heard
// 2.2 ms off (docs/results/2026-11-27-sound-latency3.md).
const retimeBurst = 3

// retimeLimit holds the starts of the last retimeBurst readings of the
// server's timing. The zero value allows a reading at once.
type retimeLimit struct {
	recent [retimeBurst]time.Time // a ring; next is the oldest
	next   int
}

// wait returns how long after now the next reading may start: until the
// oldest of the last retimeBurst is retimeBurst seconds old.
func (l *retimeLimit) wait(now time.Time) time.Duration {
	return max(l.recent[l.next].Add(retimeBurst*time.Second).Sub(now), 0)
}

// took records a reading started at t.
func (l *retimeLimit) took(t time.Time) {
	l.recent[l.next] = t
	l.next = (l.next + 1) % retimeBurst
}

// heardAgree is how close two readings of the server's timing in a row
// must be for the clock to take them.
const heardAgree = 300_000 // ns

// pulseTiming reads PulseAudio's timing of this process's stream,
// through a connection of its own (oto's stream is not reachable).
type pulseTiming struct {
	c     *pulse.Client
	input uint32 // the stream's sink input
	// A reading's request, its reply (read only to its latencies: the
	// fields after them allocate), and the reads' instants, reused: a
	// reading allocates nothing.
	req   proto.GetSinkInputInfo
	info  proto.SinkInputLatencyReply
	heard []int64
}

// openPulseTiming connects to the server and finds this process's stream
// (named name) among its sink inputs.
func openPulseTiming(name string) (*pulseTiming, error) {
	c, err := pulse.NewClient(pulse.ClientApplicationName(name+" timing"), pulse.ClientTimeout(time.Second))
	if err != nil {
		return nil, fmt.Errorf("audio: the server's timing: %w", err)
	}
	var list proto.GetSinkInputInfoListReply
	if err := c.RawRequest(&proto.GetSinkInputInfoList{}, &list); err != nil {
		c.Close()
		return nil, fmt.Errorf("audio: the server's timing: list the streams: %w", err)
	}
	pid := strconv.Itoa(os.Getpid())
	for _, si := range list {
		if p, ok := si.Properties["application.process.id"]; ok && p.String() == pid && si.MediaName == name {
			return &pulseTiming{c: c, input: si.SinkInputIndex, req: proto.GetSinkInputInfo{SinkInputIndex: si.SinkInputIndex}}, nil
		}
	}
	c.Close()
	return nil, errors.New("audio: the server's timing: this process's stream is not among its sink inputs")
}

// watchTiming reads the device's timing (heard0, n readings: the
// server's, or the stream's clock) each time the mixer asks (a step or an
// underrun) and hands it to the mixer, until stop.
func watchTiming(m *Mixer, heard0 func(n int) (int64, error), stop chan struct{}) {
	var limit retimeLimit
	for {
		select {
		case <-stop:
			return
		case <-m.retime:
		}
		// A step is read at once, so that the sounds after it stay on
		// their samples, but a clock late at every pull, which asks for a
		// reading at every pull, at most retimeBurst times in as many
		// seconds (retimeBurst).
		if wait := limit.wait(time.Now()); wait > 0 {
			select {
			case <-stop:
				return
			case <-time.After(wait):
			}
		}
		time.Sleep(retimeSettle)
		limit.took(time.Now())
		// Two readings, taken when they agree: now and then the server
		// counts the data it was sent a moment before a read, or not yet,
		// and a single reading is off by a take.
		u := m.st.underruns.Load()
		h0, err0 := heard0(16)
		h1, err1 := heard0(16)
		if err0 != nil || err1 != nil {
			m.st.timingErrs.Add(1)
			continue
		}
		if m.st.underruns.Load() == u && max(h1-h0, h0-h1) < heardAgree {
			m.heardNext((h0+h1)/2, u)
		}
	}
}

// heard0 returns when the device's frame 0 is heard by the server's
// timing, ns on snapshot.Now's clock: at an instant t when the mixer has
// handed the server taken frames, the last of them is heard the data the
// server holds for the stream plus its sink's latency after t. It takes
// the median of n reads during which no frame was taken or written (a
// read that straddles a take cannot say which frames the server held).
func (pt *pulseTiming) heard0(m *Mixer, n int) (int64, error) {
	heard := pt.heard[:0]
	info := &pt.info
	for i := 0; i < 8*n && len(heard) < n; i++ {
		w0, b0 := m.st.written.Load(), m.level()
		t0 := m.now()
		if err := pt.c.RawRequest(&pt.req, info); err != nil {
			return 0, fmt.Errorf("audio: the server's timing: %w", err)
		}
		t1 := m.now()
		if w1, b1 := m.st.written.Load(), m.level(); w1 != w0 || b1 != b0 || t1-t0 > 2e6 {
			continue // a take or a write during the read, or a slow read
		}
		held := int64(info.SinkInputLatency+info.SinkLatency) * 1000
		heard = append(heard, (t0+t1)/2+held-m.clock.framesNs(w0-int64(b0)))
		time.Sleep(time.Duration(1+i%3) * time.Millisecond) // at different phases of the takes
	}
	pt.heard = heard
	if len(heard) < n/2 {
		return 0, fmt.Errorf("audio: the server's timing: %d clean reads of %d", len(heard), 8*n)
	}
	slices.Sort(heard)
	return heard[quantile.Rank(len(heard), 0.5)], nil // the median, by nearest rank
}
