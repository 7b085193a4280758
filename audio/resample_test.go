package audio

import (
	"math"
	"testing"
)

// TestResampleSine: a 16-bit stereo sine WAV at 44.1 and at 22.05 kHz,
// decoded and resampled to 48 kHz (as NewMixer does for a decoded sound,
// and block by block, as a stream does), is the analytic sine at 48 kHz:
// output frame k is the source at time k/48000 s, for every k whose time
// lies within the source's frames. The tolerance is linear
// interpolation's bound, A·(2πf/rate)²/8 (0.0013 for 1 kHz at 44.1 kHz,
// 0.0051 at 22.05 kHz), plus the 16-bit step; a frame early or late
// would be off by about A·2πf/48000 = 0.065. The length is the source's
// within one source frame (the last, which a whole sound holds as its
// final frame, past the source's span, and a stream ends before).
func TestResampleSine(t *testing.T) {
	const amp, fl, fr, secs = 0.5, 1000.0, 440.0, 1
	for _, rate := range []int{44100, 22050} {
		frames := make([][2]float64, rate*secs)
		for i := range frames {
			x := float64(i) / float64(rate)
			frames[i] = [2]float64{amp * math.Sin(2*math.Pi*fl*x), amp * math.Cos(2*math.Pi*fr*x)}
		}
		s, err := Decode("sine.wav", wavBytes(rate, 2, 16, 1, frames))
		if err != nil {
			t.Fatal(err)
		}
		whole := NewMixer(testRate, []*Sound{s}).sounds[0].pcm
		blocks := resampleBlocks(s.pcm, rate)
		tol := func(f float64) float64 {
			w := 2 * math.Pi * f / float64(rate)
			return amp*w*w/8 + 1.0/32767
		}
		for _, c := range []struct {
			name string
			pcm  []float32
		}{{"whole", whole}, {"in blocks", blocks}} {
			n := len(c.pcm) / 2
			if want := testRate * secs; n < want-testRate/rate-1 || n > want+1 {
				t.Errorf("%d Hz %s: %d frames at 48 kHz; want %d within one source frame", rate, c.name, n, want)
			}
			span := (len(frames)-1)*testRate/rate + 1 // the output frames at or before the source's last
			var worstL, worstR float64
			for k := range min(n, span) {
				x := float64(k) / testRate
				worstL = max(worstL, math.Abs(float64(c.pcm[2*k])-amp*math.Sin(2*math.Pi*fl*x)))
				worstR = max(worstR, math.Abs(float64(c.pcm[2*k+1])-amp*math.Cos(2*math.Pi*fr*x)))
			}
			if worstL > tol(fl) || worstR > tol(fr) {
				t.Errorf("%d Hz %s: worst error left (1 kHz) %.5f, right (440 Hz) %.5f; want within %.5f and %.5f",
					rate, c.name, worstL, worstR, tol(fl), tol(fr))
			}
			t.Logf("%d Hz %s: worst error left %.5f (bound %.5f), right %.5f (bound %.5f)", rate, c.name, worstL, tol(fl), worstR, tol(fr))
		}
		if last := len(whole) - 2; whole[last] != s.pcm[len(s.pcm)-2] || whole[last+1] != s.pcm[len(s.pcm)-1] {
			t.Errorf("%d Hz: the whole sound's last frame %v; want the source's last, %v", rate, whole[last:], s.pcm[len(s.pcm)-2:])
		}
	}
}

// resampleBlocks resamples pcm (stereo at rate) to 48 kHz in blocks of
// uneven sizes, one resampler kept across them, as the streamer does.
func resampleBlocks(pcm []float32, rate int) []float32 {
	r := newResampler(rate, testRate)
	var out []float32
	for i, size := 0, 0; i < len(pcm); i += size {
		size = min(2*(97+i%1013), len(pcm)-i)
		out = r.run(pcm[i:i+size], append(make([]float32, 0, len(out)+2*size*testRate/rate+8), out...))
	}
	return out
}
