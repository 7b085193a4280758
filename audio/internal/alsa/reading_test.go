package alsa

import "testing"

// TestHeard0: frame written−Delay is heard at the reading's midpoint;
// frame 0 that many frames sooner, on the other clock.
func TestHeard0(t *testing.T) {
	for _, c := range []struct {
		r       Reading
		written int64
		offset  int64
		want    int64
	}{
		// 48000 frames written, 4800 still to be heard at 10 s: frame 43200
		// (0.9 s) is heard at 10 s, frame 0 at 9.1 s.
		{Reading{Delay: 4800, T0: 10e9 - 1000, T1: 10e9 + 1000, Rate: 48000}, 48000, 0, 9.1e9},
		{Reading{Delay: 4800, T0: 10e9, T1: 10e9, Rate: 48000}, 48000, -2e9, 7.1e9},
		// Nothing heard yet: the delay holds more than was written (a
		// device's own latency past its buffer): frame 0 is heard later.
		{Reading{Delay: 960, T0: 1e9, T1: 1e9, Rate: 48000}, 480, 0, 1e9 + 10e6},
		{Reading{Delay: 1, T0: 0, T1: 0, Rate: 44100}, 44101, 0, -1e9},
	} {
		if got := c.r.Heard0(c.written, c.offset); got != c.want {
			t.Errorf("%+v, written %d, offset %d: heard0 %d; want %d", c.r, c.written, c.offset, got, c.want)
		}
	}
}

func TestOffset(t *testing.T) {
	if got := Offset(100, 5000, 110); got != 105-5000 {
		t.Errorf("Offset(100, 5000, 110) = %d; want %d", got, 105-5000)
	}
}
