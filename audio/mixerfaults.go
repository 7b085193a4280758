package audio

// The mixer's side of the faults (fault.go watches the device): the
// streams that failed, the events a device that went never took, and a
// device that comes back.

// gapRebase is how long the device may go without a pull before the
// mixer takes it for gone and back (it pulls every 20 to 50 ms).
const gapRebase = int64(500_000_000)

// unplayed returns how many events wait in the queue and the pending
// list: at the end, those the device never took. The audio thread's, or
// once it has stopped.
func (m *Mixer) unplayed() int64 {
	return int64(m.q.tail.Load()-m.q.head.Load()) + int64(m.npend)
}

// StreamErrors returns the errors of the streamed files that failed so
// far, each naming its file, in the order of the mixer's sounds. Any
// goroutine.
func (m *Mixer) StreamErrors(dst []error) []error {
	for _, st := range m.streams {
		if st.failed.Load() {
			if err, ok := st.err.Load().(error); ok {
				dst = append(dst, err)
			}
		}
	}
	return dst
}
