package audio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// wavBytes builds a WAV file of frames (each one value per channel, -1 to
// 1) in the given format: tag 1 PCM or 3 float.
func wavBytes(rate, channels, bits, tag int, frames [][2]float64) []byte {
	var data bytes.Buffer
	for _, f := range frames {
		for c := range channels {
			v := f[c]
			switch {
			case tag == 3:
				binary.Write(&data, binary.LittleEndian, float32(v))
			case bits == 8:
				data.WriteByte(byte(int(math.Round(v*127)) + 128))
			case bits == 16:
				binary.Write(&data, binary.LittleEndian, int16(math.Round(v*32767)))
			case bits == 24:
				x := int32(math.Round(v * 8388607))
				data.Write([]byte{byte(x), byte(x >> 8), byte(x >> 16)})
			}
		}
	}
	var b bytes.Buffer
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(4+8+16+8+data.Len()))
	b.WriteString("WAVEfmt ")
	binary.Write(&b, binary.LittleEndian, uint32(16))
	binary.Write(&b, binary.LittleEndian, uint16(tag))
	binary.Write(&b, binary.LittleEndian, uint16(channels))
	binary.Write(&b, binary.LittleEndian, uint32(rate))
	binary.Write(&b, binary.LittleEndian, uint32(rate*channels*bits/8))
	binary.Write(&b, binary.LittleEndian, uint16(channels*bits/8))
	binary.Write(&b, binary.LittleEndian, uint16(bits))
	b.WriteString("data")
	binary.Write(&b, binary.LittleEndian, uint32(data.Len()))
	b.Write(data.Bytes())
	return b.Bytes()
}

// TestWAVFormats decodes every format tandem reads and compares each
// sample with what was written, within the format's step.
func TestWAVFormats(t *testing.T) {
	frames := [][2]float64{{0, 0}, {0.5, -0.5}, {-0.25, 0.75}, {0.99, -0.99}}
	for _, c := range []struct{ bits, tag int }{{8, 1}, {16, 1}, {24, 1}, {32, 3}} {
		for _, ch := range []int{1, 2} {
			s, err := Decode("t.wav", wavBytes(22050, ch, c.bits, c.tag, frames))
			if err != nil {
				t.Fatalf("%d-bit %d ch: %v", c.bits, ch, err)
			}
			if s.Rate != 22050 || s.Frames != 4 || s.Streamed() {
				t.Fatalf("%d-bit %d ch: rate %d frames %d streamed %v", c.bits, ch, s.Rate, s.Frames, s.Streamed())
			}
			tol := 2.0 / 256
			for i, f := range frames {
				want := f
				if ch == 1 {
					want[1] = f[0]
				}
				for k := range 2 {
					if got := float64(s.pcm[2*i+k]); math.Abs(got-want[k]) > tol {
						t.Errorf("%d-bit %d ch: frame %d channel %d = %v, want %v", c.bits, ch, i, k, got, want[k])
					}
				}
			}
		}
	}
}

// TestWAVErrors: a bad or truncated file is an error naming the file and
// what is wrong, and a header claiming gigabytes allocates nothing.
func TestWAVErrors(t *testing.T) {
	good := wavBytes(48000, 2, 16, 1, make([][2]float64, 100))
	huge := bytes.Clone(good)
	binary.LittleEndian.PutUint32(huge[40:], 0xFFFFFFF0) // the data chunk claims 4 GB
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"cut.wav", good[:len(good)-10], "truncated"},
		{"huge.wav", huge, "claims 4294967280 bytes"},
		{"adpcm.wav", wavBytes(48000, 2, 16, 2, nil), "format 2"},
		{"empty.wav", wavBytes(48000, 1, 16, 1, nil), "no samples"},
		{"junk.wav", []byte("hello world, not a sound"), "neither WAV"},
		{"music.ogg", []byte("OggS\x00\x02xxxxxxxxxxxxxxxx"), "ffmpeg"},
		{"head.wav", good[:30], "past the file's 30"},
	}
	for _, c := range cases {
		_, err := Decode(c.name, c.data)
		if err == nil || !strings.Contains(err.Error(), c.name) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want one naming the file and %q", c.name, err, c.want)
		}
	}
}

// TestMP3 decodes MPEG-2 layer III speech, whole frames to its end.
func TestMP3(t *testing.T) {
	data, err := os.ReadFile("testdata/speech.mp3")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Decode("speech.mp3", data)
	if err != nil {
		t.Fatal(err)
	}
	if s.Rate != 22050 && s.Rate != 24000 && s.Rate != 16000 {
		t.Errorf("rate %d; want an MPEG-2 rate", s.Rate)
	}
	if s.Frames < 1000 || s.Streamed() {
		t.Errorf("%d frames, streamed %v", s.Frames, s.Streamed())
	}
	peak := float32(0)
	for _, v := range s.pcm {
		peak = max(peak, v, -v)
	}
	if peak < 0.01 {
		t.Errorf("peak %v: decoded silence", peak)
	}
	if _, err := Decode("bad.mp3", append([]byte{0xFF, 0xFB}, make([]byte, 100)...)); err == nil || !strings.Contains(err.Error(), "bad.mp3") {
		t.Errorf("a frame header with nothing behind it: %v; want an error naming bad.mp3", err)
	}
}

// TestLoadStreams: a WAV longer than StreamAbove seconds is streamed from
// its file, not decoded whole.
func TestLoadStreams(t *testing.T) {
	fsys := fstest.MapFS{
		"long.wav":  {Data: wavBytes(8000, 1, 16, 1, make([][2]float64, 8000*(StreamAbove+1)))},
		"short.wav": {Data: wavBytes(8000, 1, 16, 1, make([][2]float64, 800))},
	}
	long, err := Load(fsys, "long.wav")
	if err != nil {
		t.Fatal(err)
	}
	short, err := Load(fsys, "short.wav")
	if err != nil {
		t.Fatal(err)
	}
	if !long.Streamed() || short.Streamed() {
		t.Errorf("streamed: long %v short %v; want true, false", long.Streamed(), short.Streamed())
	}
	if _, err := Load(fsys, "none.wav"); err == nil || !strings.Contains(err.Error(), "none.wav") {
		t.Errorf("a missing file: %v", err)
	}
}

// FuzzDecode: no file makes the decoders panic or allocate past what its
// size allows; each either decodes or says what is wrong, naming it.
func FuzzDecode(f *testing.F) {
	f.Add(wavBytes(8000, 1, 8, 1, make([][2]float64, 10)))
	f.Add(wavBytes(44100, 2, 24, 1, make([][2]float64, 10)))
	f.Add(wavBytes(48000, 2, 32, 3, make([][2]float64, 10)))
	if mp3, err := os.ReadFile("testdata/speech.mp3"); err == nil {
		f.Add(mp3[:2048])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Decode("fuzz.wav", data)
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.wav") {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		if s.Frames <= 0 || s.Rate <= 0 || !s.Streamed() && int64(len(s.pcm)) != 2*s.Frames {
			t.Errorf("decoded %d frames (%d samples) at %d Hz", s.Frames, len(s.pcm), s.Rate)
		}
	})
}

// TestMP3Truncated: an MP3 that ends inside a frame, or inside a frame's
// header, is an error naming the file, the byte its last frame starts at
// and how far into it the file ends; cut at a frame's end it is whole.
func TestMP3Truncated(t *testing.T) {
	data, err := os.ReadFile("testdata/speech.mp3")
	if err != nil {
		t.Fatal(err)
	}
	// The frames' starts, walked by their headers' lengths after the ID3
	// tag (10 bytes and the size its header gives, 7 bits a byte).
	if string(data[:3]) != "ID3" || data[6]|data[7]|data[8] != 0 {
		t.Fatalf("speech.mp3 does not start with a short ID3 tag: % x", data[:10])
	}
	var starts []int
	for p := 10 + int(data[9]); p < len(data); p += int(mp3FrameBytes(data[p:])) {
		if mp3FrameBytes(data[p:]) == 0 {
			t.Fatalf("byte %d is not a frame header", p)
		}
		starts = append(starts, p)
	}
	last := starts[len(starts)-1]
	whole, err := Decode("whole.mp3", data[:last])
	if err != nil {
		t.Fatalf("cut at a frame's end: %v", err)
	}
	full, _ := Decode("speech.mp3", data)
	if full == nil || whole.Frames >= full.Frames {
		t.Errorf("one frame fewer decodes %d frames of %v", whole.Frames, full)
	}
	for _, c := range []struct {
		cut  int
		want string
	}{
		{last + 50, fmt.Sprintf("speech-cut.mp3: MP3: truncated: ends 50 bytes into a frame at byte %d (the frame has %d bytes)", last, len(data)-last)},
		{last + 2, fmt.Sprintf("speech-cut.mp3: MP3: truncated: ends 2 bytes into a frame header at byte %d", last)},
		{starts[3] + 10, fmt.Sprintf("ends 10 bytes into a frame at byte %d", starts[3])},
	} {
		if _, err := Decode("speech-cut.mp3", data[:c.cut]); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("cut at byte %d: error %v; want %q", c.cut, err, c.want)
		}
	}
}
