package replay_test

import (
	"github.com/tandem-engine/tandem/replay"
	"github.com/tandem-engine/tandem/simthread"
)

// refHeader is the header of the made-up runs below.
var refHeader = replay.Header{Scene: "ref", Level: "none", LevelHash: 1, Seed: 2, Hz: 100, Sprites: 1,
	CheckpointEvery: 10, Build: "ref"}

// sink is what a made-up run is told: a Writer's calls, or a
// [collector] of what a reader should find.
type sink interface {
	Applied(tick uint64, e simthread.Event)
	Checkpoint(tick, hash uint64)
	Ticked(ticks uint64)
	Flush() error
}

// refRun makes up a run of ticks ticks the way the loop reports one: a
// button event every other tick, a pointer event every fifth, a
// checkpoint every 10 ticks (refHeader's), Ticked after every tick and a
// flush every 25 ticks (250 ms at 100 Hz). It returns the final state:
// the tick count and hash a Writer's Close takes.
func refRun(s sink, ticks uint64) replay.Checkpoint {
	hash := uint64(0x9e3779b97f4a7c15)
	for k := uint64(0); k < ticks; k++ {
		if k%2 == 0 {
			s.Applied(k, simthread.Event{Time: int64(k) * 10_000_000, Kind: simthread.EventButton,
				Buttons: simthread.Buttons(1 << (k % 3)), Down: k%4 == 0})
		}
		if k%5 == 1 {
			s.Applied(k, simthread.Event{Time: int64(k)*10_000_000 + 1, Kind: simthread.EventPointer,
				X: float32(k), Y: float32(k) / 2})
		}
		hash = (hash ^ k) * 0xbf58476d1ce4e5b9
		if (k+1)%uint64(refHeader.CheckpointEvery) == 0 {
			s.Checkpoint(k+1, hash)
		}
		s.Ticked(k + 1)
		if (k+1)%25 == 0 {
			s.Flush()
		}
	}
	return replay.Checkpoint{Tick: ticks, Hash: hash}
}

// collector gathers a made-up run's records the way a reader returns
// them.
type collector struct{ rec replay.Recording }

func (c *collector) Applied(tick uint64, e simthread.Event) {
	c.rec.Events = append(c.rec.Events, replay.Event{Tick: tick, Event: e})
}
func (c *collector) Checkpoint(tick, hash uint64) {
	c.rec.Checkpoints = append(c.rec.Checkpoints, replay.Checkpoint{Tick: tick, Hash: hash})
}
func (c *collector) Ticked(uint64) {}
func (c *collector) Flush() error  { return nil }

// refRecording returns what reading a whole recording of refRun(ticks)
// must give back.
func refRecording(ticks uint64) *replay.Recording {
	var c collector
	c.rec.Header = refHeader
	c.rec.Final = refRun(&c, ticks)
	c.rec.StoppedBy, c.rec.Complete, c.rec.Marked = "seconds", true, ticks
	return &c.rec
}
