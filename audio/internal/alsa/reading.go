// Package alsa plays a stream on an ALSA PCM of tandem's own (Linux, with
// cgo), libasound loaded at run time, and reads the PCM's delay, the
// device's timing: tandem's mixer plays on it where no PulseAudio server
// answers (audio/alsa_linux.go). Reading's arithmetic is plain Go, tested
// on every platform.
package alsa

// Reading is one reading of the PCM's delay: Delay frames written and
// not yet heard, read between T0 and T1 on CLOCK_MONOTONIC (ns).
type Reading struct {
	Delay  int
	T0, T1 int64
	Rate   int
}

// Heard0 returns when the stream's frame 0 is heard, ns on a clock whose
// reading is CLOCK_MONOTONIC's plus offset, given the frames written to
// the PCM so far: frame written−Delay is heard at the reading's instant.
func (r Reading) Heard0(written int64, offset int64) int64 {
	at := r.T0 + (r.T1-r.T0)/2 + offset
	return at - framesNs(written-int64(r.Delay), int64(r.Rate))
}

// framesNs returns the duration of f frames at rate Hz, ns.
func framesNs(f, rate int64) int64 {
	if f < 0 {
		return -framesNs(-f, rate)
	}
	return f/rate*1e9 + f%rate*1e9/rate
}

// Offset returns what is added to a CLOCK_MONOTONIC reading, mono, to put
// it on another clock read just before (t0) and after (t1) it.
func Offset(t0, mono, t1 int64) int64 { return t0 + (t1-t0)/2 - mono }
