package audio

// resampler turns stereo frames at one rate into frames at another by
// linear interpolation, block by block, keeping its place between blocks
// so that a stream (or a loop's seam) has no click at a block's edge.
type resampler struct {
	step   float64 // source frames per output frame
	pos    float64 // the next output's place, in frames after prev
	prevL  float32
	prevR  float32
	primed bool
}

func newResampler(from, to int) resampler { return resampler{step: float64(from) / float64(to)} }

// run reads the source frames in (interleaved stereo) and appends the
// output frames to out, which must have room: at most
// len(in)/2/step + 2 frames. It returns out.
func (r *resampler) run(in, out []float32) []float32 {
	n := len(in) / 2
	if n == 0 {
		return out
	}
	if !r.primed {
		r.prevL, r.prevR, r.primed = in[0], in[1], true
		in, n = in[2:], n-1
		r.pos = 0
	}
	// x[-1] is prev, x[0..n-1] is in: an output at pos p in [0, n) lies
	// between x[floor(p)-1] and x[floor(p)].
	for r.pos < float64(n) {
		i := int(r.pos)
		f := float32(r.pos - float64(i))
		var al, ar float32
		if i == 0 {
			al, ar = r.prevL, r.prevR
		} else {
			al, ar = in[2*i-2], in[2*i-1]
		}
		bl, br := in[2*i], in[2*i+1]
		out = append(out, al+(bl-al)*f, ar+(br-ar)*f)
		r.pos += r.step
	}
	r.pos -= float64(n)
	if n > 0 {
		r.prevL, r.prevR = in[2*n-2], in[2*n-1]
	}
	return out
}

// resampleAll returns src (stereo at from Hz) at to Hz.
func resampleAll(src []float32, from, to int) []float32 {
	if from == to {
		return src
	}
	r := newResampler(from, to)
	out := make([]float32, 0, int(float64(len(src))/r.step)+8)
	out = r.run(src, out)
	// the last source frame, once: run interpolates up to it
	return append(out, src[len(src)-2], src[len(src)-1])
}
