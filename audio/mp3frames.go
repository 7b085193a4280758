package audio

import (
	"bufio"
	"fmt"
	"io"
)

// checkMP3Frames walks an MP3 of size bytes frame by frame, by the length
// each frame's header gives, and returns an error when the file ends
// inside a frame: go-mp3 would stop at the last whole frame and say
// nothing. The walk skips an ID3v2 tag at the start. Where the bytes are
// not a layer III frame header (an ID3v1 or APE tag at the end, junk the
// decoder resyncs past, a free-format frame) the frames are the decoder's
// to judge, but the bytes that hold none are bounded: go-mp3 looks for a
// frame a byte at a time, and three frames and a gigabyte of zeros would
// keep it for minutes. It returns what the first frame's gapless tags say
// (parseXing), and refuses the one coding the decoder does not read:
// intensity stereo in an MPEG-2 or 2.5 frame.
func checkMP3Frames(r io.Reader, size int64) (mp3Gapless, error) {
	g := mp3Gapless{frames: -1}
	first := true
	br := bufio.NewReaderSize(r, fileReadSize)
	pos := int64(0)
	if h, err := br.Peek(10); err == nil && string(h[:3]) == "ID3" {
		n := int64(h[6]&0x7F)<<21 | int64(h[7]&0x7F)<<14 | int64(h[8]&0x7F)<<7 | int64(h[9]&0x7F)
		n += 10
		if h[5]&0x10 != 0 { // a footer
			n += 10
		}
		if n > size {
			return g, fmt.Errorf("MP3: truncated: its ID3 tag claims %d bytes, the file has %d", n, size)
		}
		if _, err := br.Discard(int(n)); err != nil {
			return g, fmt.Errorf("MP3: at byte %d: %w", pos, err)
		}
		pos = n
	}
	for pos < size {
		h, err := br.Peek(4)
		if len(h) < 4 {
			if err != io.EOF {
				return g, fmt.Errorf("MP3: at byte %d: %w", pos, err)
			}
			if len(h) > 0 && h[0] == 0xFF {
				return g, fmt.Errorf("MP3: truncated: ends %d bytes into a frame header at byte %d", len(h), pos)
			}
			return g, nil
		}
		n := mp3FrameBytes(h)
		if n == 0 {
			return g, checkMP3Junk(br, pos, size)
		}
		if h[1]>>3&3 != 3 && h[3]>>6 == 1 && h[3]>>4&1 != 0 {
			return g, fmt.Errorf("MP3: the frame at byte %d is MPEG-2 with intensity stereo, which tandem's decoder does not read: convert it with `ffmpeg -i in.mp3 -c:a libmp3lame -q:a 2 out.mp3` (or to WAV)", pos)
		}
		if first {
			first = false
			if f, err := br.Peek(int(min(n, size-pos))); err == nil {
				g = parseXing(f)
			}
		}
		if pos+n > size {
			return g, fmt.Errorf("MP3: truncated: ends %d bytes into a frame at byte %d (the frame has %d bytes)", size-pos, pos, n)
		}
		if _, err := br.Discard(int(n)); err != nil {
			return g, fmt.Errorf("MP3: at byte %d: %w", pos, err)
		}
		pos += n
	}
	return g, nil
}

// mp3FrameBytes returns the length of the MPEG layer III frame whose
// header is h, 0 when h is not one (or is free-format: no length).
func mp3FrameBytes(h []byte) int64 {
	if h[0] != 0xFF || h[1]&0xE0 != 0xE0 || (h[1]>>1)&3 != 1 {
		return 0
	}
	version := (h[1] >> 3) & 3 // 0: MPEG 2.5, 1: reserved, 2: MPEG 2, 3: MPEG 1
	bi, si, pad := h[2]>>4, (h[2]>>2)&3, int64(h[2]>>1&1)
	if version == 1 || bi == 0 || bi == 15 || si == 3 {
		return 0
	}
	if version == 3 {
		kbps := [15]int64{0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320}[bi]
		rate := [3]int64{44100, 48000, 32000}[si]
		return 144*kbps*1000/rate + pad
	}
	kbps := [15]int64{0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160}[bi]
	rate := [3]int64{22050, 24000, 16000}[si]
	if version == 0 {
		rate /= 2
	}
	return 72*kbps*1000/rate + pad
}

// maxMP3Junk bounds the bytes past an MP3's first run of frames that
// are not frames.
const maxMP3Junk = 1 << 20

// checkMP3Junk reads br from pos (not a frame header) to the end of the
// file, counting the bytes that are not in a frame (a header whose frame
// is followed by another header, or by the end), and returns an error
// once they pass maxMP3Junk.
func checkMP3Junk(br *bufio.Reader, pos, size int64) error {
	junk := int64(0)
	from := pos
	for pos < size {
		h, err := br.Peek(4)
		if len(h) < 4 {
			if err != nil && err != io.EOF {
				return fmt.Errorf("MP3: at byte %d: %w", pos, err)
			}
			return nil
		}
		if n := mp3FrameBytes(h); n > 0 && pos+n <= size {
			if next, _ := br.Peek(int(min(n+4, fileReadSize))); pos+n == size || int64(len(next)) >= n+4 && mp3FrameBytes(next[n:]) > 0 {
				br.Discard(int(n))
				pos += n
				continue
			}
		}
		if junk++; junk > maxMP3Junk {
			return fmt.Errorf("MP3: more than %d bytes from byte %d on are not MP3 frames: damaged, or not an MP3", maxMP3Junk, from)
		}
		br.Discard(1)
		pos++
	}
	return nil
}
