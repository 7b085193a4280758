package bench

import (
	"math"
	"sort"
)

// Press is a real key press or release, made outside the engine (through
// the X server), and when: on the [snapshot.Now] time base.
type Press struct {
	At   int64
	Down bool
}

// PressFigures are what real presses measure, each in ms, one value per
// press the engine applied inside the window and a frame showed.
type PressFigures struct {
	// Latency is the present of the first frame whose picture shows the
	// press's effect minus the press: what a camera would see.
	Latency []float64
	// The parts of Latency, in order: the press to the engine's stamp
	// (how late the engine learned of it), the stamp to the start of the
	// tick that applied it, that start to the decision of the first frame
	// that shows it, and that decision to its present.
	Stamp, Tick, Shown, Frame []float64
	// Unpaired counts the presses no button event of the engine's matched
	// (a press the window did not get, or one outside the records).
	Unpaired int
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
		x := fr[i]
		f.Latency = append(f.Latency, ms(x.Present-p.At))
		f.Stamp = append(f.Stamp, ms(in.Stamp-p.At))
		f.Tick = append(f.Tick, ms(t.Start-in.Stamp))
		f.Shown = append(f.Shown, ms(x.Decide-t.Start))
		f.Frame = append(f.Frame, ms(x.Present-x.Decide))
	}
	return f
}
