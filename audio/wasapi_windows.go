//go:build cgo

package audio

import (
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/tandem-engine/tandem/audio/internal/wasapi"
	"github.com/tandem-engine/tandem/snapshot"
)

// directWASAPI plays a mixer on a WASAPI stream of its own, with no oto
// player between: at each of the engine's events the mixer fills exactly
// the frames the stream's buffer has room for, straight into the
// engine's buffer, as directPulse is read at the server's requests. The
// frames the engine still holds (its padding) are the mixer's "buffered":
// a take is what the engine played since, and a padding of 0 at an event
// is the device run dry.
//
// Once the latency is measured (follow), each event also reads the
// stream's clock, a local call that allocates nothing: the least of
// every followEvents readings is handed to the mixer (Mixer.heardNext),
// which moves its clock when the device's timing moved past the
// readings' noise, and counts an underrun when frames are heard later
// (the engine played silence). Unlike PulseAudio's timing, asked of the
// server's main thread and so read only when the clock sees a step,
// this needs no asking and no bound.
type directWASAPI struct {
	m       *Mixer
	s       *wasapi.Stream
	padding atomic.Int64 // at the event being served (read off the render thread only by a failed start's message)
	stopped atomic.Bool
	follows atomic.Bool // hand the stream's clock to the mixer (after the first measure)
	offset  int64       // snapshot.Now's reading at the counter's 0, ns
	win     readWindow  // the render thread's
	// The device's latency from a take to its being heard, ns, by the
	// last window: its heard0 less its taken0.
	device atomic.Int64
	// Windows handed on and taken by the mixer (settle's).
	windows atomic.Int64
}

// osName reports whether a WASAPI stream opens on the default output
// device at o's rate and buffer, and names the device. The stream is
// closed again: each Output opens its own (openOS).
func osName(o Options) (string, bool) {
	s, err := wasapi.Open(o.Rate, o.Buffer)
	if err != nil {
		return "", false
	}
	s.Close(false, stopWait)
	return s.Name, true
}

// openOS plays m on a WASAPI stream of its own.
func openOS(m *Mixer, o Options) (osStream, error) {
	s, err := wasapi.Open(o.Rate, o.Buffer)
	if err != nil {
		return nil, fmt.Errorf("WASAPI: %w", err)
	}
	d := &directWASAPI{m: m, s: s, offset: qpcOffset()}
	d.win.reset()
	m.buffered = func() int { return int(d.padding.Load()) }
	if err := s.Start(d); err != nil {
		s.Close(false, stopWait)
		return nil, fmt.Errorf("WASAPI: %w", err)
	}
	return d, nil
}

// Fill is the stream's: the mixer's next frames, float32 stereo, into
// the engine's buffer. It allocates nothing.
func (d *directWASAPI) Fill(p []byte, padding int) {
	if d.stopped.Load() {
		clear(p)
		return
	}
	d.padding.Store(int64(padding))
	handed := false
	if d.follows.Load() {
		if r, exact, err := d.s.Position(); err == nil && exact {
			taken0 := d.m.now() - d.m.clock.framesNs(d.m.written-int64(padding))
			if heard0, latency, full := d.win.add(r.Heard0(d.offset), taken0); full {
				d.m.heardNext(heard0, d.m.st.underruns.Load())
				d.device.Store(latency)
				handed = true
			}
		}
	}
	n, _ := d.m.Read(p) // (which takes a window handed on)
	if handed {
		d.windows.Add(1)
	}
	clear(p[n:])
}

// ahead is how long before its take a frame is mixed: a whole buffer,
// the engine's room at an event being filled at once.
func (d *directWASAPI) ahead() time.Duration {
	return time.Duration(d.s.Frames) * time.Second / time.Duration(d.m.rate)
}

// settleWindows is how many windows of the stream's clock in a row must
// leave the mixer's clock where it was for the device to have settled.
const settleWindows = 2

// settle waits, until deadline at most, for the device's clock to hold
// still: settleWindows windows of readings in a row that moved nothing.
// Under Wine the stream's first second and a half runs slow (its timer
// feeds PulseAudio two thirds of what it plays, and the server plays
// silence), and a sound placed then is heard late; a device that starts
// cleanly settles in two windows (0.32 s). It reports whether it did.
func (d *directWASAPI) settle(deadline time.Time) bool {
	w, moved, quiet := d.windows.Load(), d.m.st.retimed.Load(), 0
	for quiet < settleWindows {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
		if nw := d.windows.Load(); nw != w {
			w = nw
			if r := d.m.st.retimed.Load(); r != moved {
				moved, quiet = r, 0
			} else {
				quiet++
			}
		}
	}
	return true
}

// latency is the device's latency from a take to its being heard, by
// the last window of the stream's clock: the least reading of when frame
// 0 is heard less the least of (an event's instant − the frames taken by
// then). Under Wine, whose position is the frames taken, it is about 0.
func (d *directWASAPI) latency() time.Duration { return time.Duration(max(d.device.Load(), 0)) }

// err says why the engine stopped serving the stream, nil while it does.
func (d *directWASAPI) err() error { return d.s.Err() }

// follow starts handing the stream's clock to the mixer at each event.
func (d *directWASAPI) follow() { d.follows.Store(true) }

// qpcOffset returns snapshot.Now's reading at the performance counter's
// 0, ns: from the tightest of a few reads of the one around the other.
func qpcOffset() int64 {
	var off, width int64
	for i := range 16 {
		t0 := snapshot.Now()
		q := wasapi.QPC()
		t1 := snapshot.Now()
		if i == 0 || t1-t0 < width {
			off, width = wasapi.Offset(t0, q, t1), t1-t0
		}
	}
	return off
}

// source names where heard0's timing comes from.
func (d *directWASAPI) source() string { return LatencyWASAPI }

// heard0 returns when the device's frame 0 is heard, ns on snapshot.Now's
// clock, by the stream's clock: the least of n readings, each the
// position the speakers play at a performance-counter instant, put on
// snapshot.Now's clock by reading both clocks around the counter. The
// least, not the median: a position that advances in steps (Wine's, a
// period at each tick of its timer, and some drivers') lags by up to a
// step between them, so that a reading says frame 0 was heard later than
// it was, and the one just after a step is the true one; a smooth
// position's readings agree within microseconds. A reading GetPosition
// says was blurred (S_FALSE) is left out.
func (d *directWASAPI) heard0(n int) (int64, error) {
	heard := make([]int64, 0, n)
	for i := 0; i < 4*n && len(heard) < n; i++ {
		r, exact, err := d.s.Read()
		if err != nil {
			return 0, fmt.Errorf("audio: the stream's clock: %w", err)
		}
		if exact {
			heard = append(heard, r.Heard0(d.offset))
		}
		time.Sleep(time.Duration(1+i%3) * time.Millisecond) // at different phases of the engine's periods
	}
	if len(heard) < n/2 {
		return 0, fmt.Errorf("audio: the stream's clock: %d exact readings of %d", len(heard), 4*n)
	}
	return slices.Min(heard), nil
}

// end stops reading the mixer, then stops and releases the stream; with
// drain the engine first plays what it holds. Its waits are bounded; it
// reports whether the render thread left the mixer in time.
func (d *directWASAPI) end(drain bool) bool {
	d.stopped.Store(true)
	return d.s.Close(drain, stopWait)
}
