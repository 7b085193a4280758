package audio

import (
	"math/rand/v2"
	"testing"
)

// TestReadWindow: a device clock read at each of a stream's events, as
// Wine's WASAPI gives it (a position that advances a 10 ms period at each
// tick, read after a jittered wake-up, each event's takes a period), and
// as a smooth one does: each window hands on when frame 0 is heard and
// the device's latency to within the least lag of its 16 readings, never
// later than a reading says.
func TestReadWindow(t *testing.T) {
	const period = 10_000_000 // ns
	rng := rand.New(rand.NewPCG(3, 4))
	for _, stepped := range []bool{true, false} {
		const heard0, taken0 = 500_000_000, 420_000_000 // ns: frame 0 heard, and taken; the latency 80 ms
		var w readWindow
		w.reset()
		windows := 0
		for ev := range 16 * 50 {
			tick := int64(ev) * period           // the engine's tick: a period taken
			wake := tick + rng.Int64N(3_000_000) // the event served up to 3 ms late
			read := wake + rng.Int64N(200_000)   // the position read a moment later
			played := read - heard0              // by the speakers
			if stepped {
				played = tick - heard0 // Wine's: the position moved at the tick only
			}
			taken := tick - taken0 // the frames (as ns) the engine took by the tick
			least, latency, full := w.add(read-played, wake-taken)
			if !full {
				continue
			}
			windows++
			if least < heard0 || least > heard0+3_000_000+200_000 {
				t.Fatalf("stepped %v, window %d: heard0 %d, want %d to 3.2 ms later", stepped, windows, least, heard0)
			}
			if d := latency - (heard0 - taken0); d < -3_200_000 || d > 3_200_000 {
				t.Fatalf("stepped %v, window %d: latency %d, want %d within the wake-ups' and reads' lags", stepped, windows, latency, heard0-taken0)
			}
		}
		if windows != 50 {
			t.Fatalf("%d windows of 16 in 800 events; want 50", windows)
		}
	}
}
