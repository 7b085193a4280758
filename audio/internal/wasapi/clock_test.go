package wasapi

import (
	"math/rand/v2"
	"testing"
)

// A stream whose frame 0 is heard at h on a clock offset from the counter
// gives, at every reading, h back: in frames (Windows' 10 MHz frequency
// and a frame rate) and in bytes (Wine's shared-mode frequency, the
// format's byte rate), hours into a run.
func TestHeard0(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, freq := range []uint64{10_000_000, 48000, 48000 * 8, 44100 * 8} {
		for range 1000 {
			offset := rng.Int64N(1e12) - 5e11        // ns: the clock's reading at the counter's 0
			h := rng.Int64N(1e12)                    // ns: frame 0 heard
			played := rng.Int64N(20 * 3600e9)        // ns into the stream, up to 20 hours
			played -= played % 1e7                   // whole 10 ms: a whole number of units in every freq here
			q := uint64((h + played - offset) / 100) // the counter at that instant, 100 ns
			at := int64(q)*100 + offset              // the instant itself, to the counter's 100 ns
			pos := uint64(played) / 1e7 * freq / 100
			got := Reading{Pos: pos, Freq: freq, QPC: q}.Heard0(offset)
			if want := at - played; got != want {
				t.Fatalf("freq %d, %d ns played, heard at %d: Heard0 = %d, want %d", freq, played, at, got, want)
			}
		}
	}
}

// Heard0 at a byte rate whose units do not divide a second evenly rounds
// each reading down by less than a nanosecond's worth: readings a frame
// apart agree.
func TestHeard0Steady(t *testing.T) {
	const freq = 44100 * 8
	r0 := Reading{Pos: 0, Freq: freq, QPC: 1e9}
	for f := uint64(1); f < 44100*3600; f += 4410 {
		// f frames later, by the counter (rounded as GetPosition does).
		q := r0.QPC + f*1e7/44100
		got := Reading{Pos: 8 * f, Freq: freq, QPC: q}.Heard0(0)
		if d := got - r0.Heard0(0); d < -100 || d > 100 {
			t.Fatalf("frame %d: heard0 moved %d ns", f, d)
		}
	}
}

// Offset takes the midpoint of the two reads around the counter.
func TestOffset(t *testing.T) {
	if got := Offset(1000, 5, 1200); got != 1100-500 {
		t.Fatalf("Offset = %d, want 600", got)
	}
	if got := Offset(-4_000, 0, -3_000); got != -3_500 {
		t.Fatalf("Offset = %d, want -3500", got)
	}
}
