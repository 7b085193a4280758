//go:build linux && cgo

package alsa

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Device is the ALSA PCM a Stream plays on: ALSA's default, which the
// user's ~/.asoundrc or the system's configuration names (a card, dmix,
// or a sound server's plugin).
const Device = "default"

// periods is how many periods make the PCM's buffer: the stream is woken
// to fill each time a period has played.
const periods = 4

// waitMs bounds each wait for room, so that a stop is seen even when the
// device takes nothing (a stalled device).
const waitMs = 100

// What the stream's thread is doing, for a stall's report (Phase).
const (
	inLoop int32 = iota
	inAvail
	inWait
	inFill
	inWrite
	inRecover
)

var phases = [...]string{"no call (its loop)", "snd_pcm_avail_update", "snd_pcm_wait", "the mixer's fill or snd_pcm_delay", "snd_pcm_writei", "snd_pcm_recover"}

// Source fills a stream's buffer: p is float32 stereo, little endian, to
// be filled whole; queued is the frames written before and not yet taken
// by the device (its buffer less the room). On the stream's thread; it
// must not block long or allocate.
type Source interface {
	Fill(p []byte, queued int)
}

// Stream is a playback stream on an ALSA PCM of its own, served by a
// thread of its own that writes exactly what the PCM has room for.
type Stream struct {
	Name   string // the PCM's name
	Rate   int    // Hz, as the device took it
	Frames int    // the PCM's buffer, frames
	Period int    // frames

	p       *pcm
	buf     []byte
	stop    atomic.Bool
	started bool
	done    chan struct{}
	xruns   atomic.Int64
	phase   atomic.Int32
	err     atomic.Pointer[error]
	closes  sync.Once
}

// Open opens ALSA's default PCM for playback at rate Hz, float32 stereo,
// with a buffer near buffer (periods periods). The device may round the
// buffer and the period: Frames and Period say what it took.
func Open(rate int, buffer time.Duration) (*Stream, error) {
	frames := max(int(int64(rate)*int64(buffer)/int64(time.Second)), 4*periods)
	p, err := openPCM(Device, rate, frames, frames/periods)
	if err != nil {
		return nil, err
	}
	if p.rate() != rate {
		p.close()
		return nil, fmt.Errorf("the device plays at %d Hz, not %d", p.rate(), rate)
	}
	s := &Stream{Name: Device, Rate: p.rate(), Frames: p.buffer(), Period: max(p.period(), 1), p: p, done: make(chan struct{})}
	s.buf = make([]byte, 8*s.Frames)
	return s, nil
}

// Start serves the PCM on a thread of its own until Close: it fills the
// buffer from src, which starts the device, and each time the device has
// room for a period or more, fills that room.
func (s *Stream) Start(src Source) error {
	s.started = true
	go s.loop(src)
	return nil
}

func (s *Stream) loop(src Source) {
	defer close(s.done)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer s.phase.Store(inLoop)
	for !s.stop.Load() {
		s.phase.Store(inAvail)
		n := s.p.avail()
		if n < 0 {
			if !s.recover("snd_pcm_avail_update", n) {
				return
			}
			continue
		}
		if n < s.Period {
			s.phase.Store(inWait)
			if r := s.p.wait(waitMs); r < 0 && !s.recover("snd_pcm_wait", r) {
				return
			}
			continue
		}
		n = min(n, s.Frames)
		b := s.buf[:8*n]
		s.phase.Store(inFill)
		src.Fill(b, s.Frames-n)
		// Every frame filled is written, after a recovery too: the
		// source has counted them (its clock's frames are the PCM's).
		for off := 0; off < n; {
			s.phase.Store(inWrite)
			w := s.p.write(b[8*off:], n-off)
			if w < 0 {
				if !s.recover("snd_pcm_writei", w) {
					return
				}
				continue
			}
			off += w
		}
	}
}

// recover recovers the PCM from err, counting an underrun (-EPIPE), and
// reports whether it did; if not, the stream fails with why.
func (s *Stream) recover(call string, err int) bool {
	if err == -epipe {
		s.xruns.Add(1)
	}
	s.phase.Store(inRecover)
	if r := s.p.recover(err); r < 0 {
		e := errno(call, err)
		s.err.Store(&e)
		return false
	}
	return true
}

// epipe is EPIPE, ALSA's underrun.
const epipe = 32

// XRuns returns the underruns the PCM reported (EPIPE) so far.
func (s *Stream) XRuns() int64 { return s.xruns.Load() }

// Phase names what the stream's thread is doing now: the ALSA call it is
// in, for a stall's report.
func (s *Stream) Phase() string { return phases[s.phase.Load()] }

// Err returns why the stream's thread stopped early, nil while it serves.
func (s *Stream) Err() error {
	if e := s.err.Load(); e != nil {
		return *e
	}
	return nil
}

// Read reads the PCM's delay, the frames written and not yet heard, at
// an instant on CLOCK_MONOTONIC. From the Source's Fill only (the PCM is
// the stream thread's); it allocates nothing.
func (s *Stream) Read() (Reading, error) {
	d, t0, t1, e := s.p.read()
	if e < 0 {
		return Reading{}, errno("snd_pcm_delay", e)
	}
	return Reading{Delay: d, T0: t0, T1: t1, Rate: s.Rate}, nil
}

// Close stops the stream's thread, waiting at most wait for it, then,
// with drain, lets the device play what it holds, and closes the PCM,
// all within wait. It reports whether the thread returned in time (if
// not, the PCM is left to it). A second Close does nothing but report.
func (s *Stream) Close(drain bool, wait time.Duration) bool {
	s.stop.Store(true)
	deadline := time.After(wait)
	if s.started {
		select {
		case <-s.done:
		case <-deadline:
			return false // a thread stuck in the device: left to end alone
		}
	}
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		s.closes.Do(func() {
			if drain {
				s.p.drain()
			} else {
				s.p.drop()
			}
			s.p.close()
		})
	}()
	select {
	case <-closed:
	case <-deadline: // a device that does not drain: it closes when it does
	}
	return true
}
