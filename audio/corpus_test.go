package audio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The corpus: every format tandem reads, mono, stereo and more, 8 kHz to
// 192 kHz, under and over StreamAbove seconds, each compared sample for
// sample with what a reference decoder gives. The WAVs are made here; the
// MP3s and FLACs are in testdata/corpus (make.sh made them, with LAME,
// flac and mpg123, from the signal gen writes, corpusSample below). The
// references: for WAV and FLAC (lossless) the signal itself as the file
// holds it; for A-law and µ-law sox's decoding of every code
// (g711-sox.s16); for MP3, mpg123's decoding (*.s16).

// corpusSample is channel c's sample at frame i of the corpus signal at
// rate Hz (testdata/corpus/gen holds the same lines).
func corpusSample(i, c, rate int) float64 {
	t := float64(i) / float64(rate)
	v := 0.3*math.Sin(2*math.Pi*220*float64(c+1)*t) + 0.15*math.Sin(2*math.Pi*0.12*float64(rate)*t+float64(c))
	ph := math.Mod(t, 0.25)
	return v + 0.3*math.Exp(-ph*40)*math.Sin(2*math.Pi*(0.02*float64(rate)+0.2*float64(rate)*ph)*ph)
}

func quantize(v float64, bits int) int64 {
	return int64(math.Round(v * float64(int64(1)<<(bits-1)-1)))
}

// fold51 is the downmix of 5.1 (FL FR FC LFE BL BR) to stereo, written
// out: each side's full-level channels and the centre at 1/√2, over
// their sum.
func fold51(ch []float64) (l, r float64) {
	c := math.Sqrt2 / 2
	sum := 2 + c
	return (ch[0] + c*ch[2] + ch[4]) / sum, (ch[1] + c*ch[2] + ch[5]) / sum
}

// stereoOf is what a frame of channels plays as.
func stereoOf(ch []float64) (l, r float64) {
	switch len(ch) {
	case 1:
		return ch[0], ch[0]
	case 2:
		return ch[0], ch[1]
	}
	return fold51(ch)
}

// wavCase is one WAV layout of the corpus.
type wavCase struct {
	kind      string // pcm, float, alaw, mulaw
	bits      int
	ext       bool // in WAVE_FORMAT_EXTENSIBLE
	rate, ch  int
	frames    int
	tolerance float64
}

func (c wavCase) String() string {
	ext := ""
	if c.ext {
		ext = " extensible"
	}
	return fmt.Sprintf("%s %d-bit%s, %d ch, %d Hz, %d frames", c.kind, c.bits, ext, c.ch, c.rate, c.frames)
}

// g711Sox returns sox's decoding of every A-law (0) and µ-law (1) code.
func g711Sox(t *testing.T) (g [2][256]float32) {
	b, err := os.ReadFile("testdata/corpus/g711-sox.s16")
	if err != nil || len(b) != 1024 {
		t.Fatalf("g711-sox.s16: %v (%d bytes)", err, len(b))
	}
	for k := range 2 {
		for i := range 256 {
			g[k][i] = float32(int16(binary.LittleEndian.Uint16(b[2*(256*k+i):]))) / 32768
		}
	}
	return g
}

// corpusWAV returns the file for c and what it must decode to (stereo).
func corpusWAV(c wavCase, g711 [2][256]float32) ([]byte, []float32) {
	var data bytes.Buffer
	want := make([]float32, 0, 2*c.frames)
	vals := make([]float64, c.ch)
	for i := range c.frames {
		for k := range c.ch {
			v := corpusSample(i, k, c.rate)
			switch c.kind {
			case "pcm":
				q := quantize(v, c.bits)
				vals[k] = float64(q) / float64(int64(1)<<(c.bits-1))
				switch c.bits {
				case 8:
					data.WriteByte(byte(q + 128))
				case 16:
					binary.Write(&data, binary.LittleEndian, int16(q))
				case 24:
					data.Write([]byte{byte(q), byte(q >> 8), byte(q >> 16)})
				case 32:
					binary.Write(&data, binary.LittleEndian, int32(q))
				}
			case "float":
				if c.bits == 32 {
					binary.Write(&data, binary.LittleEndian, float32(v))
					vals[k] = float64(float32(v))
				} else {
					binary.Write(&data, binary.LittleEndian, v)
					vals[k] = v
				}
			default: // every code, each channel its own order
				code := byte(i*7 + k*13)
				data.WriteByte(code)
				vals[k] = float64(g711[map[string]int{"alaw": 0, "mulaw": 1}[c.kind]][code])
			}
		}
		l, r := stereoOf(vals)
		want = append(want, float32(l), float32(r))
	}
	tag := map[string]int{"pcm": 1, "float": 3, "alaw": 6, "mulaw": 7}[c.kind]
	var f bytes.Buffer
	le := func(v any) { binary.Write(&f, binary.LittleEndian, v) }
	f.WriteString("fmt ")
	if c.ext {
		le(uint32(40))
		le(uint16(0xFFFE))
	} else {
		le(uint32(16))
		le(uint16(tag))
	}
	le(uint16(c.ch))
	le(uint32(c.rate))
	le(uint32(c.rate * c.ch * c.bits / 8))
	le(uint16(c.ch * c.bits / 8))
	le(uint16(c.bits))
	if c.ext {
		le(uint16(22))
		le(uint16(c.bits))
		le(uint32(map[int]uint32{1: 0x4, 2: 0x3, 6: 0x3F}[c.ch]))
		le(uint32(tag))
		f.Write(ksdataGUIDTail[:])
	}
	var b bytes.Buffer
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(4+f.Len()+8+data.Len()))
	b.WriteString("WAVE")
	b.Write(f.Bytes())
	b.WriteString("data")
	binary.Write(&b, binary.LittleEndian, uint32(data.Len()))
	b.Write(data.Bytes())
	return b.Bytes(), want
}

// streamAll reads a streamed sound through the streamer's decoder, at its
// own rate, from its start to its end, and then, rewound as a loop
// rewinds it, its first blocks again, which must be the same.
func streamAll(t *testing.T, s *Sound) []float32 {
	t.Helper()
	rs, c, err := s.open()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	src := &source{rs: rs, c: c, snd: s, raw: make([]byte, 16384), frames: make([]float32, 8192)}
	var out []float32
	for pass := range 2 {
		if err := src.rewind(); err != nil {
			t.Fatal(err)
		}
		for n := 0; pass == 0 || n < min(len(out), 20000); {
			b, err := src.read()
			if pass == 0 {
				out = append(out, b...)
			} else if k := min(len(b), len(out)-n); !slices.Equal(b[:k], out[n:n+k]) {
				t.Fatalf("%s: rewound, the samples from frame %d differ from the first pass's", s.Name, n/2)
			}
			n += len(b)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: streaming: %v", s.Name, err)
			}
		}
	}
	return out
}

// streamHead checks the half second a stream keeps decoded for its plays'
// starts, made as the mixer makes it (at the file's rate here, so that
// the resampler copies): the stream's first frames.
func streamHead(t *testing.T, s *Sound, all []float32) {
	t.Helper()
	st := newStream(s, s.Rate)
	defer st.close()
	if len(st.head) != 2*(s.Rate/2) {
		t.Errorf("%s: a head of %d frames; want %d", s.Name, len(st.head)/2, s.Rate/2)
	}
	compare(t, s.Name+"'s head", st.head, all[:min(len(all), len(st.head))], 0)
}

// compare reports the first sample of got that differs from want by more
// than tol, and a length that differs.
func compare(t *testing.T, name string, got, want []float32, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d frames; want %d", name, len(got)/2, len(want)/2)
	}
	worst, at := 0.0, -1
	for i := range min(len(got), len(want)) {
		if d := math.Abs(float64(got[i] - want[i])); d > worst {
			worst, at = d, i
		}
	}
	if worst > tol {
		t.Errorf("%s: frame %d channel %d is %v; want %v (within %g)", name, at/2, at%2, got[at], want[at], tol)
	}
}

// TestCorpusWAV: every WAV layout tandem reads decodes to the samples its
// file holds, whole and streamed.
func TestCorpusWAV(t *testing.T) {
	g711 := g711Sox(t)
	var cases []wavCase
	for _, f := range []struct {
		kind string
		bits int
	}{{"pcm", 8}, {"pcm", 16}, {"pcm", 24}, {"pcm", 32}, {"float", 32}, {"float", 64}, {"alaw", 8}, {"mulaw", 8}} {
		for _, ext := range []bool{false, true} {
			for _, ch := range []int{1, 2, 6} {
				for _, rate := range []int{8000, 44100, 192000} {
					tol := 0.0
					if ch == 6 {
						tol = 1e-6 // the fold's sums, rounded in another order
					}
					cases = append(cases, wavCase{f.kind, f.bits, ext, rate, ch, rate / 50, tol})
				}
			}
		}
	}
	for _, c := range cases {
		data, want := corpusWAV(c, g711)
		s, err := Decode("corpus.wav", data)
		if err != nil {
			t.Errorf("%v: %v", c, err)
			continue
		}
		if s.Rate != c.rate || s.Frames != int64(c.frames) || s.Streamed() {
			t.Errorf("%v: %d Hz, %d frames, streamed %v", c, s.Rate, s.Frames, s.Streamed())
			continue
		}
		compare(t, c.String(), s.pcm, want, c.tolerance)
	}
	// Over StreamAbove seconds: streamed, and the same samples.
	long := 0
	for _, c := range cases {
		// At 8 kHz, each layout; at 192 kHz, one (the signal is slow to make).
		if c.rate == 44100 || c.ext != (c.ch == 6) ||
			c.rate == 192000 && (c.kind != "pcm" || c.bits != 24 || c.ch != 2) {
			continue
		}
		c.frames = c.rate*StreamAbove + c.rate/10
		data, want := corpusWAV(c, g711)
		s, err := Decode("long.wav", data)
		if err != nil || !s.Streamed() {
			t.Errorf("long %v: %v, streamed %v", c, err, s != nil && s.Streamed())
			continue
		}
		compare(t, "long "+c.String(), streamAll(t, s), want, c.tolerance)
		long++
	}
	t.Logf("%d WAV layouts whole, %d streamed", len(cases), long)
}

// readS16 reads an s16 reference (mono or stereo) as stereo floats.
func readS16(t *testing.T, name string, mono bool) []float32 {
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []float32
	for i := 0; i+1 < len(b); i += 2 {
		v := float32(int16(binary.LittleEndian.Uint16(b[i:]))) / 32768
		out = append(out, v)
		if mono {
			out = append(out, v)
		}
	}
	return out
}

// TestCorpusMP3: each MP3 (MPEG-1, 2 and 2.5; mono, stereo and joint
// stereo; with and without a LAME tag; 8 kbps frames of 24 bytes) decodes
// to what mpg123 1.31 gives (its gapless default), within 2 LSB of 16
// bits (the decoders round their float output differently), frame for
// frame; the long one is streamed and matches at its start and its end.
func TestCorpusMP3(t *testing.T) {
	files, _ := filepath.Glob("testdata/corpus/m*.mp3")
	if len(files) < 10 {
		t.Fatalf("%d MP3s in testdata/corpus", len(files))
	}
	const tol = 2.0 / 32768
	for _, f := range files {
		name := strings.TrimSuffix(f, ".mp3")
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Decode(filepath.Base(f), data)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		mono := strings.Contains(name, "mono")
		want := readS16(t, name+".s16", mono)
		if !strings.HasSuffix(name, "-long") {
			if s.Streamed() {
				t.Errorf("%s: streamed", f)
				continue
			}
			compare(t, filepath.Base(f), s.pcm, want, tol)
			continue
		}
		b, _ := os.ReadFile(name + ".frames")
		n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if !s.Streamed() || s.Frames != int64(n) {
			t.Errorf("%s: %d frames, streamed %v; want %d, streamed", f, s.Frames, s.Streamed(), n)
			continue
		}
		got := streamAll(t, s)
		streamHead(t, s, got)
		half := len(want) / 2
		if len(got) != 2*n {
			t.Errorf("%s: streams %d frames; want %d", f, len(got)/2, n)
			continue
		}
		compare(t, f+" (its first half second)", got[:half], want[:half], tol)
		compare(t, f+" (its last half second)", got[len(got)-half:], want[half:], tol)
	}
}

// TestCorpusFLAC: each FLAC (8 to 24 bits, 1, 2 and 6 channels, 8 to 192
// kHz) decodes to the signal it was made from, bit for bit, and the long
// one streams it.
func TestCorpusFLAC(t *testing.T) {
	files, _ := filepath.Glob("testdata/corpus/flac-*.flac")
	if len(files) < 6 {
		t.Fatalf("%d FLACs in testdata/corpus", len(files))
	}
	for _, f := range files {
		var rate, ch, bits int
		if _, err := fmt.Sscanf(filepath.Base(f), "flac-%d-%d-%d", &rate, &ch, &bits); err != nil {
			t.Fatal(f, err)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Decode(filepath.Base(f), data)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		var want []float32
		vals := make([]float64, ch)
		for i := range s.Frames {
			for k := range ch {
				vals[k] = float64(quantize(corpusSample(int(i), k, rate), bits)) / float64(int64(1)<<(bits-1))
			}
			l, r := stereoOf(vals)
			want = append(want, float32(l), float32(r))
		}
		tol := 0.0
		if ch == 6 {
			tol = 1e-6
		}
		got := s.pcm
		if strings.HasSuffix(f, "-long.flac") {
			if !s.Streamed() || s.Frames != int64(rate*11) {
				t.Errorf("%s: %d frames, streamed %v", f, s.Frames, s.Streamed())
				continue
			}
			got = streamAll(t, s)
			streamHead(t, s, got)
		} else if s.Streamed() || s.Rate != rate {
			t.Errorf("%s: %d Hz, streamed %v", f, s.Rate, s.Streamed())
			continue
		}
		compare(t, filepath.Base(f), got, want, tol)
	}
}

// TestMP3LoopSeam: a loop made as music is (0.5 s of 480 Hz, 240 whole
// cycles, through LAME with its tag) decodes to its 24000 frames exactly,
// and played looped by the mixer its seam is the tone going on: no gap of
// silence and no jump of phase. Untrimmed, the file started with 2257
// frames of the tag's silent frame and the encoder's and decoder's delay.
func TestMP3LoopSeam(t *testing.T) {
	data, err := os.ReadFile("testdata/corpus/loop-48000.mp3")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Decode("loop-48000.mp3", data)
	if err != nil {
		t.Fatal(err)
	}
	if s.Frames != 24000 || s.Rate != testRate {
		t.Fatalf("%d frames at %d Hz; want 24000 at 48000", s.Frames, s.Rate)
	}
	m := NewMixer(testRate, []*Sound{s})
	v := voice{on: true, loop: true, music: true, end: math.MaxInt64, gl: 1, gr: 1}
	buf := make([]float32, 2*3*24000)
	m.play(&v, buf) // three times round, from the device's frame 0
	// Around each seam and in the middle of a play: the level and the
	// phase of a fit of 480 Hz, and the residual beside it.
	fit := func(a int) (amp, phase, res float64) {
		var ss, sc, cc, ys, yc float64
		for i := a; i < a+400; i++ {
			x := 2 * math.Pi * 480 * float64(i) / testRate
			sn, cs, y := math.Sin(x), math.Cos(x), float64(buf[2*i])
			ss, sc, cc, ys, yc = ss+sn*sn, sc+sn*cs, cc+cs*cs, ys+y*sn, yc+y*cs
		}
		det := ss*cc - sc*sc
		ka, kb := (ys*cc-yc*sc)/det, (yc*ss-ys*sc)/det
		var e float64
		for i := a; i < a+400; i++ {
			x := 2 * math.Pi * 480 * float64(i) / testRate
			d := float64(buf[2*i]) - ka*math.Sin(x) - kb*math.Cos(x)
			e = max(e, math.Abs(d))
		}
		return math.Hypot(ka, kb), math.Atan2(kb, ka), e
	}
	for _, at := range []int{12000 - 200, 24000 - 200, 48000 - 200} {
		amp, phase, res := fit(at)
		t.Logf("frames %d to %d: level %.4f, phase %.4f rad, worst residual %.4f", at, at+400, amp, phase, res)
		if math.Abs(amp-0.5) > 0.5*0.06 || math.Abs(phase) > 0.05 || res > 0.05 {
			t.Errorf("frames %d to %d (a seam at 24000 and 48000): level %.4f, phase %.4f rad, worst residual %.4f; want 0.5 within 0.5 dB, phase 0 within 0.05 rad, residual 0.05 at most",
				at, at+400, amp, phase, res)
		}
	}
	for i := 0; i+2*48 < len(buf); i += 2 {
		quiet := true
		for k := i; k < i+2*48 && quiet; k += 2 {
			quiet = math.Abs(float64(buf[k])) < 0.005
		}
		if quiet {
			t.Fatalf("a millisecond of silence at frame %d", i/2)
		}
	}
}

// FuzzDecodeFormats: the formats the corpus holds, mangled. No file makes
// a decoder panic or claim what it does not hold: each decodes, with as
// many samples as it says, or is an error naming it.
func FuzzDecodeFormats(f *testing.F) {
	g711 := [2][256]float32{}
	for _, c := range []wavCase{
		{kind: "pcm", bits: 32, rate: 8000, ch: 6, frames: 40, ext: true},
		{kind: "float", bits: 64, rate: 8000, ch: 2, frames: 40},
		{kind: "alaw", bits: 8, rate: 8000, ch: 1, frames: 40, ext: true},
		{kind: "mulaw", bits: 8, rate: 8000, ch: 2, frames: 40},
	} {
		data, _ := corpusWAV(c, g711)
		f.Add(data)
	}
	files, _ := filepath.Glob("testdata/corpus/*.[mf][pl]*")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil && (strings.HasSuffix(name, ".mp3") || strings.HasSuffix(name, ".flac")) {
			f.Add(b[:min(len(b), 3000)])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		s, err := Decode("fuzz.snd", data)
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%d bytes took %v to decode", len(data), d)
		}
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.snd") {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		if s.Frames <= 0 || s.Rate < 1000 || s.Rate > 192000 || !s.Streamed() && int64(len(s.pcm)) != 2*s.Frames {
			t.Errorf("decoded %d frames (%d samples) at %d Hz", s.Frames, len(s.pcm), s.Rate)
		}
	})
}

// TestRF64: an RF64 file (a WAV whose lengths live in its ds64 chunk, as
// sox and ffmpeg write past 4 GB) reads as its WAV does; a ds64 claiming
// more than the file holds is refused as a WAV's data chunk would be.
func TestRF64(t *testing.T) {
	c := wavCase{kind: "pcm", bits: 16, rate: 22050, ch: 2, frames: 300}
	wav, want := corpusWAV(c, [2][256]float32{})
	rf := func(dataLen uint64) []byte {
		var b bytes.Buffer
		b.WriteString("RF64")
		binary.Write(&b, binary.LittleEndian, uint32(0xFFFFFFFF))
		b.WriteString("WAVEds64")
		binary.Write(&b, binary.LittleEndian, uint32(28))
		binary.Write(&b, binary.LittleEndian, uint64(len(wav)+36-8))
		binary.Write(&b, binary.LittleEndian, dataLen)
		binary.Write(&b, binary.LittleEndian, uint64(c.frames))
		binary.Write(&b, binary.LittleEndian, uint32(0))
		fmtAt := bytes.Index(wav, []byte("fmt "))
		dataAt := bytes.Index(wav, []byte("data"))
		b.Write(wav[fmtAt:dataAt])
		b.WriteString("data")
		binary.Write(&b, binary.LittleEndian, uint32(0xFFFFFFFF))
		b.Write(wav[dataAt+8:])
		return b.Bytes()
	}
	s, err := Decode("big.wav", rf(uint64(4*c.frames)))
	if err != nil {
		t.Fatal(err)
	}
	compare(t, "RF64", s.pcm, want, 0)
	if _, err := Decode("lying.wav", rf(1<<40)); err == nil || !strings.Contains(err.Error(), "lying.wav: WAV: truncated: the data chunk claims 1099511627776 bytes") {
		t.Errorf("a ds64 claiming a terabyte: %v", err)
	}
}

// TestFLACLength: a FLAC must decode to the length its header gives: one
// that says fewer frames, or more (cut short), is an error naming it.
func TestFLACLength(t *testing.T) {
	data, err := os.ReadFile("testdata/corpus/flac-8000-2-8.flac")
	if err != nil {
		t.Fatal(err)
	}
	claim := func(n uint64) []byte { // STREAMINFO's 36-bit total, bytes 21 to 25 of the file
		b := bytes.Clone(data)
		b[21] = b[21]&0xF0 | byte(n>>32)&0x0F
		binary.BigEndian.PutUint32(b[22:], uint32(n))
		return b
	}
	if s, err := Decode("same.flac", claim(2400)); err != nil || s.Frames != 2400 {
		t.Fatalf("the file's own length: %v", err)
	}
	for _, c := range []struct {
		n    uint64
		want string
	}{{100, "short.flac: FLAC: decodes to more than 100 frames"}, {5000, "short.flac: FLAC: decodes to 2400 frames where its header says 5000"}} {
		if _, err := Decode("short.flac", claim(c.n)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("a header saying %d frames: %v; want %q", c.n, err, c.want)
		}
	}
}
