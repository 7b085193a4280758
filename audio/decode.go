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
	// A streamed MP3's or FLAC's decoder, made on the bytes open gives.
	packets func(io.ReadSeeker) (packetDecoder, error)
}

// Streamed reports whether the sound is read from its file as it plays.
func (s *Sound) Streamed() bool { return s.pcm == nil }

// Seconds returns the sound's length.
func (s *Sound) Seconds() float64 { return float64(s.Frames) / float64(s.Rate) }

// Decode reads a sound from data, by its content (RIFF/WAVE, MP3 or FLAC); name
// is for errors. A sound longer than StreamAbove seconds is streamed from
// data as it plays. A bad or truncated file is an error naming name and
// what is wrong.
func Decode(name string, data []byte) (*Sound, error) {
	open := func() (io.ReadSeeker, io.Closer, error) { return bytes.NewReader(data), io.NopCloser(nil), nil }
	return decode(name, int64(len(data)), open)
}

// Load reads the sound file at p in fsys (WAV, MP3 or FLAC), which must
// be a regular file. A long sound (past StreamAbove seconds) is streamed:
// fsys must then give files that seek (os.DirFS and embed.FS do), and
// each play reopens it the same way.
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
	case n == 12 && (string(head[0:4]) == "RIFF" || string(head[0:4]) == "RF64") && string(head[8:12]) == "WAVE":
		s, err = decodeWAV(r, size)
	case n >= 3 && (string(head[0:3]) == "ID3" || head[0] == 0xFF && head[1]&0xE0 == 0xE0):
		var g mp3Gapless
		if g, err = checkMP3Frames(r, size); err == nil {
			if _, err = r.Seek(0, io.SeekStart); err == nil {
				s, err = decodeMP3(r, size, g)
			}
		}
	case n >= 4 && string(head[0:4]) == "fLaC":
		s, err = decodeFLAC(r, size)
	case strings.EqualFold(path.Ext(name), ".ogg"):
		err = errors.New("Ogg Vorbis is not read (no maintained pure-Go decoder): convert it with `ffmpeg -i in.ogg out.wav`")
	default:
		err = errors.New("neither WAV, MP3 nor FLAC: it starts with no RIFF/WAVE (or RF64) header, no fLaC, no ID3 tag and no MP3 frame")
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

// decodeWAV reads a RIFF/WAVE (or RF64/WAVE) file of size bytes: its
// chunks are checked against the file's size before anything is allocated.
func decodeWAV(r io.ReadSeeker, size int64) (*Sound, error) {
	var f wavFormat
	rate, haveFmt := 0, false
	rf64 := int64(-1) // an RF64's data length; -1: none said
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
		if id == "data" && n == 0xFFFFFFFF && rf64 >= 0 {
			n = rf64 // RF64: the length is the ds64 chunk's
		}
		if n > size-at {
			if id == "data" {
				return nil, fmt.Errorf("WAV: truncated: the data chunk claims %d bytes, the file holds %d after it", n, size-at)
			}
			return nil, fmt.Errorf("WAV: the chunk at byte %d claims %d bytes, past the file's %d", at-8, n, size)
		}
		switch id {
		case "ds64": // RF64 (EBU Tech 3306): the RIFF's and the data's 64-bit lengths
			if n < 24 {
				return nil, fmt.Errorf("WAV: ds64 chunk of %d bytes; want 24 or more", n)
			}
			var b [24]byte
			if _, err := io.ReadFull(r, b[:]); err != nil {
				return nil, fmt.Errorf("WAV: ds64 chunk: %w", err)
			}
			rf64 = int64(min(binary.LittleEndian.Uint64(b[8:16]), 1<<62))
		case "fmt ":
			if n < 16 || n > 1024 {
				return nil, fmt.Errorf("WAV: fmt chunk of %d bytes; want 16 to 40", n)
			}
			b := make([]byte, n)
			if _, err := io.ReadFull(r, b); err != nil {
				return nil, fmt.Errorf("WAV: fmt chunk: %w", err)
			}
			var err error
			if f, rate, err = parseWAVFormat(b); err != nil {
				return nil, err
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

// decodeMP3 decodes a whole MP3 (16-bit stereo), the samples its gapless
// tags say to play (g); a long one is decoded once to check it and then
// streamed. go-mp3 panics on some corrupt files (an index out of range in
// its main data): that is the file's error here, not the program's end.
func decodeMP3(r io.ReadSeeker, size int64, g mp3Gapless) (s *Sound, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, fmt.Errorf("MP3: corrupt: the decoder failed (%v)", p)
		}
	}()
	d, err := newMP3Reader(r, g)
	if err != nil {
		return nil, fmt.Errorf("MP3: %w", err)
	}
	rate := d.rate()
	if rate < 8000 || rate > 48000 {
		return nil, fmt.Errorf("MP3: %d Hz", rate)
	}
	// The smallest frame for its samples is MPEG-2's at 8 kbps and 24 kHz:
	// 24 bytes for 576 frames. The decoded length is bounded by the
	// file's size through it.
	pcm, frames, stream, err := decodePackets(d, (size/24+1)*576, "MP3")
	if err != nil {
		return nil, err
	}
	s = &Sound{Rate: rate, Frames: frames, pcm: pcm}
	if stream {
		s.packets = func(r io.ReadSeeker) (packetDecoder, error) { return newMP3Reader(r, g) }
	}
	return s, nil
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
