package audio

import (
	"errors"
	"fmt"
	"io"
)

// packetDecoder is a compressed file's decoder (MP3, FLAC), as decode and
// the streamer use it: stereo float32 frames at the file's rate.
type packetDecoder interface {
	// read fills dst (2 floats a frame) with the next frames and returns
	// how many; io.EOF after the last.
	read(dst []float32) (int, error)
	// rewind goes back to the first frame.
	rewind() error
	rate() int
}

// decodePackets decodes d to its end: the whole sound, or (past
// StreamAbove seconds) its length alone, the sound then to be streamed.
// limit bounds the frames a file of its size can hold. what names the
// format in errors.
func decodePackets(d packetDecoder, limit int64, what string) (pcm []float32, frames int64, stream bool, err error) {
	buf := make([]float32, 2*4096)
	limit = min(limit, maxFrames)
	var out []float32
	for {
		n, err := d.read(buf)
		frames += int64(n)
		if frames > limit {
			return nil, 0, false, fmt.Errorf("%s: decodes to more than %d frames", what, limit)
		}
		if !stream && frames > int64(StreamAbove*d.rate()) {
			stream, out = true, nil
		}
		if !stream {
			out = append(out, buf[:2*n]...)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, 0, false, fmt.Errorf("%s: at frame %d: %w (truncated or corrupt)", what, frames, err)
		}
	}
	if frames == 0 {
		return nil, 0, false, errors.New(what + ": no samples")
	}
	if out != nil {
		out = append(make([]float32, 0, len(out)), out...) // no spare capacity held for the run
	}
	return out, frames, stream, nil
}
