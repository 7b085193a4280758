package bench

import "github.com/tandem-engine/tandem/simthread"

// FrameRecord is what the render thread records of one frame, on the
// [snapshot.Now] time base.
type FrameRecord struct {
	// Start is when the frame began; Present is when SwapBuffers returned,
	// the nearest thing to a present time a program can see (under Xvfb,
	// which has no scanout, it is when the frame was copied).
	Start, Present int64
	// SimShown is the sim time the frame shows, ns.
	SimShown int64
	// ProbeX is the probe's displayed x in pixels, unwrapped.
	ProbeX float64
	// Tick is the tick count of the newest snapshot drawn (the state after
	// Tick ticks, produced by tick Tick-1).
	Tick uint64
	// Age is how old that snapshot was when this frame first drew it
	// (now - Published), or -1 when an earlier frame drew it already.
	Age int64
	// Overdue reports whether the snapshot's successor was due and had not
	// arrived.
	Overdue bool
	// Delay is the interpolation delay the frame used, ns.
	Delay int64
	// Alpha is the blend factor drawn: above 1 when the frame
	// extrapolated past the newest snapshot.
	Alpha float32
	// Decide is when the frame chose the moment it shows (after its
	// input and the snapshot hand-off, before it drew). Under an -fps-cap
	// that paces presents it is the frame's place on the cap's grid (its
	// deadline less the hold's lead), which a frame that woke late is
	// after.
	Decide int64
	// Hold is the present hold's lead, ns: how long after Decide the
	// frame was to swap (it swapped then, or when its work was done if
	// that was later); 0 when no hold applied.
	Hold int64
}

// Frames is a preallocated ring of frame records: the newest len(buf) are
// kept, for the CSVs and the charts; a [Stream] reads every frame before
// it is overwritten, for the figures. Add never allocates. One goroutine
// (the render thread) writes and reads it.
type Frames struct {
	buf []FrameRecord
	n   uint64
}

// NewFrames returns a ring that keeps the newest n frames.
func NewFrames(n int) *Frames { return &Frames{buf: make([]FrameRecord, max(n, 1))} }

// Add records a frame.
func (f *Frames) Add(r FrameRecord) {
	f.buf[f.n%uint64(len(f.buf))] = r
	f.n++
}

// Cap returns how many frames the ring keeps.
func (f *Frames) Cap() int { return len(f.buf) }

// Written returns how many frames have been added.
func (f *Frames) Written() uint64 { return f.n }

// Read copies frames, oldest first, from the one with index from (the
// from-th added, counting from 0) into dst, as many as were added and
// fit. Frames from on that were overwritten are skipped and counted in
// lost: dst[:n] holds the frames with indices from+lost to
// from+lost+n-1. It never allocates; like Add, it is for the goroutine
// that writes the ring.
func (f *Frames) Read(dst []FrameRecord, from uint64) (n int, lost uint64) {
	c := uint64(len(f.buf))
	if f.n > c && from < f.n-c {
		lost, from = f.n-c-from, f.n-c
	}
	for i := from; i < f.n && n < len(dst); i++ {
		dst[n] = f.buf[i%c]
		n++
	}
	return n, lost
}

// Records returns the kept records, oldest first, and how many older ones
// were overwritten. It allocates the result.
func (f *Frames) Records() (recs []FrameRecord, lost uint64) {
	c := uint64(len(f.buf))
	if f.n <= c {
		return append([]FrameRecord(nil), f.buf[:f.n]...), 0
	}
	i := f.n % c
	return append(append(make([]FrameRecord, 0, c), f.buf[i:]...), f.buf[:i]...), f.n - c
}

// Records is everything one run recorded: the input of [Compute].
type Records struct {
	// Hz is the tick rate: tick k starts at sim time k*1e9/Hz.
	Hz int
	// From and To bound the measured window (after the warm-up), on the
	// same time base as the records: a frame counts if it started in
	// [From, To), a tick if it started in it.
	From, To int64
	Frames   []FrameRecord
	Ticks    []simthread.TickRecord
	Inputs   []simthread.InputRecord
}

// SimTime returns the sim time at which tick k starts: k*1e9/Hz exactly,
// rounded down, as [simthread.Schedule.SimTime] computes it.
func (r *Records) SimTime(k uint64) int64 {
	hz := uint64(r.Hz)
	return int64(k/hz*1e9 + k%hz*1e9/hz)
}
