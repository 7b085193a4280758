package wasapi

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Source fills a stream's buffer. Fill writes len(p)/8 frames of float32
// stereo, little endian, into p; padding is the frames the engine still
// held from earlier writes when the event came (they play before p). It
// runs on the stream's render thread and must not block.
type Source interface {
	Fill(p []byte, padding int)
}

// Stream is a shared-mode, event-driven render stream on the default
// output device: at each of the engine's events it asks its Source for
// exactly the frames the buffer has room for, and nothing waits ahead of
// the engine in between.
type Stream struct {
	// Name is the device: "wasapi: " and its endpoint id.
	Name string
	// Frames is the stream's buffer, in frames (GetBufferSize).
	Frames int
	// Latency is the engine's stream latency (GetStreamLatency): the most
	// it holds past the buffer before the device position reaches a
	// frame. The position already includes it; it is said, not added.
	Latency time.Duration
	rate    int

	com        *comThread
	event      windows.Handle
	enumerator *_IMMDeviceEnumerator
	client     *_IAudioClient2
	render     *_IAudioRenderClient
	clock      *_IAudioClock
	freq       uint64

	stop     atomic.Bool
	started  bool                  // Start ran the render thread
	done     chan struct{}         // closed when the render thread has returned
	err      atomic.Pointer[error] // why the render thread stopped
	releases sync.Once
}

// Open opens a stream on the default output device at rate Hz, stereo
// float32, its buffer buffer long (the engine may grant more). It does
// not play until Start. (The system's mixer names it by the process.)
func Open(rate int, buffer time.Duration) (s *Stream, err error) {
	com, err := newCOMThread()
	if err != nil {
		return nil, fmt.Errorf("wasapi: CoInitializeEx: %w", err)
	}
	s = &Stream{rate: rate, com: com, done: make(chan struct{})}
	defer func() {
		if err != nil {
			s.release()
		}
	}()
	if s.event, err = windows.CreateEventEx(nil, nil, 0, windows.EVENT_ALL_ACCESS); err != nil {
		return nil, fmt.Errorf("wasapi: CreateEventEx: %w", err)
	}
	com.Run(func() { err = s.initialize(buffer) })
	return s, err
}

// initialize is oto's startOnCOMThread (driver_wasapi_windows.go), trimmed
// to stereo float32 and with the clock and the stream latency read.
func (s *Stream) initialize(buffer time.Duration) error {
	e, err := _CoCreateInstance(&uuidMMDeviceEnumerator, nil, uint32(_CLSCTX_ALL), &uuidIMMDeviceEnumerator)
	if err != nil {
		return err
	}
	s.enumerator = (*_IMMDeviceEnumerator)(e)
	device, err := s.enumerator.GetDefaultAudioEndPoint(eRender, eConsole)
	if err != nil {
		return fmt.Errorf("no output device: %w", err)
	}
	defer device.Release()
	id, err := device.GetId()
	if err != nil {
		return err
	}
	s.Name = "wasapi: " + id
	client, err := device.Activate(&uuidIAudioClient2, uint32(_CLSCTX_ALL), nil)
	if err != nil {
		return err
	}
	s.client = (*_IAudioClient2)(client)
	if err := s.client.SetClientProperties(&_AudioClientProperties{
		cbSize:    uint32(unsafe.Sizeof(_AudioClientProperties{})),
		eCategory: _AudioCategory_GameEffects,
	}); err != nil {
		return err
	}
	const bits = 32
	f := &_WAVEFORMATEXTENSIBLE{
		wFormatTag:      _WAVE_FORMAT_EXTENSIBLE,
		nChannels:       2,
		nSamplesPerSec:  uint32(s.rate),
		nAvgBytesPerSec: uint32(s.rate * 2 * bits / 8),
		nBlockAlign:     2 * bits / 8,
		wBitsPerSample:  bits,
		cbSize:          0x16,
		Samples:         bits,
		dwChannelMask:   _SPEAKER_FRONT_LEFT | _SPEAKER_FRONT_RIGHT,
		SubFormat:       _KSDATAFORMAT_SUBTYPE_IEEE_FLOAT,
	}
	// AUTOCONVERTPCM with SRC_DEFAULT_QUALITY: the engine resamples where
	// the device runs at another rate (oto's #215).
	if err := s.client.Initialize(_AUDCLNT_SHAREMODE_SHARED,
		_AUDCLNT_STREAMFLAGS_EVENTCALLBACK|_AUDCLNT_STREAMFLAGS_NOPERSIST|_AUDCLNT_STREAMFLAGS_AUTOCONVERTPCM|_AUDCLNT_STREAMFLAGS_SRC_DEFAULT_QUALITY,
		_REFERENCE_TIME(buffer/100), 0, f, nil); err != nil {
		return err
	}
	frames, err := s.client.GetBufferSize()
	if err != nil {
		return err
	}
	s.Frames = int(frames)
	lat, err := s.client.GetStreamLatency()
	if err != nil {
		return err
	}
	s.Latency = time.Duration(lat) * 100
	render, err := s.client.GetService(&uuidIAudioRenderClient)
	if err != nil {
		return err
	}
	s.render = (*_IAudioRenderClient)(render)
	clock, err := s.client.GetService(&uuidIAudioClock)
	if err != nil {
		return err
	}
	s.clock = (*_IAudioClock)(clock)
	if s.freq, err = s.clock.GetFrequency(); err != nil {
		return err
	}
	if s.freq == 0 {
		return errors.New("wasapi: IAudioClock::GetFrequency returned 0")
	}
	return s.client.SetEventHandle(s.event)
}

// Start fills the buffer once from src, starts the stream and serves
// the engine's events on a render thread of its own until Close.
func (s *Stream) Start(src Source) error {
	var err error
	s.com.Run(func() {
		if err = s.write(src); err == nil {
			err = s.client.Start()
		}
	})
	if err != nil {
		return err
	}
	s.started = true
	go s.loop(src)
	return nil
}

// loop serves the engine's events. Each wait is bounded so that a stop is
// seen even when the engine sends none (a stalled device).
func (s *Stream) loop(src Source) {
	defer close(s.done)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// S_FALSE: COM was initialized on this thread already, a success.
	if err := windows.CoInitializeEx(0, windows.COINIT_MULTITHREADED); err != nil && !errors.Is(err, syscall.Errno(windows.S_FALSE)) {
		s.fail(err)
		return
	}
	defer windows.CoUninitialize()
	for !s.stop.Load() {
		ev, err := windows.WaitForSingleObject(s.event, 200)
		if err != nil {
			s.fail(err)
			return
		}
		if ev == uint32(windows.WAIT_TIMEOUT) {
			continue
		}
		if err := s.write(src); err != nil {
			s.fail(err)
			return
		}
	}
}

// write fills what the buffer has room for; it allocates nothing.
func (s *Stream) write(src Source) error {
	padding, err := s.client.GetCurrentPadding()
	if err != nil {
		return err
	}
	if padding >= uint32(s.Frames) {
		return nil // full: a spurious event
	}
	n := uint32(s.Frames) - padding
	p, err := s.render.GetBuffer(n)
	if err != nil {
		return err
	}
	src.Fill(unsafe.Slice(p, 8*n), int(padding))
	return s.render.ReleaseBuffer(n, 0)
}

func (s *Stream) fail(err error) { s.err.Store(&err) }

// Err returns why the render thread stopped early, nil while it serves.
func (s *Stream) Err() error {
	if e := s.err.Load(); e != nil {
		return *e
	}
	return nil
}

// Read reads the stream's clock, its position as the speakers play it
// and the performance counter of that instant. On a COM thread of the
// stream's; it allocates (the hand-over to that thread).
func (s *Stream) Read() (r Reading, exact bool, err error) {
	s.com.Run(func() {
		r.Pos, r.QPC, exact, err = s.clock.GetPosition()
	})
	r.Freq = s.freq
	return r, exact, err
}

// Position reads the stream's clock as Read does, on the render thread:
// from the Source's Fill only. It allocates nothing.
func (s *Stream) Position() (r Reading, exact bool, err error) {
	r.Pos, r.QPC, exact, err = s.clock.GetPosition()
	r.Freq = s.freq
	return r, exact, err
}

// Padding returns the frames the engine holds of the stream, not yet
// played out of its buffer.
func (s *Stream) Padding() (int, error) {
	var p uint32
	var err error
	s.com.Run(func() { p, err = s.client.GetCurrentPadding() })
	return int(p), err
}

// Close stops the render thread, waiting at most wait for it, then, with
// drain, lets the engine play what it holds (at most its buffer), and
// stops the stream and releases it. It reports whether the render thread
// returned in time (if not, the stream is left to it: nothing is
// released under it). A second Close does nothing but report.
func (s *Stream) Close(drain bool, wait time.Duration) bool {
	s.stop.Store(true)
	if s.started {
		select {
		case <-s.done:
		case <-time.After(wait):
			return false // a render thread stuck in the engine: left to end alone
		}
	}
	if drain {
		for deadline := time.Now().Add(time.Duration(s.Frames) * time.Second / time.Duration(s.rate)); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
			if p, err := s.Padding(); err != nil || p == 0 {
				break
			}
		}
	}
	s.release()
	return true
}

// release stops the stream and releases what Open made, on the COM
// thread, then stops that thread. Once.
func (s *Stream) release() {
	s.releases.Do(func() {
		s.com.Run(func() {
			if s.client != nil {
				s.client.Stop()
			}
			// The services first, on the thread that got them, then the
			// client that owns them (oto's releaseOnCOMThread).
			if s.clock != nil {
				s.clock.Release()
			}
			if s.render != nil {
				s.render.Release()
			}
			if s.client != nil {
				s.client.Release()
			}
			if s.enumerator != nil {
				s.enumerator.Release()
			}
		})
		if s.event != 0 {
			windows.CloseHandle(s.event)
		}
		s.com.Stop()
	})
}

var (
	kernel32 = windows.NewLazySystemDLL("kernel32.dll")
	procQPC  = kernel32.NewProc("QueryPerformanceCounter")
	procQPF  = kernel32.NewProc("QueryPerformanceFrequency")
)

// QPC returns the performance counter now, in 100 ns units, as
// GetPosition converts it. It does not allocate.
func QPC() uint64 {
	var c, f int64
	syscall.SyscallN(procQPC.Addr(), uintptr(unsafe.Pointer(&c)))
	syscall.SyscallN(procQPF.Addr(), uintptr(unsafe.Pointer(&f)))
	return uint64(c/f*1e7 + c%f*1e7/f)
}
