package audio

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/mallocs"
)

// FuzzSound: whatever a sound file holds, decoding it allocates at most
// its decoded content and a bounded multiple of its size, and a streamed
// one streams to its end in blocks that each bring frames, exactly the
// frames Setup counted (a WAV) or no more than it (an MP3), with no
// panic: the time and memory of each input are bounded by what it holds.
func FuzzSound(f *testing.F) {
	f.Add(wavBytes(8000, 1, 8, 1, make([][2]float64, 10)))
	f.Add(wavBytes(44100, 2, 24, 1, make([][2]float64, 10)))
	f.Add(wavBytes(48000, 2, 32, 3, make([][2]float64, 10)))
	f.Add(wavBytes(1000, 1, 8, 1, make([][2]float64, 1000*(StreamAbove+1)))) // streamed, a byte a frame
	f.Add(wavBytes(1000, 2, 16, 1, make([][2]float64, 1000*(StreamAbove+1))))
	if mp3, err := os.ReadFile("testdata/speech.mp3"); err == nil {
		f.Add(mp3[:2048])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// The bound on time: an input that takes 5 s ends the worker,
		// which saves it as a failure.
		defer time.AfterFunc(5*time.Second, func() { panic(fmt.Sprintf("an input of %d bytes took over 5 s", len(data))) }).Stop()
		var s *Sound
		var err error
		alloc := mallocs.Bytes(func() { s, err = Decode("fuzz.wav", data) })
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.wav") {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		if s.Frames <= 0 || s.Rate <= 0 || !s.Streamed() && int64(len(s.pcm)) != 2*s.Frames {
			t.Fatalf("decoded %d frames (%d samples) at %d Hz", s.Frames, len(s.pcm), s.Rate)
		}
		if limit := uint64(4<<20 + 64*len(data) + 16*8*int(s.Frames)); alloc > limit {
			t.Errorf("decoding %d bytes (%d frames) allocated %d bytes; want at most %d", len(data), s.Frames, alloc, limit)
		}
		if !s.Streamed() {
			return
		}
		rs, c, err := s.open()
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		src := &source{rs: rs, c: c, snd: s, raw: make([]byte, 16384), frames: make([]float32, 8192)}
		if err := src.rewind(); err != nil {
			t.Fatalf("rewind: %v", err)
		}
		frames, blocks := int64(0), int64(0)
		for ; ; blocks++ {
			b, err := src.read()
			if err == io.EOF {
				break
			}
			if err != nil {
				if s.packets != nil {
					return // the MP3 or FLAC decoder's own judgement of a frame Setup let through
				}
				t.Fatalf("a WAV Setup read whole fails streaming after %d frames: %v", frames, err)
			}
			if len(b) == 0 && s.packets == nil || blocks > s.Frames+16 {
				t.Fatalf("block %d brings %d floats after %d frames of %d", blocks, len(b), frames, s.Frames)
			}
			frames += int64(len(b) / 2)
		}
		if s.packets == nil && frames != s.Frames || s.packets != nil && frames > s.Frames {
			t.Errorf("streamed %d frames; Setup counted %d", frames, s.Frames)
		}
	})
}
