package audio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/cmplx"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/mallocs"
)

// tone returns secs of a sine of amplitude amp at f Hz, sampled at rate,
// as stereo float32 (the right channel a cosine, so each channel has its
// own phase).
func tone(rate int, f, amp, secs float64) []float32 {
	n := int(float64(rate) * secs)
	pcm := make([]float32, 2*n)
	for i := range n {
		x := 2 * math.Pi * f * float64(i) / float64(rate)
		pcm[2*i], pcm[2*i+1] = float32(amp*math.Sin(x)), float32(amp*math.Cos(x))
	}
	return pcm
}

// voiceOut resamples pcm to rate to as a voice plays a decoded sound:
// kernel.mix over buffers of 480 frames, unlooped.
func voiceOut(pcm []float32, from, to int) []float32 {
	k := kernelFor(from, to)
	out := make([]float32, 2*k.length(int64(len(pcm)/2)))
	for p := 0; p < len(out)/2; p += 480 {
		e := min(p+480, len(out)/2)
		k.mix(out[2*p:2*e], pcm, int64(p), false, 1, 1)
	}
	return out
}

// streamOut resamples pcm as the streamer does: one resampler across
// blocks of uneven sizes.
func streamOut(pcm []float32, from, to int) []float32 {
	r := newResampler(from, to)
	out := make([]float32, 0, len(pcm)*to/from+64)
	for i, size := 0, 0; i < len(pcm); i += size {
		size = min(2*(97+i%1013), len(pcm)-i)
		out = r.run(pcm[i:i+size], out)
	}
	return r.flush(out)
}

// fitTone returns the amplitude of the f Hz sine that best fits channel
// ch of pcm (stereo at rate) over frames [a, b), by least squares, and the
// residual's amplitude (its RMS times √2: what one sine of the same
// power would have), which holds every image, alias and spur.
func fitTone(pcm []float32, rate int, f float64, ch, a, b int) (amp, residual float64) {
	var ss, sc, cc, ys, yc float64
	for i := a; i < b; i++ {
		x := 2 * math.Pi * f * float64(i) / float64(rate)
		s, c, y := math.Sin(x), math.Cos(x), float64(pcm[2*i+ch])
		ss, sc, cc, ys, yc = ss+s*s, sc+s*c, cc+c*c, ys+y*s, yc+y*c
	}
	det := ss*cc - sc*sc
	ka, kb := (ys*cc-yc*sc)/det, (yc*ss-ys*sc)/det
	var e float64
	for i := a; i < b; i++ {
		x := 2 * math.Pi * f * float64(i) / float64(rate)
		d := float64(pcm[2*i+ch]) - ka*math.Sin(x) - kb*math.Cos(x)
		e += d * d
	}
	return math.Hypot(ka, kb), math.Sqrt(2 * e / float64(b-a))
}

// worstBin returns the frequency and amplitude of the largest component of
// channel ch of pcm over frames [a, a+n) (n a power of 2), through a
// Blackman-Harris window (sidelobes at -92 dB).
func worstBin(pcm []float32, rate int, ch, a, n int) (hz, amp float64) {
	x := make([]complex128, n)
	sum := 0.0
	for i := range n {
		t := 2 * math.Pi * float64(i) / float64(n)
		w := 0.35875 - 0.48829*math.Cos(t) + 0.14128*math.Cos(2*t) - 0.01168*math.Cos(3*t)
		x[i] = complex(float64(pcm[2*(a+i)+ch])*w, 0)
		sum += w
	}
	fft(x)
	for k := 1; k < n/2; k++ {
		if v := 2 * cmplx.Abs(x[k]) / sum; v > amp {
			hz, amp = float64(k)*float64(rate)/float64(n), v
		}
	}
	return hz, amp
}

// fft is an in-place radix-2 FFT; len(x) is a power of 2.
func fft(x []complex128) {
	n := len(x)
	for i, j := 1, 0; i < n; i++ {
		bit := n >> 1
		for ; j&bit != 0; bit >>= 1 {
			j ^= bit
		}
		j ^= bit
		if i < j {
			x[i], x[j] = x[j], x[i]
		}
	}
	for size := 2; size <= n; size <<= 1 {
		w := cmplx.Exp(complex(0, -2*math.Pi/float64(size)))
		for s := 0; s < n; s += size {
			wk := complex(1, 0)
			for k := range size / 2 {
				u, v := x[s+k], x[s+k+size/2]*wk
				x[s+k], x[s+k+size/2] = u+v, u-v
				wk *= w
			}
		}
	}
}

func dB(x float64) float64 { return 20 * math.Log10(x) }

// TestResampleFigures measures the resampler as a listener would: tones
// through it, from every common rate to 48 and 44.1 kHz, through both
// paths (a voice's and a stream's), which must agree. In the passband (to
// 20 kHz, or to 0.91 × the lower Nyquist frequency below 44 kHz) each
// tone comes out within 0.5 dB of its level, and what else comes out (its
// images going up, its aliases going down, any spur) is at most -60 dB
// of it; a tone in the stopband (above the lower Nyquist frequency by
// what the passband's edge is below it) comes out at -60 dB at most,
// such as the 30 kHz tone of a 96 kHz file that the linear resampler
// played as an 18 kHz tone at full level.
func TestResampleFigures(t *testing.T) {
	const amp = 0.5
	type tc struct {
		from, to int
		f        float64
		stop     bool // a stopband tone: nothing may come out
	}
	var cases []tc
	for _, to := range []int{48000, 44100} {
		// 22051 and 44101 Hz have 48000 phases to 48 kHz: their tables interpolate.
		for _, from := range []int{8000, 11025, 16000, 22050, 22051, 32000, 44100, 44101, 48000, 88200, 96000, 176400, 192000} {
			if from == to {
				continue
			}
			edge, cutoff := passband(from, to)
			if from >= 44100 && to >= 44100 && edge < 20000 {
				t.Errorf("%d to %d Hz: the passband ends at %.0f Hz; want 20 kHz", from, to, edge)
			}
			for _, f := range []float64{20, 1000, edge / 2, edge * 0.9, edge} {
				cases = append(cases, tc{from, to, f, false})
			}
			if stop := 2*cutoff - edge; stop < float64(from)/2 {
				cases = append(cases, tc{from, to, stop, true}, tc{from, to, (stop + float64(from)/2) / 2, true})
			}
		}
	}
	cases = append(cases, tc{96000, 48000, 30000, true})
	worstFlat, worstSpur, worstStop := 0.0, -200.0, -200.0
	type figures struct{ flat, spur, stop float64 }
	pairs := map[[2]int]*figures{}
	var order [][2]int
	for _, c := range cases {
		pair := [2]int{c.from, c.to}
		if pairs[pair] == nil {
			pairs[pair] = &figures{0, -200, -200}
			order = append(order, pair)
		}
		pf := pairs[pair]
		src := tone(c.from, c.f, amp, 0.25)
		voice, stream := voiceOut(src, c.from, c.to), streamOut(src, c.from, c.to)
		name := fmt.Sprintf("%d to %d Hz, %.0f Hz tone", c.from, c.to, c.f)
		n := len(stream) / 2
		if len(voice) != len(stream) {
			t.Errorf("%s: a voice gives %d frames, a stream %d; want the same", name, len(voice)/2, n)
		}
		for i := range 2 * n {
			if math.Abs(float64(voice[i]-stream[i])) > 1e-6 {
				t.Fatalf("%s: sample %d: a voice gives %v, a stream %v; want the same", name, i, voice[i], stream[i])
			}
		}
		// The steady part: past the filter's window at the start and end.
		a, b := n/8, n-n/8
		for ch := range 2 {
			got, res := fitTone(voice, c.to, c.f, ch, a, b)
			if c.stop {
				level := dB(math.Max(got, res) / amp)
				worstStop, pf.stop = max(worstStop, level), max(pf.stop, level)
				if level > -60 {
					hz, _ := worstBin(voice, c.to, ch, a, 4096)
					t.Errorf("%s (stopband): comes out at %.1f dB (at %.0f Hz); want -60 dB at most", name, level, hz)
				}
				continue
			}
			flat, spur := dB(got/amp), dB(res/amp)
			worstFlat, worstSpur = max(worstFlat, math.Abs(flat)), max(worstSpur, spur)
			pf.flat, pf.spur = max(pf.flat, math.Abs(flat)), max(pf.spur, spur)
			if math.Abs(flat) > 0.5 || spur > -60 {
				hz, _ := worstBin(voice, c.to, ch, a, 4096)
				t.Errorf("%s channel %d: level %+.3f dB, images and aliases %.1f dB (worst bin near %.0f Hz); want within 0.5 dB and -60 dB at most",
					name, ch, flat, spur, hz)
			}
		}
	}
	for _, p := range order {
		f := pairs[p]
		edge, _ := passband(p[0], p[1])
		stop := "none (no tone above)"
		if f.stop > -200 {
			stop = fmt.Sprintf("%.1f dB", f.stop)
		}
		t.Logf("%6d to %d Hz: %2d taps, passband to %5.0f Hz within %.4f dB, images and aliases %.1f dB, stopband tones %s",
			p[0], p[1], kernelFor(p[0], p[1]).taps(), edge, f.flat, f.spur, stop)
	}
	t.Logf("%d tones: passband level within %.3f dB; images, aliases and spurs at most %.1f dB; stopband tones out at %.1f dB at most",
		len(cases), worstFlat, worstSpur, worstStop)
}

// TestResampleAligned: output frame k is the source at instant k/to (a
// frame early or late would be off by 2π·f/48000 of the amplitude), a
// looped sound's seam is as smooth as its middle, and a sound at the
// device's rate is not touched.
func TestResampleAligned(t *testing.T) {
	const amp, f = 0.5, 1000.0
	for _, from := range []int{22050, 44100, 96000} {
		src := tone(from, f, amp, 0.2)
		out := voiceOut(src, from, testRate)
		worst := 0.0
		n := len(out) / 2
		for k := n / 8; k < n-n/8; k++ {
			worst = max(worst, math.Abs(float64(out[2*k])-amp*math.Sin(2*math.Pi*f*float64(k)/testRate)))
		}
		if worst > 1e-3 {
			t.Errorf("%d Hz: worst error %.5f against the sine at the output's instants; want 1e-3 at most", from, worst)
		}
		// 0.2 s of 1 kHz is 200 whole cycles: looped, the seam is the
		// sine going on.
		k := kernelFor(from, testRate)
		loop := make([]float32, 2*testRate/2)
		k.mix(loop, src, int64(n-testRate/8), true, 1, 1)
		worst = 0
		for i := range len(loop) / 2 {
			p := float64(n-testRate/8+i) / testRate
			worst = max(worst, math.Abs(float64(loop[2*i])-amp*math.Sin(2*math.Pi*f*p)))
		}
		if worst > 1e-3 {
			t.Errorf("%d Hz looped: worst error %.5f across the seam; want 1e-3 at most", from, worst)
		}
	}
	// Past the exact tables' budget, a ratio's table interpolates and
	// gives the same samples, within what float32 taps hold.
	exact, interp := newKernel(44100, testRate, 0), newKernel(44100, testRate, exactBytes)
	if !exact.exact || interp.exact || len(interp.table) != (interpRows+1)*interp.taps() {
		t.Fatalf("tables: exact %v (%d floats), past the budget %v (%d floats)", exact.exact, len(exact.table), interp.exact, len(interp.table))
	}
	src := tone(44100, 5000, 0.5, 0.05)
	a, b := make([]float32, 2*2000), make([]float32, 2*2000)
	exact.mix(a, src, 0, true, 1, 1)
	interp.mix(b, src, 0, true, 1, 1)
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > 2e-5 {
			t.Fatalf("sample %d: %v from the exact table, %v interpolated", i, a[i], b[i])
		}
	}
	m := NewMixer(testRate, []*Sound{{Name: "same", Rate: testRate, Frames: 4, pcm: []float32{1, 2, 3, 4, 5, 6, 7, 8}}})
	if m.sounds[0].k != nil || m.sounds[0].length != 4 {
		t.Errorf("a sound at the device's rate: filter %v, length %d; want none and 4", m.sounds[0].k, m.sounds[0].length)
	}
}

// BenchmarkResample: the cost of resampling one second of stereo audio to
// 48 kHz, as a voice plays it (480-frame buffers) and as a stream does
// (4096-frame blocks). ns/op is the cost per second of audio.
func BenchmarkResample(b *testing.B) {
	for _, from := range []int{22050, 44100, 96000, 192000} {
		src := tone(from, 440, 0.5, 1)
		b.Run(fmt.Sprintf("voice/%d", from), func(b *testing.B) {
			k := kernelFor(from, testRate)
			buf := make([]float32, 2*480)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				for p := int64(0); p < testRate; p += 480 {
					k.mix(buf, src, p, true, 1, 1)
				}
			}
		})
		b.Run(fmt.Sprintf("stream/%d", from), func(b *testing.B) {
			r := newResampler(from, testRate)
			out := make([]float32, 0, 2*(4096*testRate/from+16))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				for i := 0; i < len(src); i += 2 * 4096 {
					out = r.run(src[i:min(i+2*4096, len(src))], out[:0])
				}
			}
		})
	}
}

// BenchmarkMixerVoices: a mixer buffer of 480 frames (10 ms at 48 kHz)
// with 32 voices looping a decoded sound, at the device's rate (a copy, what
// every sound cost before, resampled once at Setup) and at 44.1 and
// 22.05 kHz (each voice resampling as it plays). ns/op is the audio
// thread's cost per buffer; 100 buffers make a second.
func BenchmarkMixerVoices(b *testing.B) {
	for _, rate := range []int{testRate, 44100, 22050} {
		b.Run(fmt.Sprint(rate), func(b *testing.B) {
			m := NewMixer(testRate, []*Sound{{Name: "tone", Rate: rate, Frames: int64(rate), pcm: tone(rate, 440, 0.5, 1)}})
			for i := range m.voices {
				m.voices[i] = voice{on: true, loop: true, end: math.MaxInt64, gl: 0.03, gr: 0.03, at: int64(i * 37)}
			}
			p := make([]byte, 8*480)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				m.Read(p)
			}
		})
	}
}

// TestResampleAllocs: 32 voices resampling as they play, looped, allocate
// nothing over 200 buffers (the process's mallocs counted).
func TestResampleAllocs(t *testing.T) {
	m := NewMixer(testRate, []*Sound{{Name: "tone", Rate: 44100, Frames: 4410, pcm: tone(44100, 440, 0.5, 0.1)}})
	for i := range m.voices {
		m.voices[i] = voice{on: true, loop: true, end: math.MaxInt64, gl: 0.03, gr: 0.03, at: int64(i * 37)}
	}
	p := make([]byte, 8*480)
	m.Read(p)
	if n := mallocs.Fewest(3, func() {
		for range 200 {
			m.Read(p)
		}
	}); n != 0 {
		t.Errorf("%d allocations over 200 buffers; want 0", n)
	}
	if !m.voices[0].on {
		t.Errorf("the looped voice stopped")
	}
}

// TestStreamResampledLength: a stream at another rate than the device's
// plays every output frame a voice would play of it, its filter's last
// half window too, and only then says it has ended.
func TestStreamResampledLength(t *testing.T) {
	const rate = 44100
	frames := rate*StreamAbove + 1234
	pcm := tone(rate, 1000, 0.5, float64(frames)/rate)
	var data bytes.Buffer
	data.WriteString("RIFF")
	binary.Write(&data, binary.LittleEndian, uint32(36+4*frames))
	data.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(3), uint16(2), uint32(rate), uint32(8 * rate), uint16(8), uint16(32)} {
		binary.Write(&data, binary.LittleEndian, v)
	}
	data.WriteString("data")
	binary.Write(&data, binary.LittleEndian, uint32(8*frames))
	binary.Write(&data, binary.LittleEndian, pcm)
	s, err := Decode("long.wav", data.Bytes())
	if err != nil || !s.Streamed() {
		t.Fatalf("%v, streamed %v", err, s != nil && s.Streamed())
	}
	st := newStream(s, testRate)
	defer st.close()
	st.req.Store(1) // a play, as requestRestarts asks for it
	deadline := time.Now().Add(10 * time.Second)
	for st.ack.Load() != 1 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	got := append([]float32(nil), st.head...)
	mask := uint64(len(st.ring) - 1)
	for time.Now().Before(deadline) {
		r, w := st.r.Load(), st.w.Load()
		ended := st.ended.Load()
		for ; r < w; r++ {
			got = append(got, st.ring[r&mask])
		}
		st.r.Store(r)
		if ended && r == st.w.Load() {
			break
		}
		time.Sleep(time.Millisecond)
	}
	want := voiceOut(pcm, rate, testRate)
	if len(got) != len(want) {
		t.Fatalf("the stream gave %d frames; want %d, as a voice plays it", len(got)/2, len(want)/2)
	}
	for i := range got {
		if math.Abs(float64(got[i]-want[i])) > 1e-6 {
			t.Fatalf("frame %d: the stream gives %v, a voice %v", i/2, got[i], want[i])
		}
	}
}
