package audio

// followEvents is how many of a device's events (10 ms each, a WASAPI
// shared-mode stream's default period) make a window of its clock's
// readings.
const followEvents = 16

// readWindow keeps the least of a window of a device clock's readings,
// one an event: when frame 0 is heard by the device's clock, and when it
// was taken by the event's takes (the event's instant less the frames
// taken by then). The least, not the median, of each: a position that
// advances a period at a time (Wine's) lags between its steps and says
// frame 0 is heard later than it is, and an event's instant is late by
// its wake-up, never early. Call reset before the first add.
type readWindow struct {
	heard0, taken0 int64
	n              int
}

func (w *readWindow) reset() { w.heard0, w.taken0, w.n = maxInt64, maxInt64, 0 }

// add takes one event's reading, ns. At every followEvents-th it returns
// the window's least heard0 and the device's latency from a take to its
// being heard (least heard0 − least taken0), with full true, and starts
// the next window.
func (w *readWindow) add(heard0, taken0 int64) (least, latency int64, full bool) {
	w.heard0, w.taken0 = min(w.heard0, heard0), min(w.taken0, taken0)
	if w.n++; w.n < followEvents {
		return 0, 0, false
	}
	least, latency = w.heard0, w.heard0-w.taken0
	w.reset()
	return least, latency, true
}
