package audio

import (
	"errors"
	"fmt"
	"io"

	"github.com/tandem-engine/tandem/audio/internal/flac"
	"github.com/tandem-engine/tandem/audio/internal/flac/frame"
)

// flacMasks are FLAC's channel layouts, as WAVE_FORMAT_EXTENSIBLE masks:
// FLAC fixes the order of 1 to 8 channels (mono; L R; L R C; FL FR BL BR;
// FL FR FC BL BR; FL FR FC LFE BL BR; FL FR FC LFE BC SL SR;
// FL FR FC LFE BL BR SL SR), and tandem folds them as a WAV's (downmix).
var flacMasks = [9]uint32{0, 1 << spFrontCenter, 0x3, 0x7, 0x33, 0x37, 0x3F, 0x70F, 0x63F}

// flacReader decodes a FLAC stream through github.com/mewkiz/flac.
type flacReader struct {
	r     io.ReadSeeker
	s     *flac.Stream
	f     *frame.Frame // the frame being read
	at    int          // its next sample
	bits  int
	chans int
	hz    int
	scale float32 // 1 / 2^(bits-1)
	gain  [maxChannels][2]float32
}

var _ packetDecoder = (*flacReader)(nil)

// newFLACReader reads a FLAC's stream header and checks what it claims.
func newFLACReader(r io.ReadSeeker) (*flacReader, error) {
	s, err := flac.New(r)
	if err != nil {
		return nil, err
	}
	in := s.Info
	d := &flacReader{r: r, s: s, bits: int(in.BitsPerSample), chans: int(in.NChannels), hz: int(in.SampleRate)}
	switch {
	case d.hz < 1000 || d.hz > 192000:
		return nil, fmt.Errorf("%d Hz; want 1000 to 192000", d.hz)
	case d.chans < 1 || d.chans > 8:
		return nil, fmt.Errorf("%d channels; want 1 to 8", d.chans)
	case d.bits < 4 || d.bits > 32:
		return nil, fmt.Errorf("%d-bit samples; want 4 to 32", d.bits)
	case in.NSamples > maxFrames:
		return nil, fmt.Errorf("%d frames; at most %d (an hour at 192 kHz)", in.NSamples, maxFrames)
	}
	d.scale = 1 / float32(int64(1)<<(d.bits-1))
	d.gain = downmix(d.chans, flacMasks[d.chans])
	return d, nil
}

func (d *flacReader) rate() int { return d.hz }

func (d *flacReader) rewind() error {
	if _, err := d.r.Seek(0, io.SeekStart); err != nil {
		return err
	}
	s, err := flac.New(d.r)
	if err != nil {
		return err
	}
	d.s, d.f, d.at = s, nil, 0
	return nil
}

// read fills dst with stereo frames, io.EOF after the last.
func (d *flacReader) read(dst []float32) (int, error) {
	n := 0
	for n < len(dst)/2 {
		if d.f == nil || d.at >= len(d.f.Subframes[0].Samples) {
			f, err := d.s.ParseNext()
			if err != nil {
				if err == io.EOF && n > 0 {
					return n, nil
				}
				return n, err
			}
			if len(f.Subframes) != d.chans || int(f.BitsPerSample) != d.bits || int(f.SampleRate) != d.hz && f.SampleRate != 0 {
				return n, fmt.Errorf("a frame of %d channels of %d bits at %d Hz in a stream of %d of %d at %d",
					len(f.Subframes), f.BitsPerSample, f.SampleRate, d.chans, d.bits, d.hz)
			}
			for _, sf := range f.Subframes[1:] {
				if len(sf.Samples) != len(f.Subframes[0].Samples) {
					return n, errors.New("a frame whose channels differ in length")
				}
			}
			d.f, d.at = f, 0
		}
		sub := d.f.Subframes
		k := min(len(dst)/2-n, len(sub[0].Samples)-d.at)
		for i := range k {
			j := d.at + i
			var l, r float32
			switch d.chans {
			case 1:
				l = float32(sub[0].Samples[j]) * d.scale
				r = l
			case 2:
				l, r = float32(sub[0].Samples[j])*d.scale, float32(sub[1].Samples[j])*d.scale
			default:
				for c := range d.chans {
					v := float32(sub[c].Samples[j]) * d.scale
					l += v * d.gain[c][0]
					r += v * d.gain[c][1]
				}
			}
			dst[2*(n+i)], dst[2*(n+i)+1] = l, r
		}
		n += k
		d.at += k
	}
	return n, nil
}

// decodeFLAC decodes a FLAC file of size bytes; a long one is decoded once
// to check it and then streamed. A decoder's panic on a corrupt file is
// the file's error.
func decodeFLAC(r io.ReadSeeker, size int64) (s *Sound, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, fmt.Errorf("FLAC: corrupt: the decoder failed (%v)", p)
		}
	}()
	d, err := newFLACReader(r)
	if err != nil {
		return nil, fmt.Errorf("FLAC: %w", err)
	}
	// A frame holds at most 65535 samples in at least 10 bytes (a header,
	// one constant subframe a channel and its CRC); a header that says
	// the length bounds it to that (and it must come out so, below).
	limit := (size/10 + 1) * 65535
	if n := d.s.Info.NSamples; n != 0 {
		limit = min(limit, int64(n))
	}
	pcm, frames, stream, err := decodePackets(d, limit, "FLAC")
	if err != nil {
		return nil, err
	}
	if n := d.s.Info.NSamples; n != 0 && uint64(frames) != n {
		return nil, fmt.Errorf("FLAC: decodes to %d frames where its header says %d (truncated?)", frames, n)
	}
	s = &Sound{Rate: d.hz, Frames: frames, pcm: pcm}
	if stream {
		s.packets = func(r io.ReadSeeker) (packetDecoder, error) { return newFLACReader(r) }
	}
	return s, nil
}
