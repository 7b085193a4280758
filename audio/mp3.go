package audio

import (
	"encoding/binary"
	"io"

	"github.com/tandem-engine/tandem/audio/internal/mp3"
)

// mp3Gapless is what an MP3's first frame says of the samples to play:
// an encoder writes a Xing or Info frame first (its own frame, which
// decodes as silence), and LAME (and ffmpeg's LAME-style tag) adds the
// delay it put before the audio and the padding after it. mpg123 plays
// the samples between, and so does tandem: a loop of a file made from a
// loop has no gap at its seam.
type mp3Gapless struct {
	skip   int64 // decoded frames to drop at the start: the tag's frame, the encoder's delay, the decoder's
	frames int64 // frames to play after them; -1: to the end
}

// decoderDelay is the layer III decoder's own delay in samples (the
// filterbank's), which the encoder's delay does not count: mpg123's
// GAPLESS_DELAY.
const decoderDelay = 529

// parseXing reads the Xing/Info and LAME tags of an MP3's first frame, h
// (its bytes, up to the frame's length). No tag: nothing to trim.
func parseXing(h []byte) mp3Gapless {
	g := mp3Gapless{frames: -1}
	if len(h) < 4 {
		return g
	}
	version, mono := (h[1]>>3)&3, h[3]>>6 == 3
	spf := int64(576)
	side := map[bool]int{false: 17, true: 9}[mono]
	if version == 3 {
		spf, side = 1152, map[bool]int{false: 32, true: 17}[mono]
	}
	at := 4 + side
	if h[1]&1 == 0 { // a CRC after the header
		at += 2
	}
	if at+8 > len(h) || string(h[at:at+4]) != "Xing" && string(h[at:at+4]) != "Info" {
		return g
	}
	g.skip = spf // the tag's own frame
	flags := binary.BigEndian.Uint32(h[at+4:])
	p := at + 8
	total := int64(-1)
	if flags&1 != 0 {
		if p+4 > len(h) {
			return g
		}
		total = int64(binary.BigEndian.Uint32(h[p:])) * spf
		p += 4
	}
	if flags&2 != 0 {
		p += 4
	}
	if flags&4 != 0 {
		p += 100
	}
	if flags&8 != 0 {
		p += 4
	}
	// The LAME tag: a 9-byte encoder name, then at 21 to 23 the delay
	// and the padding, 12 bits each.
	if p+24 > len(h) || h[p] < 'A' || h[p] > 'Z' {
		if total >= 0 {
			g.frames = total
		}
		return g
	}
	delay := int64(h[p+21])<<4 | int64(h[p+22])>>4
	pad := int64(h[p+22]&0x0F)<<8 | int64(h[p+23])
	g.skip += delay + decoderDelay
	if total >= 0 {
		g.frames = max(total-delay-pad, 0)
	}
	return g
}

// mp3Reader is a decoder that plays what the file's gapless tags say to
// play (see mp3Gapless).
type mp3Reader struct {
	d    *mp3.Decoder
	g    mp3Gapless
	pos  int64 // frames given, or (negative) still to skip
	raw  [4 * 4096]byte
	junk [4 * 1152]byte
}

var _ packetDecoder = (*mp3Reader)(nil)

func newMP3Reader(r io.ReadSeeker, g mp3Gapless) (*mp3Reader, error) {
	d, err := mp3.NewDecoder(r)
	if err != nil {
		return nil, err
	}
	return &mp3Reader{d: d, g: g, pos: -g.skip}, nil
}

func (m *mp3Reader) rate() int { return m.d.SampleRate() }

// rewind starts the file again from its first sample to play.
func (m *mp3Reader) rewind() error {
	m.pos = -m.g.skip
	_, err := m.d.Seek(0, io.SeekStart)
	return err
}

// read fills dst with stereo frames, io.EOF after the last to play.
func (m *mp3Reader) read(dst []float32) (int, error) {
	for m.pos < 0 {
		n, err := m.d.Read(m.junk[:min(int64(len(m.junk)), -4*m.pos)])
		m.pos += int64(n / 4)
		if err != nil {
			return 0, err
		}
	}
	want := min(len(dst)/2, len(m.raw)/4)
	if m.g.frames >= 0 {
		left := m.g.frames - m.pos
		if left <= 0 {
			return 0, io.EOF
		}
		want = int(min(int64(want), left))
	}
	n, err := m.d.Read(m.raw[:4*want])
	n /= 4
	for i := range 2 * n {
		dst[i] = float32(int16(binary.LittleEndian.Uint16(m.raw[2*i:]))) / 32768
	}
	m.pos += int64(n)
	return n, err
}
