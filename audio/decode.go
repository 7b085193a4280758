package audio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"strings"

	"github.com/hajimehoshi/go-mp3"
)

// StreamAbove is the length, in source frames per second of audio, past
// which a sound is streamed from its file while it plays rather than
// decoded whole at Setup: sounds longer than 10 seconds (music).
const StreamAbove = 10

// maxFrames bounds what a file may claim: an hour of audio at 192 kHz.
const maxFrames = 3600 * 192000

// Sound is a decoded or streamable sound, as Setup declared it. Its
// samples are float32, stereo interleaved, at the file's own rate; the
// mixer resamples them to the device's rate when it is made.
type Sound struct {
	Name   string // for errors: the file or the name Setup gave
	Rate   int    // the file's sample rate, Hz
	Frames int64  // the file's length in frames (one sample per channel)

	pcm []float32 // stereo interleaved at Rate; nil when streamed

	// A streamed sound reopens its bytes for each play.
	open   func() (io.ReadSeeker, io.Closer, error)
	format wavFormat // a streamed WAV's layout
	mp3    bool      // a streamed MP3
}

// Streamed reports whether the sound is read from its file as it plays.
func (s *Sound) Streamed() bool { return s.pcm == nil }

// Seconds returns the sound's length.
func (s *Sound) Seconds() float64 { return float64(s.Frames) / float64(s.Rate) }

// Decode reads a sound from data, by its content (RIFF/WAVE or MP3); name
// is for errors. A sound longer than StreamAbove seconds is streamed from
// data as it plays. A bad or truncated file is an error naming name and
// what is wrong.
func Decode(name string, data []byte) (*Sound, error) {
	open := func() (io.ReadSeeker, io.Closer, error) { return bytes.NewReader(data), io.NopCloser(nil), nil }
	return decode(name, int64(len(data)), open)
}

// Load reads the sound file at p in fsys (WAV or MP3), which must be a
// regular file. A long sound (past StreamAbove seconds) is streamed: fsys
// must then give files that seek (os.DirFS and embed.FS do), and each
// play reopens it the same way.
func Load(fsys fs.FS, p string) (*Sound, error) {
	f, size, err := openRegular(fsys, p)
	if err != nil {
		return nil, fmt.Errorf("audio: %s: %w", p, err)
	}
	f.Close()
	open := func() (io.ReadSeeker, io.Closer, error) {
		f, _, err := openRegular(fsys, p)
		if err != nil {
			return nil, nil, err
		}
		rs, ok := f.(io.ReadSeeker)
		if !ok {
			f.Close()
			return nil, nil, fmt.Errorf("the file system's files do not seek (use os.DirFS or embed.FS)")
		}
		return newBufReadSeeker(rs), f, nil
	}
	return decode(p, size, open)
}

func decode(name string, size int64, open func() (io.ReadSeeker, io.Closer, error)) (*Sound, error) {
	r, c, err := open()
	if err != nil {
		return nil, fmt.Errorf("audio: %s: %w", name, err)
	}
	defer c.Close()
	var head [12]byte
	n, err := io.ReadFull(r, head[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, fmt.Errorf("audio: %s: %w", name, err)
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("audio: %s: %w", name, err)
	}
	var s *Sound
	switch {
	case n == 12 && string(head[0:4]) == "RIFF" && string(head[8:12]) == "WAVE":
		s, err = decodeWAV(r, size)
	case n >= 3 && (string(head[0:3]) == "ID3" || head[0] == 0xFF && head[1]&0xE0 == 0xE0):
		if err = checkMP3Frames(r, size); err == nil {
			if _, err = r.Seek(0, io.SeekStart); err == nil {
				s, err = decodeMP3(r, size)
			}
		}
	case strings.EqualFold(path.Ext(name), ".ogg"):
		err = errors.New("Ogg Vorbis is not read (no maintained pure-Go decoder): convert it with `ffmpeg -i in.ogg out.wav`")
	default:
		err = errors.New("neither WAV nor MP3: it starts with no RIFF/WAVE header, no ID3 tag and no MP3 frame")
	}
	if err != nil {
		return nil, fmt.Errorf("audio: %s: %w", name, err)
	}
	s.Name = name
	if s.pcm == nil {
		s.open = open
	}
	return s, nil
}

// wavFormat is a WAV file's sample layout and where its samples lie.
type wavFormat struct {
	channels, bits int
	float          bool
	dataAt, bytes  int64 // the data chunk's offset and length
}

func (f wavFormat) frameBytes() int { return f.channels * f.bits / 8 }

// decodeWAV reads a RIFF/WAVE file of size bytes: its chunks are checked
// against the file's size before anything is allocated.
func decodeWAV(r io.ReadSeeker, size int64) (*Sound, error) {
	var f wavFormat
	rate, haveFmt := 0, false
	at := int64(12)
	if _, err := r.Seek(12, io.SeekStart); err != nil {
		return nil, err
	}
	for chunks := 0; ; chunks++ {
		var ch [8]byte
		if _, err := io.ReadFull(r, ch[:]); err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return nil, fmt.Errorf("WAV: no data chunk before the end at byte %d (truncated?)", at)
			}
			return nil, fmt.Errorf("WAV: at byte %d: %w", at, err)
		}
		id, n := string(ch[0:4]), int64(binary.LittleEndian.Uint32(ch[4:8]))
		// A chunk's id is four printable ASCII characters, and a WAV has a
		// few chunks before its data: a walk through anything else (a
		// gigabyte of zeros after RIFF/WAVE) stops here, at once.
		if !chunkID(ch[0:4]) {
			return nil, fmt.Errorf("WAV: byte %d is not a chunk (its id is not four printable characters): damaged or not a WAV", at)
		}
		if chunks >= maxChunks {
			return nil, fmt.Errorf("WAV: no data chunk in its first %d chunks", maxChunks)
		}
		at += 8
		if n > size-at {
			if id == "data" {
				return nil, fmt.Errorf("WAV: truncated: the data chunk claims %d bytes, the file holds %d after it", n, size-at)
			}
			return nil, fmt.Errorf("WAV: the chunk at byte %d claims %d bytes, past the file's %d", at-8, n, size)
		}
		switch id {
		case "fmt ":
			if n < 16 || n > 1024 {
				return nil, fmt.Errorf("WAV: fmt chunk of %d bytes; want 16 to 40", n)
			}
			b := make([]byte, n)
			if _, err := io.ReadFull(r, b); err != nil {
				return nil, fmt.Errorf("WAV: fmt chunk: %w", err)
			}
			tag := binary.LittleEndian.Uint16(b[0:2])
			f.channels = int(binary.LittleEndian.Uint16(b[2:4]))
			rate = int(binary.LittleEndian.Uint32(b[4:8]))
			f.bits = int(binary.LittleEndian.Uint16(b[14:16]))
			if tag == 0xFFFE && n >= 26 { // WAVE_FORMAT_EXTENSIBLE: the sub-format's tag
				tag = binary.LittleEndian.Uint16(b[24:26])
			}
			switch {
			case tag == 1 && (f.bits == 8 || f.bits == 16 || f.bits == 24):
			case tag == 3 && f.bits == 32:
				f.float = true
			default:
				return nil, fmt.Errorf("WAV: format %d with %d-bit samples; tandem reads 8-, 16- and 24-bit PCM (1) and 32-bit float (3): convert with `ffmpeg -i in.wav -c:a pcm_s16le out.wav`", tag, f.bits)
			}
			if f.channels != 1 && f.channels != 2 {
				return nil, fmt.Errorf("WAV: %d channels; want mono or stereo", f.channels)
			}
			if rate < 1000 || rate > 192000 {
				return nil, fmt.Errorf("WAV: %d Hz; want 1000 to 192000", rate)
			}
			haveFmt = true
		case "data":
			if !haveFmt {
				return nil, errors.New("WAV: the data chunk comes before the fmt chunk")
			}
			f.dataAt, f.bytes = at, n-n%int64(f.frameBytes())
			frames := f.bytes / int64(f.frameBytes())
			if frames == 0 {
				return nil, errors.New("WAV: no samples")
			}
			if frames > maxFrames {
				return nil, fmt.Errorf("WAV: %d frames; at most %d (an hour at 192 kHz)", frames, maxFrames)
			}
			s := &Sound{Rate: rate, Frames: frames, format: f}
			if frames <= int64(StreamAbove*rate) {
				raw := make([]byte, f.bytes)
				if _, err := r.Seek(f.dataAt, io.SeekStart); err != nil {
					return nil, err
				}
				if _, err := io.ReadFull(r, raw); err != nil {
					return nil, fmt.Errorf("WAV: data: %w", err)
				}
				s.pcm = make([]float32, 2*frames)
				f.convert(s.pcm, raw)
			}
			return s, nil
		}
		at += n + n&1 // chunks are padded to even lengths
		if _, err := r.Seek(at, io.SeekStart); err != nil {
			return nil, err
		}
	}
}

// maxChunks bounds the chunks a WAV may have before its data.
const maxChunks = 64

// chunkID reports whether b is a RIFF chunk id: printable ASCII.
func chunkID(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c > 0x7E {
			return false
		}
	}
	return true
}

// convert turns raw samples (whole frames) into stereo float32 frames in
// dst, which holds 2 per frame. It allocates nothing.
func (f wavFormat) convert(dst []float32, raw []byte) {
	fb := f.frameBytes()
	for i := 0; i+fb <= len(raw); i += fb {
		var l, r float32
		l = f.sample(raw[i:])
		r = l
		if f.channels == 2 {
			r = f.sample(raw[i+f.bits/8:])
		}
		k := 2 * (i / fb)
		dst[k], dst[k+1] = l, r
	}
}

func (f wavFormat) sample(b []byte) float32 {
	switch {
	case f.float:
		v := math.Float32frombits(binary.LittleEndian.Uint32(b))
		if v != v || v > 1e3 || v < -1e3 { // NaN or absurd: silence, not noise that poisons the mix
			return 0
		}
		return v
	case f.bits == 8:
		return float32(int(b[0])-128) / 128
	case f.bits == 16:
		return float32(int16(binary.LittleEndian.Uint16(b))) / 32768
	default: // 24
		v := int32(uint32(b[0])<<8|uint32(b[1])<<16|uint32(b[2])<<24) >> 8
		return float32(v) / 8388608
	}
}

// decodeMP3 decodes a whole MP3 (go-mp3 gives 16-bit stereo); a long one
// is decoded once to check it and then streamed. go-mp3 v0.3.4 panics on
// some corrupt files (an index out of range in its main data): that is
// the file's error here, not the program's end.
func decodeMP3(r io.ReadSeeker, size int64) (s *Sound, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, fmt.Errorf("MP3: corrupt: the decoder failed (%v)", p)
		}
	}()
	d, err := mp3.NewDecoder(r)
	if err != nil {
		return nil, fmt.Errorf("MP3: %w", err)
	}
	rate := d.SampleRate()
	if rate < 8000 || rate > 48000 {
		return nil, fmt.Errorf("MP3: %d Hz", rate)
	}
	// A frame of at least 96 bytes gives 1152 frames: the decoded length is
	// bounded by the file's size.
	limit := (size/96 + 1) * 1152
	var out []float32
	buf := make([]byte, 4*4096)
	frames := int64(0)
	stream := false
	for {
		n, err := d.Read(buf)
		n -= n % 4
		frames += int64(n / 4)
		if frames > limit || frames > maxFrames {
			return nil, fmt.Errorf("MP3: decodes to more than %d frames", min(limit, maxFrames))
		}
		if !stream && frames > int64(StreamAbove*rate) {
			stream, out = true, nil
		}
		if !stream {
			for i := 0; i < n; i += 2 {
				out = append(out, float32(int16(binary.LittleEndian.Uint16(buf[i:])))/32768)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("MP3: at frame %d: %w (truncated or corrupt)", frames, err)
		}
	}
	if frames == 0 {
		return nil, errors.New("MP3: no samples")
	}
	return &Sound{Rate: rate, Frames: frames, pcm: out, mp3: stream}, nil
}

// Click returns a 2 ms click at 48 kHz: a sound of the engine's own, for
// the bench's key presses (append it to the game's sounds; its index is
// theirs plus one).
func Click() *Sound {
	const n = 96
	pcm := make([]float32, 2*n)
	for i := range n {
		v := float32(0.8 * math.Exp(-float64(i)/24))
		pcm[2*i], pcm[2*i+1] = v, v
	}
	return &Sound{Name: "click", Rate: 48000, Frames: n, pcm: pcm}
}
