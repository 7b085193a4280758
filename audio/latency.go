//go:build cgo

package audio

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/jfreymuth/pulse"
	"github.com/jfreymuth/pulse/proto"
)

// Where the device's latency comes from (Stats.LatencySource, the
// summary's audio_latency_source).
const (
	// LatencyPulse is measured: PulseAudio's own timing of this process's
	// stream, the data it holds for it and its sink's latency, read at
	// instants when the frames handed to it are known.
	LatencyPulse = "pulseaudio"
	// LatencyModel is the buffer asked for, assumed: oto gives no delay
	// through ALSA or WASAPI, or the server's timing could not be read.
	LatencyModel = "model"
)

// timing is how the device's start went: whether the clock anchored and
// how long that took, and the device's latency and where it came from.
type timing struct {
	anchored bool
	anchorIn time.Duration
	device   time.Duration // from a frame's take to its being heard
	source   string
	why      string // why the latency is the model's, "" when measured
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
		o.timing.why = fmt.Sprintf("the clock did not anchor within %v", opt.AnchorWait)
		o.Mixer.setLatency(int64(opt.Buffer))
	} else {
		o.timing.device, o.timing.source, o.timing.why = o.measure(opt.Name, opt.Buffer)
	}
	o.lat = o.timing.device + opt.Ahead + opt.Margin
}

// stats puts the device's timing in s.
func (t *timing) stats(s *Stats) {
	s.Anchored, s.AnchorMs = t.anchored, float64(t.anchorIn)/1e6
	s.DeviceLatencyMs, s.LatencySource, s.LatencyWhy = float64(t.device)/1e6, t.source, t.why
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
// PulseAudio the server's timing of the stream, else the buffer asked
// for. It returns the latency and where it came from, and why the
// server's could not be had ("" when it was).
func (o *Output) measure(name string, model time.Duration) (time.Duration, string, string) {
	lat, source, why := model, LatencyModel, ""
	if len(o.device) >= len(LatencyPulse) && o.device[:len(LatencyPulse)] == LatencyPulse {
		heard0, err := o.pulseHeard0(name)
		if err == nil {
			lat, source = time.Duration(heard0-o.Mixer.clockOrigin.Load()), LatencyPulse
		} else {
			why = err.Error()
		}
	} else {
		why = "oto gives no delay for " + o.device
	}
	o.Mixer.setLatency(int64(lat))
	return lat, source, why
}

// pulseHeard0 returns when the device's frame 0 is heard by the server's
// timing, ns on snapshot.Now's clock: at an instant t when the mixer has
// handed the server taken frames, the last of them is heard the data the
// server holds for the stream plus its sink's latency after t. It asks
// through a connection of its own (oto's stream is not reachable), finds
// this process's stream among the sink inputs, and takes the median of
// the reads during which no frame was taken or written (a read that
// straddles a take cannot say which frames the server held).
func (o *Output) pulseHeard0(name string) (int64, error) {
	c, err := pulse.NewClient(pulse.ClientApplicationName(name+" timing"), pulse.ClientTimeout(time.Second))
	if err != nil {
		return 0, fmt.Errorf("audio: the server's timing: %w", err)
	}
	defer c.Close()
	var list proto.GetSinkInputInfoListReply
	if err := c.RawRequest(&proto.GetSinkInputInfoList{}, &list); err != nil {
		return 0, fmt.Errorf("audio: the server's timing: list the streams: %w", err)
	}
	pid, input := strconv.Itoa(os.Getpid()), uint32(0)
	found := false
	for _, si := range list {
		if p, ok := si.Properties["application.process.id"]; ok && p.String() == pid && si.MediaName == name {
			input, found = si.SinkInputIndex, true
		}
	}
	if !found {
		return 0, errors.New("audio: the server's timing: this process's stream is not among its sink inputs")
	}
	m := o.Mixer
	var heard []int64
	for i := 0; i < 200 && len(heard) < 24; i++ {
		w0, b0 := m.st.written.Load(), m.buffered()
		t0 := m.now()
		var info proto.GetSinkInputInfoReply
		if err := c.RawRequest(&proto.GetSinkInputInfo{SinkInputIndex: input}, &info); err != nil {
			return 0, fmt.Errorf("audio: the server's timing: %w", err)
		}
		t1 := m.now()
		if w1, b1 := m.st.written.Load(), m.buffered(); w1 != w0 || b1 != b0 || t1-t0 > 2e6 {
			continue // a take or a write during the read, or a slow read
		}
		held := int64(info.SinkInputLatency+info.SinkLatency) * 1000
		heard = append(heard, (t0+t1)/2+held-m.clock.framesNs(w0-int64(b0)))
		time.Sleep(time.Duration(1+i%3) * time.Millisecond) // at different phases of the takes
	}
	if len(heard) < 8 {
		return 0, fmt.Errorf("audio: the server's timing: %d clean reads of 200", len(heard))
	}
	slices.Sort(heard)
	return heard[len(heard)/2], nil
}
