//go:build cgo

package audio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tandem-engine/tandem/audio/internal/pulse"
	"github.com/tandem-engine/tandem/audio/internal/pulse/proto"
)

// The device's faults: a sound server that dies, stalls or misbehaves
// during a run, and a streamed file that fails while it plays. None of
// them stops the run or holds up a tick, a frame or the exit: a watcher
// goroutine of the Output's looks every watchEvery, says each fault once
// on the run's stderr, keeps what happened and when for the summary
// (Stats.Device), and tries to reconnect to a PulseAudio server that went
// away. Every wait here is bounded.
const (
	watchEvery = 50 * time.Millisecond
	// stallAfter is how long the device may take no sound before it is
	// said to have stopped (it takes every 20 to 50 ms while it plays).
	stallAfter = time.Second
	// retryEvery paces the reconnections to a lost server.
	retryEvery = time.Second
	// stopWait bounds each wait of Close: for oto's reader, for the
	// watcher, for the reconnected stream.
	stopWait = time.Second
)

// faults is an Output's watcher and what it saw.
type faults struct {
	o      *Output
	notice io.Writer
	opened time.Time
	stop   chan struct{}
	done   chan struct{}

	mu     sync.Mutex
	events []string // what happened and when, for the summary

	// The watcher's own.
	said     int         // stream errors said
	frames   int64       // the device's frames at the last look
	movedAt  time.Time   // when they last moved
	stalled  atomic.Bool // the device took nothing for stallAfter, its server answering (or stopped)
	lost     atomic.Bool // the server is gone; reconnecting
	triedAt  time.Time
	direct   *directPulse // the stream a reconnection opened, nil until then
	ototaken bool         // oto's player was stopped for it
}

// watch starts o's watcher, which says its faults on notice (nil: only
// in the summary).
func (o *Output) watch(notice io.Writer) {
	f := &faults{o: o, notice: notice, opened: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	f.movedAt = f.opened
	o.faults = f
	go f.run()
}

func (f *faults) run() {
	defer close(f.done)
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	for {
		select {
		case <-f.stop:
			return
		case now := <-t.C:
			f.look(now)
		}
	}
}

// at says when, in seconds since the device opened for the run.
func (f *faults) at(now time.Time) string { return fmt.Sprintf("%.2f s", now.Sub(f.opened).Seconds()) }

// say records what happened for the summary and says it once on stderr.
func (f *faults) say(event, line string) {
	f.mu.Lock()
	if len(f.events) < 16 { // a server that comes and goes all run long: the first are enough
		f.events = append(f.events, event)
	}
	f.mu.Unlock()
	if f.notice != nil {
		fmt.Fprintf(f.notice, "tandem: %s\n", line)
	}
}

// look checks the streams and the device once.
func (f *faults) look(now time.Time) {
	m := f.o.Mixer
	if errs := m.StreamErrors(nil); len(errs) > f.said {
		for _, err := range errs[f.said:] {
			f.say(fmt.Sprintf("a stream failed at %s", f.at(now)),
				fmt.Sprintf("sound: %s; that sound stops, the run goes on", strings.TrimPrefix(err.Error(), "audio: ")))
		}
		f.said = len(errs)
	}
	if f.o.os != nil && !f.lost.Load() {
		// WASAPI's own stream says why its engine stopped serving it
		// (the device went: AUDCLNT_E_DEVICE_INVALIDATED): said at once.
		if err := f.o.os.err(); err != nil {
			f.lost.Store(true)
			f.say(fmt.Sprintf("device lost at %s (%s)", f.at(now), err),
				fmt.Sprintf("the sound device was lost at %s into the run (%s); the run goes on silent", f.at(now), err))
			return
		}
	}

	// The device's health is read from what it takes, not from its
	// client's error: jfreymuth/pulse sets a stream's error on its own
	// goroutine with no synchronization (oto's Context.Err reads it).
	frames := m.st.written.Load()
	if frames != f.frames {
		f.frames, f.movedAt = frames, now
		if f.stalled.Load() {
			f.stalled.Store(false) // (the mixer anchors anew by itself: gapRebase)
			f.say(fmt.Sprintf("resumed at %s", f.at(now)),
				fmt.Sprintf("the sound server takes sound again at %s", f.at(now)))
		}
		return
	}
	if now.Sub(f.movedAt) < stallAfter || f.direct == nil && frames <= 2*m.clock.warm {
		// (A device that has not played yet is left alone: ALSA's may
		// take a second to start, and a start is timed by the clock's
		// own warm-up.)
		return
	}
	if !f.stalled.Load() && !f.lost.Load() {
		// It took nothing for stallAfter: a server that does not answer
		// is gone; one that answers (or stopped: it answers nothing in
		// time) has stalled.
		f.triedAt = now
		if err := f.probe(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			f.lost.Store(true)
			f.say(fmt.Sprintf("server lost at %s (%s)", f.at(f.movedAt), err),
				fmt.Sprintf("the sound server was lost at %s into the run (%s); the run goes on silent and reconnects if it comes back", f.at(f.movedAt), err))
		} else {
			f.stalled.Store(true)
			where := ""
			if w, ok := f.o.os.(interface{ where() string }); ok {
				where = ", its thread in " + w.where() // ALSA's: which call the device holds it in
			}
			f.say(fmt.Sprintf("stalled at %s%s", f.at(f.movedAt), where),
				fmt.Sprintf("the sound server took no sound from %s into the run to %s; the run goes on, its sounds wait or are dropped (counted)", f.at(f.movedAt), f.at(now)))
		}
		return
	}
	if f.onPulse() && now.Sub(f.triedAt) >= retryEvery {
		f.triedAt = now
		f.reconnect(now)
	}
}

// onPulse reports whether the device is a PulseAudio server's: the one
// a reconnection can reach again. A device of ALSA's or WASAPI's that
// takes nothing is said to have stalled.
func (f *faults) onPulse() bool { return strings.HasPrefix(f.o.device, LatencyPulse) }

// probe connects to the PulseAudio server afresh and reports why it
// could not; nil for ALSA and WASAPI, which have no server to ask.
func (f *faults) probe() error {
	if !f.onPulse() {
		return nil
	}
	c, err := pulse.NewClient(pulse.ClientApplicationName(f.o.name), pulse.ClientTimeout(pulseTimeout))
	if err != nil {
		return err
	}
	c.Close()
	return nil
}

// reconnect tries once to play the mixer on a new PulseAudio stream (oto
// opens one context per process, and its context does not come back):
// when the server answers and the stream the device had still takes
// nothing a moment later, that stream is gone.
func (f *faults) reconnect(now time.Time) {
	if f.probe() != nil {
		return // not back yet
	}
	time.Sleep(3 * watchEvery)
	if f.o.Mixer.st.written.Load() != f.frames {
		return // it takes again: the next look says so
	}
	if f.direct != nil {
		f.direct.close()
		f.direct = nil
	}
	if f.o.direct != nil { // the stream the run opened on: gone with its server
		f.o.direct.close()
		f.o.direct = nil
	}
	if !f.ototaken && f.o.player != nil {
		if !bounded(stopWait, f.o.player.PauseAndStopReading) {
			return // oto's reader is stuck in the mixer: it cannot be replaced yet
		}
		f.ototaken = true
	}
	d, err := openDirect(f.o)
	if err != nil {
		return // not back yet
	}
	f.direct = d
	f.lost.Store(false)
	f.stalled.Store(false)
	f.frames, f.movedAt = f.o.Mixer.st.written.Load(), now
	f.say(fmt.Sprintf("reconnected at %s", f.at(now)), fmt.Sprintf("the sound server is back at %s into the run: sound plays again", f.at(now)))
}

// close stops the watcher and the reconnected stream, each wait bounded.
func (f *faults) close() {
	close(f.stop)
	select {
	case <-f.done:
	case <-time.After(stopWait + pulseTimeout):
		return // in a reconnection to a server that does not answer: left to end alone
	}
	if f.direct != nil {
		f.direct.close()
	}
}

// down reports whether the device was lost or stalled when the watcher
// stopped. After close.
func (f *faults) down() bool { return f.lost.Load() || f.stalled.Load() }

// summary is what happened, "" when nothing did.
func (f *faults) summary() string {
	if f == nil {
		return ""
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.events, ", ")
}

// bounded runs fn and reports whether it returned within d; if not, fn
// goes on alone.
func bounded(d time.Duration, fn func()) bool {
	done := make(chan struct{})
	go func() { fn(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

// pulseTimeout bounds each request to a PulseAudio server.
const pulseTimeout = time.Second

// directPulse plays a mixer on a PulseAudio stream of its own, with no
// oto player between: the server's requests read the mixer itself, so
// nothing waits in a player ahead of the device's takes. It is the
// device on PulseAudio from the start, and again after a reconnection.
// Its reader stops reading the mixer once close has returned.
type directPulse struct {
	m      *Mixer
	client *pulse.Client
	stream *pulse.PlaybackStream
	// mu is held by Read while it reads the mixer, so that end, once it
	// has taken it, knows no read is under way.
	mu sync.Mutex
	// stopped is set by end: Read reads the mixer no more, and the
	// server's underflow notice once a drain has played out is the run's
	// end, not a dropout.
	stopped atomic.Bool
}

// openDirect connects to the PulseAudio server afresh and plays o's
// mixer on it, at the rate and buffer the device had, after the device
// was lost. The mixer reads no oto player any more: it takes what the
// server asks for, and its clock anchors anew.
func openDirect(o *Output) (*directPulse, error) {
	// The server's timing was read on the lost connection: that reader
	// stops before the mixer changes hands, and the latency stays the
	// last one measured.
	bounded(pulseTimeout, o.stopTiming)
	o.Mixer.buffered = nil // no reader runs now (oto's stopped): the mixer is ours to set
	o.Mixer.rebase.Store(true)
	return dialDirect(o.Mixer, o.name, o.Mixer.rate, o.buffer, pulseTimeout)
}

// dialDirect connects to the PulseAudio server and plays m on a stream
// named name, at rate Hz with a buffer (the server's target length) of
// buffer, waiting at most wait for it to start (a fresh null sink that
// ran ahead while it had no stream takes most of a second).
func dialDirect(m *Mixer, name string, rate int, buffer, wait time.Duration) (*directPulse, error) {
	c, err := pulse.NewClient(pulse.ClientApplicationName(name), pulse.ClientTimeout(pulseTimeout))
	if err != nil {
		return nil, err
	}
	d := &directPulse{m: m, client: c}
	m.st.serverCounted.Store(true)
	s, err := c.NewPlayback(d, pulse.PlaybackStereo, pulse.PlaybackSampleRate(rate),
		pulse.PlaybackLatency(buffer.Seconds()), pulse.PlaybackMediaName(name), pulse.PlaybackOnUnderflow(d.underflow))
	if err != nil {
		c.Close()
		return nil, err
	}
	d.stream = s
	if !bounded(wait, s.Start) {
		d.close()
		return nil, fmt.Errorf("the server did not start the stream within %v", wait)
	}
	return d, nil
}

// Read is the stream's: the mixer's next frames, float32 stereo.
func (d *directPulse) Read(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopped.Load() {
		return 0, pulse.EndOfData
	}
	return d.m.Read(p[:len(p)/8*8])
}

// underflow counts one of the server's underflow notices: the stream's
// data ran out while it played, and the server played silence.
func (d *directPulse) underflow() {
	if !d.stopped.Load() {
		d.m.st.serverUnderflows.Add(1)
	}
}

// Format is the stream's sample format.
func (d *directPulse) Format() byte { return proto.FormatFloat32LE }

// close stops reading the mixer at once, then closes the stream and the
// connection, waiting at most pulseTimeout for the server.
func (d *directPulse) close() { d.end(false) }

// finish is the run's end: as close, but the server first plays what it
// holds, so a sound mixed just before the stop is heard (oto's stream,
// which outlives a run, played it). Not for a stream the server lost or
// stalled on: its drain would only wait out the bound.
func (d *directPulse) finish() { d.end(true) }

func (d *directPulse) end(drain bool) {
	d.stopped.Store(true)
	d.mu.Lock() // a read under way has left the mixer
	d.mu.Unlock()
	bounded(pulseTimeout, func() {
		if d.stream != nil {
			if drain {
				d.stream.Drain()
			}
			d.stream.Close()
		}
		d.client.Close()
	})
}
