//go:build cgo

// The device is linked only into a build with cgo: the window and the
// loop that play sound need it anyway, and oto loads its libraries
// through purego, which makes a binary dynamically linked. The decoders
// and the mixer, which the game's side of the API uses, build without.

package audio

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ebitengine/oto/v3"
	"github.com/tandem-engine/tandem/audio/internal/pulse"

	"github.com/tandem-engine/tandem/snapshot"
)

// Options are the device's settings; a zero field takes its default.
type Options struct {
	Rate int // Hz; default 48000
	// Buffer is the device's own buffer: PulseAudio's target length,
	// WASAPI's stream buffer, or ALSA's buffer (four periods on the
	// mixer's own PCM, two through oto). Default DefaultBuffer where a
	// PulseAudio server answers, a WASAPI stream or ALSA's own PCM opens,
	// 100 ms through oto.
	Buffer time.Duration
	// Ahead is how far the mixer keeps ahead of the device's takes in
	// oto's player, where it plays through oto: more than one take of the
	// device (ALSA takes a period, half the buffer). Default Buffer/2 +
	// 25 ms. On PulseAudio the mixer plays on a stream of its own and is
	// read at each of the server's requests: nothing is kept ahead, and
	// the least request, measured, takes Ahead's place in the latency.
	Ahead time.Duration
	// Margin is added to the latency for the sim thread's lateness in
	// publishing a tick and the device's wait between takes. Default
	// DefaultMargin.
	Margin time.Duration
	// Wait bounds the device's start. Default 5 s.
	Wait time.Duration
	Name string // the client's name on the sound server; default "tandem"
	// OnCall starts each sound at the next buffer the device pulls, the
	// way engines that play on call do, ignoring its tick's time: for the
	// bench's comparison only (tandem bench -audio-on-call). Each start
	// is still recorded against the instant a sample-exact start would
	// have (Onset.Aimed), so the two are compared on the same terms.
	OnCall bool
	// AnchorWait bounds the wait, once the device runs, for the mixer's
	// clock to anchor and the device's latency to be measured, so that
	// the first tick's sounds start on their samples. Default 2 s; past
	// it the run plays anyway, its first sounds late, and says so
	// (Stats.Anchored).
	AnchorWait time.Duration
}

// Output is the mixer playing on the sound device. A silent Output (from
// Start with -mute or with no device, or nil) does nothing in each of its
// methods, so a loop calls them alike either way.
type Output struct {
	*Mixer  // nil when silent
	ctx     *oto.Context
	player  *oto.Player  // through oto; nil on a stream of the mixer's own
	direct  *directPulse // on PulseAudio: the mixer's own stream; nil through oto
	os      osStream     // the mixer's own WASAPI stream or ALSA PCM; nil through oto
	device  string       // the device, or why there is none
	lat     time.Duration
	name    string        // the client's name on the sound server
	buffer  time.Duration // the device's buffer
	faults  *faults       // the watcher of the device and the streams (fault.go)
	closing atomic.Bool
	timing  timing // the device's measured latency and the clock's anchor
}

// silent reports whether o plays nothing.
func (o *Output) silent() bool { return o == nil || o.Mixer == nil }

// Start opens the device for a run and returns its output, always
// non-nil. With mute, or when the device does not open, the output is
// silent and says why in Device (the summary's "audio"); a device that
// failed is told once, in one line, to notice (the run's stderr).
func Start(sounds []*Sound, mute bool, o Options, notice io.Writer) *Output {
	if mute {
		return &Output{device: "none: muted (-mute)"}
	}
	out, err := open(sounds, o, notice)
	if err != nil {
		if notice != nil {
			fmt.Fprintf(notice, "tandem: %v; running silent\n", err)
		}
		return &Output{device: "none: " + strings.TrimPrefix(err.Error(), "audio: ")}
	}
	return out
}

// dev is the sound device. oto opens one per process: it is kept for the
// process's life and shared by the runs in it, one Output at a time.
var dev struct {
	sync.Mutex
	ctx    *oto.Context
	err    error // why it did not open: every later Open says the same
	rate   int
	buffer time.Duration
	name   string
	os     bool // each Output plays on a stream of the platform's own API (openOS)
	busy   bool // an Output plays on it
}

// Open opens the sound device and plays a mixer of sounds on it. With no
// device (no sound server and no ALSA, a machine with no sound card) it
// returns an error saying why: the caller says so once and runs silent.
// oto opens one device per process: the first Open opens it, at o.Rate
// and o.Buffer, and later ones (after the last Output closed) play on it
// again, at the same rate and buffer. Main thread (any one goroutine); it
// blocks until the device runs.
func Open(sounds []*Sound, o Options) (*Output, error) { return open(sounds, o, nil) }

// open is Open, with the device's faults said on notice (nil: only in
// the summary).
func open(sounds []*Sound, o Options, notice io.Writer) (*Output, error) {
	if o.Rate == 0 {
		o.Rate = 48000
	}
	asked := o.Buffer != 0
	if !asked {
		o.Buffer = defaultBuffer()
	}
	if o.Margin == 0 {
		o.Margin = DefaultMargin
	}
	if o.Wait == 0 {
		o.Wait = 5 * time.Second
	}
	if o.AnchorWait == 0 {
		o.AnchorWait = 2 * time.Second
	}
	if o.Name == "" {
		o.Name = "tandem"
	}
	dev.Lock()
	defer dev.Unlock()
	if dev.busy {
		return nil, errors.New("audio: the sound device is in use by another Output: close it first")
	}
	if dev.ctx == nil && dev.name == "" && dev.err == nil {
		dev.rate, dev.buffer = o.Rate, o.Buffer
		if name, ok := pulseName(); ok {
			dev.name = name // each Output plays on a stream of its own (dialDirect)
		} else if name, ok := osName(o); ok {
			dev.name, dev.os = name, true // each Output plays on a stream of its own (openOS)
		} else {
			if !asked {
				o.Buffer = alsaBuffer // oto's takes: see alsaBuffer
			}
			dev.buffer = o.Buffer
			if dev.ctx, dev.err = openDevice(o); dev.err == nil {
				dev.name = deviceName()
			}
		}
	}
	if dev.err != nil {
		return nil, dev.err
	}
	if !asked && dev.ctx != nil {
		o.Buffer = dev.buffer // oto's device, opened once at its buffer
	}
	if o.Rate != dev.rate || o.Buffer != dev.buffer {
		return nil, fmt.Errorf("audio: the sound device is open at %d Hz with a %v buffer; oto cannot reopen it at %d Hz, %v", dev.rate, dev.buffer, o.Rate, o.Buffer)
	}
	ctx, name := dev.ctx, dev.name
	m := NewMixer(o.Rate, sounds)
	m.onCall = o.OnCall
	m.clock.latency = int64(o.Buffer)
	m.clock.skip = 2 * int64(o.Rate) * int64(o.Buffer) / int64(time.Second)
	m.clock.warm = m.clock.skip
	out := &Output{Mixer: m, ctx: ctx, device: name, name: o.Name, buffer: o.Buffer}
	if dev.os {
		// WASAPI: the mixer fills the engine's buffer at each of its
		// events, with nothing kept ahead of them.
		d, err := openOS(m, o)
		if err != nil {
			return nil, fmt.Errorf("audio: no sound device: %v (run with -mute)", err)
		}
		out.os = d
	} else if ctx == nil {
		// PulseAudio: the mixer is read at each of the server's requests,
		// with nothing kept ahead of them (see Options.Ahead).
		d, err := dialDirect(m, o.Name, o.Rate, o.Buffer, o.Wait)
		if err != nil {
			return nil, fmt.Errorf("audio: no sound device: PulseAudio: %v (start a sound server, or run with -mute)", err)
		}
		out.direct = d
	} else {
		if o.Ahead == 0 {
			o.Ahead = defaultAhead(o.Buffer, name)
		}
		m.target = int(int64(o.Rate) * int64(o.Ahead) / int64(time.Second))
		p := ctx.NewPlayer(m)
		p.SetBufferSize(8 * m.target)
		m.buffered = func() int { return p.BufferedSize() / 8 }
		out.player = p
		p.Play()
	}
	out.lat = o.Buffer + o.Ahead + o.Margin
	dev.busy = true
	out.startClock(o)
	out.watch(notice)
	return out, nil
}

// openDevice opens oto's context and waits for it to run. While oto
// tries the devices, the C libraries it loads (libasound, and JACK's
// through it) write their own complaints to the process's stderr, dozens
// of lines on a machine with no sound card: they are sent to /dev/null
// meanwhile, and the error says once, in a line, what was tried.
func openDevice(o Options) (*oto.Context, error) {
	restore := quietStderr()
	defer restore()
	ctx, ready, err := oto.NewContext(&oto.NewContextOptions{SampleRate: o.Rate, ChannelCount: 2,
		Format: oto.FormatFloat32LE, BufferSize: o.Buffer, ApplicationName: o.Name})
	if err != nil {
		return nil, fmt.Errorf("audio: no sound device: %s (start a sound server, or run with -mute)", shortDeviceError(err))
	}
	select {
	case <-ready:
	case <-time.After(o.Wait):
		return nil, fmt.Errorf("audio: no sound device: it did not start within %v", o.Wait)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("audio: no sound device: %s (start a sound server, or run with -mute)", shortDeviceError(err))
	}
	return ctx, nil
}

// shortDeviceError says in a line why oto found no device: the
// PulseAudio client's reason, and that no ALSA device opened, not the
// dozens of ALSA device names oto tried.
func shortDeviceError(err error) string {
	msg := err.Error()
	pa, alsa, ok := strings.Cut(msg, "; ALSA:")
	if !ok {
		return msg
	}
	if _, reason, ok := strings.Cut(pa, "PulseAudio client initialization failed: "); ok {
		pa = "no PulseAudio server (" + reason + ")"
	} else if _, reason, ok := strings.Cut(pa, "PulseAudio: "); ok {
		pa = "PulseAudio: " + reason
	}
	return fmt.Sprintf("%s; no ALSA device opened (%d tried)", pa, strings.Count(alsa, "snd_pcm_open"))
}

// deviceName names what oto plays on: the PulseAudio server's default
// sink, or ALSA when no server answers (oto's fallback).
func deviceName() string {
	if runtime.GOOS == "windows" {
		// oto opens WASAPI, or WinMM where WASAPI has no device, and
		// plays silently where neither has one; it does not say which.
		return "wasapi-or-winmm"
	}
	c, err := pulse.NewClient(pulse.ClientApplicationName("tandem"), pulse.ClientTimeout(time.Second))
	if err != nil {
		return "alsa"
	}
	defer c.Close()
	s, err := c.DefaultSink()
	if err != nil {
		return "pulseaudio"
	}
	return "pulseaudio: " + s.Name()
}

// pulseName reports whether a PulseAudio server answers, and names its
// default sink as deviceName does.
func pulseName() (string, bool) {
	if runtime.GOOS != "linux" && runtime.GOOS != "freebsd" {
		return "", false
	}
	c, err := pulse.NewClient(pulse.ClientApplicationName("tandem"), pulse.ClientTimeout(time.Second))
	if err != nil {
		return "", false
	}
	defer c.Close()
	if s, err := c.DefaultSink(); err == nil {
		return "pulseaudio: " + s.Name(), true
	}
	return "pulseaudio", true
}

// Device names the device, "pulseaudio: <sink>", "wasapi: <endpoint
// id>", "alsa: default" (the mixer's own PCM) or "alsa" (oto's), or says
// why there is none ("none: ..."); "" for nil.
func (o *Output) Device() string {
	if o == nil {
		return ""
	}
	return o.device
}

// Latency is the least offset a sound can be scheduled at: the device's
// buffer, what the mixer keeps ahead of it and the margin. 0 for nil.
func (o *Output) Latency() time.Duration {
	if o.silent() {
		return 0
	}
	return o.lat
}

// SetOffset sets the run's offset: each sound starts at its tick's time
// plus offset. Pass the renderer's delay; the offset is raised to the
// device's Latency where that is longer (a sound cannot be heard
// sooner), and it returns the offset it holds. Once, before the first
// Feed; any goroutine.
func (o *Output) SetOffset(renderDelay time.Duration) time.Duration {
	if o.silent() {
		return renderDelay
	}
	d := max(renderDelay, o.lat)
	o.Mixer.SetOffset(int64(d))
	return d
}

// Feed hands a published tick's sounds to the mixer; sim thread only,
// after the tick's publish. Nothing for nil.
func (o *Output) Feed(s *snapshot.Snapshot) {
	if !o.silent() {
		o.Mixer.Feed(s)
	}
}

// Stats returns the mixer's figures with the device's name and latency;
// the zero Stats for nil. Any one goroutine, at the summary.
func (o *Output) Stats() Stats {
	if o.silent() {
		return Stats{Device: o.Device()}
	}
	s := o.Mixer.Stats()
	s.Device, s.LatencyMs = o.device, float64(o.lat)/1e6
	o.timing.stats(&s)
	if f := o.faults.summary(); f != "" {
		s.Device += "; " + f
	}
	return s
}

// Onsets appends the sounds started since the last call (sounds.csv's
// rows); dst as it is for nil. Any one goroutine.
func (o *Output) Onsets(dst []Onset) []Onset {
	if o.silent() {
		return dst
	}
	return o.Mixer.Onsets(dst)
}

// Close stops the sound; the device stays open for the next Open (oto
// cannot reopen it). It waits for oto's reader to leave the mixer before
// stopping what the mixer reads (oto's Player.Close does not wait), each
// wait bounded by a second: a reader that does not leave keeps the device
// busy (a later Open says so) rather than holding up the exit. A second
// Close does nothing. Main thread, once the sim thread has stopped.
func (o *Output) Close() {
	if o.silent() || o.closing.Swap(true) {
		return
	}
	o.faults.close()
	o.Mixer.closed.Store(true)      // reads from here on are silence
	bounded(stopWait, o.stopTiming) // a stalled server may hold its reading
	left := true
	if o.direct != nil {
		if o.faults.down() {
			o.direct.close() // a lost or stalled server: nothing to let play
		} else {
			o.direct.finish() // its waits bounded; the mixer is not read once it returns
		}
	} else if o.os != nil {
		left = o.os.end(!o.faults.down()) // a lost or stalled device: nothing to let play
	} else if o.player != nil { // (nil after a reconnection replaced the stream: faults.close closed that)
		if left = bounded(stopWait, o.player.PauseAndStopReading); left {
			o.player.Close()
		}
	}
	if left && o.faults.down() {
		// The device took nothing since it went: the events still
		// waiting were never heard.
		o.Mixer.st.eventsDropped.Add(o.Mixer.unplayed())
	}
	o.Mixer.Close()
	if left {
		dev.Lock()
		dev.busy = false
		dev.Unlock()
	}
}

// Push hands one event to the mixer, on the thread that feeds it (the sim
// thread: one producer): the bench's click on the tick its key press
// lands, for one. Nothing when silent.
func (o *Output) Push(e Event) {
	if !o.silent() {
		o.Mixer.Push(e)
	}
}
