package bench

import (
	"math"
	"sort"
)

// Press is a real key press or release, made outside the engine (through
// the X server), and when: on the [snapshot.Now] time base.
type Press struct {
	// At is when it was sent to the server.
	At int64
	// Acked is when the server answered a round trip sent right after it
	// (0: not known): by then the server had handed the key to the
	// window's client. Acked-At bounds the server's own part of a stamp's
	// lateness.
	Acked int64
	Down  bool
}

// PressRow is one press the engine applied inside the window and a frame
// showed, with its moments on the press's time base.
type PressRow struct {
	Press
	Stamp     int64  // the engine's stamp of its button event
	Tick      uint64 // the tick that applied it
	TickStart int64  // that tick's start
	Decide    int64  // the decision of the first frame that shows it
	Present   int64  // that frame's present
}

// The parts of a row's latency, in ms. Latency is the present of the
// first frame whose picture shows the press's effect minus the press:
// what a camera would see. Its parts, in order: the press to the engine's
// stamp (how late the engine learned of it), the stamp to the start of
// the tick that applied it, that start to the decision of the first frame
// that shows it, and that decision to its present. Server is the X
// server's part of StampErr at most (-1: not known).
func (p PressRow) Latency() float64  { return ms(p.Present - p.At) }
func (p PressRow) StampErr() float64 { return ms(p.Stamp - p.At) }
func (p PressRow) WaitTick() float64 { return ms(p.TickStart - p.Stamp) }
func (p PressRow) Shown() float64    { return ms(p.Decide - p.TickStart) }
func (p PressRow) Frame() float64    { return ms(p.Present - p.Decide) }
func (p PressRow) Server() float64 {
	if p.Acked == 0 {
		return -1
	}
	return ms(p.Acked - p.At)
}

// PressFigures are what real presses measure.
type PressFigures struct {
	// Rows holds one row per press the engine applied inside the window
	// and a frame showed, in press order.
	Rows []PressRow
	// Unpaired counts the presses no button event of the engine's matched
	// (a press the window did not get, or one outside the records).
	Unpaired int
}

// Column returns part (a PressRow method value such as PressRow.Latency)
// of every row, for percentiles.
func (f PressFigures) Column(part func(PressRow) float64) []float64 {
	out := make([]float64, len(f.Rows))
	for i, r := range f.Rows {
		out[i] = part(r)
	}
	return out
}

// Presses pairs each press with the engine's button event for it: the
// first stamped at or after the press and before the next press was made
// (an event is stamped after its press, and a press the window never got
// leaves the next one its own), and measures each pair against the
// frames fr (the window's).
func (r *Records) Presses(fr []FrameRecord, presses []Press) PressFigures {
	var f PressFigures
	var ins []int // the window's button events, in stamp order
	for i, in := range r.Inputs {
		if r.measured(in) {
			ins = append(ins, i)
		}
	}
	sort.SliceStable(ins, func(a, b int) bool { return r.Inputs[ins[a]].Stamp < r.Inputs[ins[b]].Stamp })
	next := 0
	for k, p := range presses {
		for next < len(ins) && r.Inputs[ins[next]].Stamp < p.At {
			next++
		}
		until := int64(math.MaxInt64)
		if k+1 < len(presses) {
			until = presses[k+1].At
		}
		if next == len(ins) || r.Inputs[ins[next]].Stamp >= until {
			if r.inWindow(p.At) {
				f.Unpaired++
			}
			continue
		}
		in := r.Inputs[ins[next]]
		next++
		t, ok := r.tick(in.Tick)
		i := sort.Search(len(fr), func(i int) bool { return r.shows(fr[i], in) })
		if !ok || i == len(fr) {
			continue
		}
		f.Rows = append(f.Rows, PressRow{Press: p, Stamp: in.Stamp, Tick: in.Tick, TickStart: t.Start,
			Decide: fr[i].Decide, Present: fr[i].Present})
	}
	return f
}
