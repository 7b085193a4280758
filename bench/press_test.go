package bench

import (
	"testing"

	"github.com/tandem-engine/tandem/simthread"
)

func TestPresses(t *testing.T) {
	// Ticks every 10 ms (100 Hz), a frame every 10 ms deciding 2 ms after
	// its start and presenting 8 ms after. Three presses: the engine got
	// the first 3 ms after it, never got the second, and the third 1 ms
	// after. The second is unpaired and the third keeps its own event.
	const ms1 = int64(1e6)
	r := &Records{Hz: 100, From: 0, To: 1000 * ms1}
	for k := range uint64(100) {
		due := int64(k) * 10 * ms1
		r.Ticks = append(r.Ticks, simthread.TickRecord{Tick: k, Due: due, Start: due, End: due + ms1})
	}
	var fr []FrameRecord
	for i := range int64(100) {
		s := i*10*ms1 + 5*ms1
		fr = append(fr, FrameRecord{Start: s, Decide: s + 2*ms1, Present: s + 8*ms1, SimShown: s})
	}
	presses := []Press{{At: 100 * ms1, Down: true}, {At: 300 * ms1}, {At: 500 * ms1, Down: true}}
	r.Inputs = []simthread.InputRecord{
		{Stamp: 103 * ms1, Tick: 11, Kind: simthread.EventButton},
		{Stamp: 501 * ms1, Tick: 51, Kind: simthread.EventButton},
	}
	f := r.Presses(fr, presses)
	if f.Unpaired != 1 || len(f.Rows) != 2 {
		t.Fatalf("%d paired, %d unpaired; want 2 and 1", len(f.Rows), f.Unpaired)
	}
	first, third := f.Rows[0], f.Rows[1]
	// Tick 11 starts at 110 ms; the first frame showing it shows past
	// 110 ms: the one starting at 115, deciding at 117, presenting at 123.
	want := []float64{23, 3, 7, 7, 6}
	got := []float64{first.Latency(), first.StampErr(), first.WaitTick(), first.Shown(), first.Frame()}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("first press: latency, stamp, tick, shown, frame = %v; want %v", got, want)
		}
	}
	if third.StampErr() != 1 || third.Latency() != 523-500 || third.Tick != 51 {
		t.Fatalf("third press: stamp %v ms, latency %v ms, tick %d", third.StampErr(), third.Latency(), third.Tick)
	}
	if lat := f.Column(PressRow.Latency); len(lat) != 2 || lat[0] != 23 || lat[1] != 23 {
		t.Fatalf("latency column %v, want [23 23]", lat)
	}
	if first.Server() != -1 {
		t.Fatalf("Server() = %v with no Acked, want -1 (not known)", first.Server())
	}
}
