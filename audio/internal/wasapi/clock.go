// Package wasapi plays a source on Windows' shared-mode audio engine
// through WASAPI, event-driven, and reads the stream's clock: the device
// position as the speakers play it, paired with the performance counter.
// The COM bindings are a copy of github.com/ebitengine/oto/v3 v3.5.0's
// (README.md says what changed). The clock's arithmetic here is plain Go,
// tested on every platform; the stream is Windows only.
//
// Threads: a Stream's source is called on its render thread only; its
// other methods from any one goroutine.
package wasapi

// Reading is one of IAudioClock::GetPosition's pairs: the stream's
// position, Pos units of Freq a second since its first frame, as the
// speakers played it when the performance counter read QPC (in 100 ns
// units, as GetPosition converts it).
type Reading struct {
	Pos, Freq uint64
	QPC       uint64 // 100 ns
}

// Heard0 returns when the stream's first frame was heard, ns on a clock
// that reads offset at the performance counter's 0 (Offset): the reading's
// instant less the position's duration. Freq must not be 0.
func (r Reading) Heard0(offset int64) int64 {
	return int64(r.QPC)*100 + offset - durationNs(r.Pos, r.Freq)
}

// durationNs returns n units of freq a second in ns, exact for any n a
// stream reaches (n*1e9 overflows after 5 hours at a byte rate of 1 MB/s).
func durationNs(n, freq uint64) int64 {
	return int64(n/freq*1e9 + n%freq*1e9/freq)
}

// Offset returns what a clock read before (t0) and after (t1) the
// performance counter read qpc (100 ns units) reads at the counter's 0, in
// ns: the difference of the two clocks, to within (t1 - t0)/2 and the
// counter's 100 ns.
func Offset(t0 int64, qpc uint64, t1 int64) int64 {
	return t0 + (t1-t0)/2 - int64(qpc)*100
}
