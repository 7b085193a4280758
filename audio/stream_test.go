package audio

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// TestStreamCutWhilePlaying: looping music whose file is cut while it
// plays (to nothing, to its 44-byte header, or mid-data) stops that
// voice, leaves an error naming the file, and lets the streamer end: no
// rewind onto nothing forever, and Close returns at once. A play of it
// after that is dropped, counted.
func TestStreamCutWhilePlaying(t *testing.T) {
	for _, cut := range []int64{0, 44, 44 + 2*8000} {
		dir := t.TempDir()
		frames := make([][2]float64, 8000*(StreamAbove+1))
		for i := range frames {
			frames[i][0] = 0.5
		}
		path := filepath.Join(dir, "music.wav")
		if err := os.WriteFile(path, wavBytes(8000, 1, 16, 1, frames), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Load(os.DirFS(dir), "music.wav")
		if err != nil || !s.Streamed() {
			t.Fatalf("%v, streamed %v", err, s != nil && s.Streamed())
		}
		m := NewMixer(testRate, []*Sound{s})
		d := newFakeDevice(m, 7)
		m.SetOffset(int64(200 * time.Millisecond))
		st := m.sounds[0].stream
		k := 0
		lateFail := false // the second play came before the failure (a loaded machine's slow streamer)
		pulls := func(n int) {
			for range n {
				if k == 200 {
					lateFail = !st.failed.Load()
				}
				if k == 5 || k == 200 {
					m.Push(Event{Op: OpMusic, Sound: 0, Volume: 1, Tick: uint64(k), Time: d.t0 + m.clock.framesNs(int64(k*d.period))})
				}
				d.pull(k, false)
				k++
				time.Sleep(2 * time.Millisecond)
			}
		}
		pulls(40) // the music plays
		if err := os.Truncate(path, cut); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second) // 11 s of music at most, 6 times as fast
		for !st.failed.Load() && time.Now().Before(deadline) {
			pulls(20)
		}
		if !st.failed.Load() {
			t.Fatalf("cut to %d bytes: the stream did not fail in 10 s; stats %+v", cut, m.Stats())
		}
		select {
		case <-st.done:
		case <-time.After(time.Second):
			t.Errorf("cut to %d bytes: the streamer still runs a second after it failed", cut)
		}
		from := len(d.out)
		pulls(max(0, 210-k) + 10) // a second play of the music, after the failure
		for j := from + 2*d.period*2; j < len(d.out); j++ {
			if d.out[j] != 0 {
				t.Fatalf("cut to %d bytes: sound at float %d after the stream failed", cut, j)
			}
		}
		begin := time.Now()
		m.Close()
		m.Close()
		if el := time.Since(begin); el > 100*time.Millisecond {
			t.Errorf("cut to %d bytes: Close took %v", cut, el)
		}
		ss := m.Stats()
		if ss.StreamErrors != 1 || !strings.Contains(ss.StreamError, "music.wav") || !strings.Contains(ss.StreamError, "cut while playing") {
			t.Errorf("cut to %d bytes: stream errors %d, %q; want 1 naming music.wav and saying it was cut", cut, ss.StreamErrors, ss.StreamError)
		}
		if !lateFail && ss.EventsDropped != 1 {
			t.Errorf("cut to %d bytes: %d events dropped; want the play after the failure", cut, ss.EventsDropped)
		}
		if errs := m.StreamErrors(nil); len(errs) != 1 {
			t.Errorf("cut to %d bytes: StreamErrors %v", cut, errs)
		}
	}
}
