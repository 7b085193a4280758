package audio

import (
	"io"
	"math"
	"testing"
)

// TestStreamLayouts: a streamed WAV of every layout tandem reads, the
// frames of under 4 bytes among them (mono 8-, 16- and 24-bit, 8-bit
// stereo), whose blocks once overran the decoder's float buffer, streams
// whole and sample for sample: the stream's head when a mixer is made,
// and every block the streamer reads after it.
func TestStreamLayouts(t *testing.T) {
	const rate = 8000
	n := rate*(StreamAbove+1) + 123 // past the streaming bound, not a whole block
	frames := make([][2]float64, n)
	for i := range frames {
		v := float64(i%1000)/1000 - 0.5
		frames[i] = [2]float64{v, -v / 2}
	}
	for _, c := range []struct{ bits, tag int }{{8, 1}, {16, 1}, {24, 1}, {32, 3}} {
		for _, ch := range []int{1, 2} {
			data := wavBytes(rate, ch, c.bits, c.tag, frames)
			s, err := Decode("long.wav", data)
			if err != nil || !s.Streamed() {
				t.Fatalf("%d-bit %d ch: %v, streamed %v", c.bits, ch, err, s != nil && s.Streamed())
			}
			// What a short file of the same bytes decodes to, whole.
			want := make([]float32, 2*s.Frames)
			s.format.convert(want, data[s.format.dataAt:s.format.dataAt+s.format.bytes])

			m := NewMixer(rate, []*Sound{s}) // the streamer decodes the head here
			head := m.sounds[0].stream.head
			m.Close()
			if len(head) != 2*(rate/2) {
				t.Errorf("%d-bit %d ch: a head of %d floats; want %d", c.bits, ch, len(head), 2*(rate/2))
			}
			for i := range min(len(head), len(want)) {
				if head[i] != want[i] {
					t.Fatalf("%d-bit %d ch: head float %d: %v, want %v", c.bits, ch, i, head[i], want[i])
				}
			}

			rs, cl, _ := s.open()
			src := &source{rs: rs, c: cl, snd: s, raw: make([]byte, 16384), frames: make([]float32, 8192)}
			if err := src.rewind(); err != nil {
				t.Fatal(err)
			}
			var got []float32
			for {
				b, err := src.read()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%d-bit %d ch: after %d frames: %v", c.bits, ch, len(got)/2, err)
				}
				got = append(got, b...)
			}
			if len(got) != len(want) {
				t.Fatalf("%d-bit %d ch: streamed %d frames; want %d", c.bits, ch, len(got)/2, len(want)/2)
			}
			step := max(math.Ldexp(1, 2-c.bits), 1e-6) // two of the format's steps, or float32's
			for i := range got {
				v := frames[i/2][0] // what was written: mono plays on both sides
				if ch == 2 && i%2 == 1 {
					v = frames[i/2][1]
				}
				if got[i] != want[i] || math.Abs(float64(got[i])-v) > step {
					t.Fatalf("%d-bit %d ch: float %d: %v, want %v", c.bits, ch, i, got[i], want[i])
				}
			}
		}
	}
}
