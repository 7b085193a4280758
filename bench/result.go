package bench

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tandem-engine/tandem/simthread"
)

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
	// OtherPct is the share of the machine's CPU time, in percent, that
	// other processes took while the run ran, as the sweep that ran it
	// measured it; nil when not measured (off Linux, or a run read back
	// from its files, which do not hold it).
	OtherPct *float64
	// Summary is the run's JSON summary line, decoded into its sections
	// (the game's own counters, which the reports do not read, left out).
	Summary Summary
	// Frames and Ticks are the run's records in its measured window, for
	// the charts; nil when not kept.
	Frames []FrameRecord
	Ticks  []simthread.TickRecord
	// FramesFile is the run's frames.csv, read as a chart needs it when
	// Frames is nil (tandem report: a matrix's records are not held).
	FramesFile string
}

// CellName returns the name of a matrix cell in Go benchmark form, keys in
// a fixed order: loop, simcost, sprites ("own" for 0: the game's own
// count, no -sprites given), then rendercost and load only when the cell
// has them: "loop=threaded/simcost=0s/sprites=own/rendercost=8ms".
func CellName(loop, simcost string, sprites int, rendercost, load string) string {
	s := fmt.Sprintf("loop=%s/simcost=%s/sprites=%s", loop, simcost, spritesText(sprites))
	if rendercost != "" {
		s += "/rendercost=" + rendercost
	}
	if load != "" {
		s += "/load=" + load
	}
	return s
}

// cellDir matches a matrix cell's directory, as tandem bench -matrix
// names it: [CellName] with '-' for '/', then "-rep" and its rep.
var cellDir = regexp.MustCompile(`^loop=(.+?)-simcost=(.+?)-sprites=(\d+|own)(?:-rendercost=(.+?))?(?:-load=(.+?))?-rep(\d+)$`)

// CellDir returns the directory name of a matrix cell's rep.
func CellDir(name string, rep int) string {
	return fmt.Sprintf("%s-rep%d", strings.ReplaceAll(name, "/", "-"), rep)
}

// ParseCellDir reads a matrix cell's place from the name of its
// directory ([CellDir]); ok is false for a name that is not one.
func ParseCellDir(dir string) (r Result, ok bool) {
	m := cellDir.FindStringSubmatch(dir)
	if m == nil {
		return r, false
	}
	if m[3] != "own" {
		n, err := strconv.Atoi(m[3])
		if err != nil || n <= 0 {
			return r, false
		}
		r.Sprites = n
	}
	rep, err := strconv.Atoi(m[6])
	if err != nil {
		return r, false
	}
	r.Loop, r.SimCost, r.RenderCost, r.Knobs, r.Rep = m[1], m[2], m[4], m[5], rep
	r.Name = CellName(r.Loop, r.SimCost, r.Sprites, r.RenderCost, r.Knobs)
	return r, true
}
