package audio

import (
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"
)

// stream plays a long sound from its file: a goroutine of its own (the
// streamer) decodes and resamples ahead into a lock-free ring, and the
// audio thread takes from the ring. One voice at a time plays a stream;
// a new play of it restarts it from its start. The sound's first half
// second (head) is kept decoded, so that a play starts on its sample
// however long the streamer takes to rewind: the ring then carries the
// frames after the head.
//
// A restart is a handshake with no lock: at the new play's start sample
// the old voice ends, and once the buffer holding that sample is mixed the
// audio thread bumps req (and then reads nothing from the ring); the
// streamer sees it, empties the ring, rewinds the file, refills and sets
// ack to req; the audio thread reads again once ack equals the req it set.
// So a play that restarts a stream cuts the one playing at its own sample,
// not when its event arrives one offset before.
type stream struct {
	snd  *Sound
	rate int       // the device's
	head []float32 // the first frames at the device's rate, stereo

	ring     []float32 // stereo frames at the device's rate
	r, w     atomic.Uint64
	req, ack atomic.Uint64
	loop     atomic.Bool
	want     uint64       // the request the audio thread publishes after the buffer it is mixing; its own
	wantLoop bool         // whether that request loops; the audio thread's
	ended    atomic.Bool  // the file ran out (not looping): the ring holds the rest
	failed   atomic.Bool  // the file failed while streaming: the stream plays no more
	err      atomic.Value // error: why it failed (set before failed)
	quit     chan struct{}
	done     chan struct{}
	stopped  atomic.Bool // close was called
}

// streamStopWait bounds how long closing a stream waits for its streamer
// (a read of a regular file returns at once; a file system that hangs is
// left behind, not waited on).
const streamStopWait = time.Second

// fail ends the stream for good with err, naming its sound: the voice
// playing it stops, and later plays of it are dropped (Mixer.startDue).
// The streamer's goroutine only.
func (st *stream) fail(err error) {
	if !st.failed.Load() {
		st.err.Store(fmt.Errorf("audio: stream %s: %w", st.snd.Name, err))
		st.ended.Store(true)
		st.failed.Store(true)
	}
}

func newStream(s *Sound, rate int) *stream {
	st := &stream{snd: s, rate: rate, ring: make([]float32, 2*nextPow2(rate/2)), quit: make(chan struct{}), done: make(chan struct{})}
	st.head = st.decodeHead(rate / 2)
	go st.run()
	return st
}

// decodeHead returns the sound's first n frames at the device's rate (fewer
// if the file fails: the stream then reports its error as it plays).
func (st *stream) decodeHead(n int) []float32 {
	rs, c, err := st.snd.open()
	if err != nil {
		return nil
	}
	defer c.Close()
	src := &source{rs: rs, c: c, snd: st.snd, raw: make([]byte, 16384), frames: make([]float32, 8192)}
	if src.rewind() != nil {
		return nil
	}
	rsm := newResampler(st.snd.Rate, st.rate)
	head := make([]float32, 0, 2*n+2*8192)
	for len(head) < 2*n {
		frames, err := src.read()
		if err != nil {
			break
		}
		head = rsm.run(frames, head)
	}
	return head[:min(len(head), 2*n)]
}

func nextPow2(n int) int {
	p := 1
	for p < n {
		p <<= 1
	}
	return p
}

// source is a stream's decoder: it fills stereo float32 frames at the
// file's rate.
type source struct {
	rs     io.ReadSeeker
	c      io.Closer
	snd    *Sound
	dec    packetDecoder // a streamed MP3's or FLAC's
	raw    []byte
	left   int64 // WAV bytes left
	since  int64 // frames read since the last rewind
	frames []float32
}

func (s *source) rewind() error {
	if s.snd.packets != nil {
		if s.dec == nil {
			d, err := s.snd.packets(s.rs)
			if err != nil {
				return err
			}
			s.dec = d
			return nil
		}
		return s.dec.rewind()
	}
	s.left = s.snd.format.bytes
	_, err := s.rs.Seek(s.snd.format.dataAt, io.SeekStart)
	return err
}

// read returns the next block of frames at the file's rate, and io.EOF
// at the end. A WAV block allocates nothing; the MP3 and FLAC decoders
// allocate as they decode (on the streamer's goroutine, never the audio thread's).
func (s *source) read() (out []float32, err error) {
	if s.dec != nil {
		defer func() { // a decoder's panic on a corrupt frame: see decodeMP3
			if p := recover(); p != nil {
				out, err = nil, fmt.Errorf("corrupt: the decoder failed (%v)", p)
			}
		}()
		n, err := s.dec.read(s.frames)
		if err == io.EOF && n > 0 {
			err = nil
		}
		return s.frames[:2*n], err
	}
	if s.left == 0 {
		return nil, io.EOF
	}
	// A block is what both buffers hold: raw's bytes and frames' stereo
	// floats (a 1-byte frame fills 16384 bytes with twice what frames holds).
	fb := int64(s.snd.format.frameBytes())
	n := min(min(int64(len(s.raw))/fb, int64(len(s.frames)/2))*fb, s.left)
	if k, err := io.ReadFull(s.rs, s.raw[:n]); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			f := s.snd.format
			at := f.dataAt + f.bytes - s.left + int64(k)
			return nil, fmt.Errorf("WAV: the file ends at byte %d, inside its data (bytes %d to %d): cut while playing?", at, f.dataAt, f.dataAt+f.bytes)
		}
		return nil, err
	}
	s.left -= n
	out = s.frames[:2*(n/fb)]
	s.snd.format.convert(out, s.raw[:n])
	return out, nil
}

func (st *stream) run() {
	defer close(st.done)
	defer func() { // a decoder's panic on a corrupt file ends the stream, not the program
		if p := recover(); p != nil {
			st.fail(fmt.Errorf("corrupt: the decoder failed (%v)", p))
		}
	}()
	rs, c, err := st.snd.open()
	if err != nil {
		st.fail(err)
		return
	}
	defer c.Close()
	src := &source{rs: rs, c: c, snd: st.snd, raw: make([]byte, 16384), frames: make([]float32, 8192)}
	rsm := newResampler(st.snd.Rate, st.rate)
	out := make([]float32, 0, 2*(8192/2*st.rate/st.snd.Rate+16))
	var pending []float32 // resampled frames not yet in the ring
	active := uint64(0)   // the request being served; 0: none yet
	eof := true
	drop := 0 // floats still to drop: the head's
	for !st.failed.Load() {
		if q := st.req.Load(); q != active {
			// The audio thread reads nothing until ack == q: the ring is ours.
			st.w.Store(st.r.Load())
			st.ended.Store(false)
			if err := src.rewind(); err != nil {
				st.fail(err)
				return
			}
			src.since = 0
			rsm.reset()
			pending, eof, active = nil, false, q
			drop = len(st.head) // the head plays from memory
			st.fill(src, &rsm, &out, &pending, &eof, &drop)
			st.ack.Store(q)
		} else if !eof || len(pending) > 0 {
			st.fill(src, &rsm, &out, &pending, &eof, &drop)
		}
		select {
		case <-st.quit:
			return
		default:
		}
		time.Sleep(4 * time.Millisecond)
	}
}

// fill tops the ring up from the file.
func (st *stream) fill(src *source, rsm *resampler, out *[]float32, pending *[]float32, eof *bool, drop *int) {
	for {
		free := len(st.ring) - int(st.w.Load()-st.r.Load())
		if len(*pending) > 0 {
			k := min(free, len(*pending))
			w := st.w.Load()
			mask := uint64(len(st.ring) - 1)
			for i := range k {
				st.ring[(w+uint64(i))&mask] = (*pending)[i]
			}
			st.w.Store(w + uint64(k))
			*pending = (*pending)[k:]
			if len(*pending) > 0 {
				return // the ring is full
			}
		}
		if *eof {
			if !st.failed.Load() {
				st.ended.Store(true) // the ring holds the rest
			}
			return
		}
		if free < len(st.ring)/4 {
			return
		}
		frames, err := src.read()
		if err == io.EOF && src.since == 0 {
			// Nothing since the last rewind: the file lost its samples
			// while it played (a loop would rewind onto nothing forever).
			err = errors.New("the file holds no samples any more: cut while playing?")
		}
		if err == io.EOF && st.loop.Load() {
			if err := src.rewind(); err != nil {
				st.fail(err)
				*eof = true
				return
			}
			src.since = 0
			continue
		}
		if err == io.EOF {
			// The file's end: the resampler's last frames, then (once
			// they are in the ring, above) the stream has ended.
			*pending = rsm.flush((*out)[:0])
			k := min(*drop, len(*pending))
			*pending, *drop = (*pending)[k:], *drop-k
			*eof = true
			continue
		}
		if err != nil {
			st.fail(err)
			*eof = true
			st.ended.Store(true)
			return
		}
		src.since += int64(len(frames) / 2)
		*pending = rsm.run(frames, (*out)[:0])
		k := min(*drop, len(*pending))
		*pending, *drop = (*pending)[k:], *drop-k
	}
}

// close stops the streamer, waiting for it at most streamStopWait; a
// second close does nothing.
func (st *stream) close() {
	if st.stopped.Swap(true) {
		return
	}
	close(st.quit)
	select {
	case <-st.done:
	case <-time.After(streamStopWait):
	}
}
