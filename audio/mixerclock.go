package audio

import "sync/atomic"

// The mixer's side of the device's measured timing (latency.go): the
// clock's anchor published, a measured latency taken at a pull.

// deviceSync is what the mixer and the device's timing (Output.anchor,
// measure and the server's timing's watch) hand each other: the audio
// thread publishes whether the clock has anchored and its origin; the
// device's measured latency comes back through latencyNext (0: none) and
// is taken at the next pull.
type deviceSync struct {
	anchored    atomic.Bool
	clockOrigin atomic.Int64
	latencyNext atomic.Int64
	// A reading of the server's timing: when device frame 0 is heard (0:
	// none), read while the underruns counted were heardTag.
	heard    atomic.Int64
	heardTag atomic.Int64
	retime   chan struct{} // asks for a reading of the server's timing; never blocks the audio thread
}

// syncClock publishes the clock's anchor and takes a measured latency;
// audio thread only.
func (m *Mixer) syncClock() {
	if l := m.latencyNext.Swap(0); l != 0 {
		m.clock.latency = l
		if m.buffered == nil { // read at the device's requests: see clock.lateAfter
			m.clock.lateAfter = max(l/2, clockStep)
		}
	}
	if h := m.heard.Swap(0); h != 0 && m.heardTag.Load() == m.st.underruns.Load() && m.clock.valid {
		// The server's timing, read again: a move of more than the
		// reading's noise is taken, and one later by more than a step is
		// silence the server played on its own side (fed late): an
		// underrun the player's level could not show.
		switch d := h - (m.clock.origin + m.clock.latency); {
		case d > clockStep:
			m.st.underruns.Add(1)
			fallthrough
		case d > heardDeadband || d < -heardDeadband:
			m.clock.latency = h - m.clock.origin
			m.st.retimed.Add(1)
		}
	}
	if m.clock.valid {
		m.clockOrigin.Store(m.clock.origin)
		if m.clock.reads > clockWarm {
			m.anchored.Store(true)
		}
	}
}

// setLatency sets the device's latency, ns from a frame's take to its
// being heard; it takes effect at the next pull. Any goroutine.
func (m *Mixer) setLatency(ns int64) { m.latencyNext.Store(max(ns, 1)) }

// heardDeadband is how far a reading of the server's timing may be from
// the clock without moving it: the readings' own noise (a take's worth of
// the server's count, which moved the clock by 1.1 ms in runs with no
// underrun and heard gaps off by as much), so that the gaps between
// sounds stay exact. A move past it is silence the server played or a
// new latency, and within it the offset is off by at most that much.
const heardDeadband = 2_000_000 // ns

// heardNext hands the mixer a reading of the server's timing: device
// frame 0 heard at h, read while the underruns counted were tag. Any
// goroutine.
func (m *Mixer) heardNext(h, tag int64) {
	m.heardTag.Store(tag)
	m.heard.Store(h)
}

// askRetime asks for a reading of the server's timing, without waiting.
func (m *Mixer) askRetime() {
	select {
	case m.retime <- struct{}{}:
	default:
	}
}

// level returns the frames given to the device and not yet taken: what
// oto's player holds, 0 for a device that reads the mixer at its
// requests (no player).
func (m *Mixer) level() int {
	if m.buffered == nil {
		return 0
	}
	return m.buffered()
}
