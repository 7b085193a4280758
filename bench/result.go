package bench

import "github.com/tandem-engine/tandem/simthread"

// Result is one finished run as the reports need it.
type Result struct {
	// Name identifies the run's cell in Go benchmark form, keys in a fixed
	// order: "loop=decoupled/simcost=14ms/sprites=2000".
	Name string
	// Loop, SimCost (as the flag was given, e.g. "14ms") and Sprites are
	// the cell's coordinates; Rep counts from 0.
	Loop    string
	SimCost string
	Sprites int // 0: the game's own count (no -sprites)
	// RenderCost is the cell's -rendercost ("" for none) and Knobs the
	// game's own load knobs it set ("" for none), both part of its place.
	RenderCost string
	Knobs      string
	Rep        int
	// Summary is the run's JSON summary line, decoded: the contract names
	// (fps_mean, frame_ms_p99, judder, ...) with their values.
	Summary map[string]any
	// Frames and Ticks are the run's records in its measured window, for
	// the charts; nil when not kept.
	Frames []FrameRecord
	Ticks  []simthread.TickRecord
}
