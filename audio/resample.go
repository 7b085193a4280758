package audio

import (
	"math"
	"sync"
)

// The resampler is a band-limited interpolator, as sox's and Ebitengine's
// are: each output frame is the source convolved with a Kaiser-windowed
// sinc low-pass centred on the output's instant. The filter is cut at the
// lower rate's Nyquist frequency, with a transition band that is
// symmetric about it, so that a tone in the passband neither images (on
// the way up) nor aliases (on the way down) into the passband above the
// stopband's attenuation, and a tone in the stopband comes out below it:
//
//	passband   to max(20 kHz, 0.91 × the lower rate's Nyquist), or to 0.91 × that
//	           Nyquist when it is below 22 kHz (within ±0.01 dB in design)
//	stopband   from the Nyquist mirrored from the passband's edge, at -70 dB in design
//
// The filter is tabulated once per pair of rates, one row of taps per
// phase (the output's offset between two source frames); a ratio with
// more than maxPhases phases, or one past the exact tables' budget
// (exactBytes in all: files of many odd rates are not to cost more than
// their samples), interpolates between 256 rows, which measures the same
// and costs the audio thread about half as much again. The
// output's place is an exact fraction of source frames, so it never
// drifts, and a loop's seam is a source frame like any other.

const (
	stopbandDB = 70      // the design attenuation (Kaiser's formula)
	maxPhases  = 1024    // a ratio with more phases interpolates
	interpRows = 256     // the rows of an interpolated table
	exactBytes = 8 << 20 // what the exact tables may take in all
	maxTaps    = 2048    // a steeper filter (only for ratios past 40 to 1) is cut to this length
)

// kernel is the filter for one pair of rates.
type kernel struct {
	num, den int64 // source frames per output frame, num/den in lowest terms
	half     int   // taps each side of the output's instant
	phases   int   // rows in table (one per phase, plus the next row's first when interpolated)
	exact    bool  // one row per phase: den == phases
	table    []float32
}

func (k *kernel) taps() int { return 2 * k.half }

var kernels struct {
	sync.Mutex
	m     map[[2]int]*kernel
	exact int // bytes of the exact tables made
}

// kernelFor returns the filter from rate from to rate to (shared: built
// once per pair and never changed).
func kernelFor(from, to int) *kernel {
	kernels.Lock()
	defer kernels.Unlock()
	if k := kernels.m[[2]int{from, to}]; k != nil {
		return k
	}
	if kernels.m == nil {
		kernels.m = map[[2]int]*kernel{}
	}
	k := newKernel(from, to, kernels.exact)
	kernels.m[[2]int{from, to}] = k
	if k.exact {
		kernels.exact += 4 * len(k.table)
	}
	return k
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// passband returns the passband's edge and the filter's cutoff (the lower
// rate's Nyquist frequency), Hz.
func passband(from, to int) (edge, cutoff float64) {
	cutoff = float64(min(from, to)) / 2
	width := max(0.09*cutoff, cutoff-20000) // half the transition band
	return cutoff - width, cutoff
}

// newKernel makes the filter; exactSoFar is what the exact tables made
// already take.
func newKernel(from, to, exactSoFar int) *kernel {
	g := gcd(int64(from), int64(to))
	k := &kernel{num: int64(from) / g, den: int64(to) / g}
	edge, cutoff := passband(from, to)
	// Kaiser's estimate of the length for the attenuation and transition
	// width, in source frames.
	dw := 2 * math.Pi * 2 * (cutoff - edge) / float64(from)
	n := (stopbandDB - 7.95) / (2.285 * dw)
	k.half = min(int(math.Ceil(n/2))+1, maxTaps/2)
	beta := 0.1102 * (stopbandDB - 8.7)
	fc := cutoff / float64(from) // cycles per source frame
	rows := int(k.den)
	k.exact = rows <= maxPhases && exactSoFar+4*rows*k.taps() <= exactBytes
	if !k.exact {
		rows = interpRows + 1
	}
	k.phases = rows
	taps := k.taps()
	k.table = make([]float32, rows*taps)
	for ph := range rows {
		frac := float64(ph) / float64(k.den)
		if !k.exact {
			frac = float64(ph) / interpRows
		}
		row := k.table[ph*taps : (ph+1)*taps]
		sum := 0.0
		vals := make([]float64, taps)
		for t := range taps {
			// Tap t weighs source frame i-half+1+t for an output at i+frac.
			x := frac + float64(k.half-1-t)
			v := 2 * fc * sinc(2*fc*x) * kaiser(x/float64(k.half), beta)
			vals[t] = v
			sum += v
		}
		for t := range taps {
			row[t] = float32(vals[t] / sum) // each phase passes DC at exactly 1
		}
	}
	return k
}

func sinc(x float64) float64 {
	if x == 0 {
		return 1
	}
	return math.Sin(math.Pi*x) / (math.Pi * x)
}

// kaiser is the Kaiser window at x in [-1, 1].
func kaiser(x, beta float64) float64 {
	if x <= -1 || x >= 1 {
		return 0
	}
	return bessel0(beta*math.Sqrt(1-x*x)) / bessel0(beta)
}

// bessel0 is the modified Bessel function of the first kind, order 0.
func bessel0(x float64) float64 {
	sum, term := 1.0, 1.0
	for k := 1; k < 64; k++ {
		term *= (x / 2) / float64(k)
		sum += term * term
		if term*term < sum*1e-17 {
			break
		}
	}
	return sum
}

// coefs returns the taps for an output at source frame i + r/den.
// scratch holds the interpolated taps when the table is not exact.
func (k *kernel) coefs(r int64, scratch []float32) []float32 {
	taps := k.taps()
	if k.exact {
		return k.table[int(r)*taps : int(r+1)*taps]
	}
	x := float64(r) * interpRows / float64(k.den)
	ph := int(x)
	f := float32(x - float64(ph))
	a, b := k.table[ph*taps:(ph+1)*taps], k.table[(ph+1)*taps:(ph+2)*taps]
	for t := range scratch[:taps] {
		scratch[t] = a[t] + f*(b[t]-a[t])
	}
	return scratch[:taps]
}

// length returns how many output frames one pass of frames source frames
// makes: the outputs whose instant falls before the source's end.
func (k *kernel) length(frames int64) int64 {
	return (frames*k.den + k.num - 1) / k.num
}

// mix adds output frames p0, p0+1, ... of src (stereo, at the source
// rate), scaled by gl and gr, into dst (stereo, at the output rate) until
// dst is full. A looped sound wraps around its source (its seam is
// band-limited like the rest); an unlooped one is silent outside it.
// It allocates nothing.
func (k *kernel) mix(dst, src []float32, p0 int64, loop bool, gl, gr float32) {
	frames := int64(len(src) / 2)
	taps := int64(k.taps())
	var scratch [maxTaps]float32
	t := p0 * k.num // the instant, in source frames times den
	i, r := t/k.den, t%k.den
	if loop {
		i %= frames
	}
	for o := 0; o+1 < len(dst); o += 2 {
		c := k.coefs(r, scratch[:])
		j0 := i - int64(k.half) + 1
		var l, rr float32
		if j0 >= 0 && j0+taps <= frames {
			l, rr = dot(c, src[2*j0:2*(j0+taps)])
		} else {
			for t, w := range c {
				j := j0 + int64(t)
				if loop {
					j = (j%frames + frames) % frames
				} else if j < 0 || j >= frames {
					continue
				}
				l += w * src[2*j]
				rr += w * src[2*j+1]
			}
		}
		dst[o] += l * gl
		dst[o+1] += rr * gr
		r += k.num
		for r >= k.den {
			r -= k.den
			i++
		}
		if loop && i >= frames {
			i -= frames
		}
	}
}

// dot returns the taps c applied to the stereo frames s (len(c) of them),
// left and right. Four sums a side run side by side: one sum's chain of
// dependent adds would take four times as long.
func dot(c, s []float32) (l, r float32) {
	s = s[:2*len(c)]
	var l0, l1, l2, l3, r0, r1, r2, r3 float32
	t := 0
	for ; t+3 < len(c); t += 4 {
		f := s[2*t : 2*t+8]
		l0 += c[t] * f[0]
		r0 += c[t] * f[1]
		l1 += c[t+1] * f[2]
		r1 += c[t+1] * f[3]
		l2 += c[t+2] * f[4]
		r2 += c[t+2] * f[5]
		l3 += c[t+3] * f[6]
		r3 += c[t+3] * f[7]
	}
	for ; t < len(c); t++ {
		l0 += c[t] * s[2*t]
		r0 += c[t] * s[2*t+1]
	}
	return (l0 + l1) + (l2 + l3), (r0 + r1) + (r2 + r3)
}

// resampler turns a stream of stereo frames at one rate into frames at
// another, block by block, keeping the source frames its filter still
// needs between blocks, so that a stream (or a loop's seam) is filtered
// as one signal. Output frame 0 is the source's frame 0: the source is
// taken as silent before it and, once flushed, after its end.
type resampler struct {
	k       *kernel // nil: the same rate, a copy
	buf     []float32
	n       int   // frames in buf
	base    int64 // the source frame buf starts at
	i, r    int64 // the next output's instant: source frame i + r/den
	fed     int64 // source frames run has taken since reset
	scratch []float32
}

const resampleChunk = 1024 // source frames taken into buf at a time

func newResampler(from, to int) resampler {
	if from == to {
		return resampler{}
	}
	k := kernelFor(from, to)
	rs := resampler{k: k, buf: make([]float32, 2*(k.taps()+resampleChunk)), scratch: make([]float32, k.taps())}
	rs.reset()
	return rs
}

// reset starts the resampler on a new stream (a rewound file), keeping
// its buffers: it allocates nothing.
func (rs *resampler) reset() {
	if rs.k == nil {
		return
	}
	rs.n = rs.k.half - 1 // silence before the source
	clear(rs.buf[:2*rs.n])
	rs.base = -int64(rs.n)
	rs.i, rs.r, rs.fed = 0, 0, 0
}

// flush appends to out the outputs whose instants lie before the source's
// end that run could not make yet (their windows reach past the frames
// it was given), taking the source as silent after its end: a stream's
// last frames. The resampler then needs a reset before it runs again.
func (rs *resampler) flush(out []float32) []float32 {
	if rs.k == nil {
		return out
	}
	k := rs.k
	taps := k.taps()
	clear(rs.buf[2*rs.n : 2*min(rs.n+k.half, len(rs.buf)/2)])
	rs.n = min(rs.n+k.half, len(rs.buf)/2)
	for rs.i < rs.fed && rs.i-int64(k.half)+1+int64(taps) <= rs.base+int64(rs.n) {
		j := rs.i - int64(k.half) + 1 - rs.base
		l, r := dot(k.coefs(rs.r, rs.scratch), rs.buf[2*j:2*(j+int64(taps))])
		out = append(out, l, r)
		rs.r += k.num
		for rs.r >= k.den {
			rs.r -= k.den
			rs.i++
		}
	}
	return out
}

// run reads the source frames in (interleaved stereo) and appends the
// output frames to out; with room for len(in)/2 × to/from + 2 frames in
// out it allocates nothing. It returns out.
func (rs *resampler) run(in, out []float32) []float32 {
	if rs.k == nil {
		return append(out, in...)
	}
	k := rs.k
	taps := k.taps()
	rs.fed += int64(len(in) / 2)
	for len(in) > 0 {
		c := min(len(in)/2, len(rs.buf)/2-rs.n)
		copy(rs.buf[2*rs.n:], in[:2*c])
		rs.n += c
		in = in[2*c:]
		// Every output whose window lies within buf.
		for rs.i-int64(k.half)+1+int64(taps) <= rs.base+int64(rs.n) {
			j := rs.i - int64(k.half) + 1 - rs.base
			l, r := dot(k.coefs(rs.r, rs.scratch), rs.buf[2*j:2*(j+int64(taps))])
			out = append(out, l, r)
			rs.r += k.num
			for rs.r >= k.den {
				rs.r -= k.den
				rs.i++
			}
		}
		// Keep from the next output's first tap on.
		keep := rs.i - int64(k.half) + 1 - rs.base
		if keep > 0 {
			keep = min(keep, int64(rs.n))
			copy(rs.buf, rs.buf[2*keep:2*rs.n])
			rs.n -= int(keep)
			rs.base += keep
		}
	}
	return out
}
