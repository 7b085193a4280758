package replay

import (
	"errors"
	"fmt"
	"strings"
)

// Cut is where a recording was cut short and what the file holds: a run
// killed while it recorded leaves one. Read fills it in for every
// recording without its end record.
type Cut struct {
	File    string
	Version int // the file's format version
	// Size is the file's size: it ends at byte Size. From is the offset
	// of the first byte not read: the start of the chunk cut short, or
	// Size when the file ends on a whole chunk.
	Size, From int64
	// Chunk is the index of the chunk cut short, or the number of whole
	// chunks when the file ends on one. ChunkSize is the size the chunk
	// cut short says it has, when Reach is known.
	Chunk     int
	ChunkSize int64
	Hz        int // the recording's tick rate, for seconds of sim time
	// Ticks is the tick count the file holds the run up to
	// ([Recording.End]); Checkpoints, how many checkpoints it holds.
	Ticks       uint64
	Checkpoints int
	// Reach is the tick count the run had reached when the chunk cut
	// short was written, which that chunk's prefix (checked on its own)
	// says: the ticks from Ticks to Reach are lost. ReachKnown is false
	// when the file ends on a whole chunk or within a chunk's prefix, and
	// always for version 1 files.
	Reach      uint64
	ReachKnown bool
}

// LostTicks returns how many ticks of the run are known to be lost:
// Reach - Ticks, and whether Reach is known. The run may have gone on
// past Reach; the file cannot say.
func (c *Cut) LostTicks() (n uint64, known bool) {
	if !c.ReachKnown || c.Reach < c.Ticks {
		return 0, c.ReachKnown
	}
	return c.Reach - c.Ticks, true
}

// String says where the file ends, what it holds and what was lost, in
// bytes, ticks and seconds of sim time.
func (c *Cut) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: cut short at byte %d", c.File, c.Size)
	switch {
	case c.From >= c.Size:
		fmt.Fprintf(&b, ", after %s, with no end record", count(c.Chunk, "whole chunk"))
	case c.ReachKnown:
		fmt.Fprintf(&b, ", %d bytes into the %d-byte chunk %d at byte %d", c.Size-c.From, c.ChunkSize, c.Chunk, c.From)
	case c.Version == 1:
		fmt.Fprintf(&b, ": its last %d bytes, from byte %d, are not a whole chunk", c.Size-c.From, c.From)
	default:
		fmt.Fprintf(&b, ", %d bytes into chunk %d at byte %d, too few to say how long it is", c.Size-c.From, c.Chunk, c.From)
	}
	fmt.Fprintf(&b, ": the file ends at tick %d (%s of sim time at %d Hz) with %s; ",
		c.Ticks, c.seconds(c.Ticks), c.Hz, count(c.Checkpoints, "checkpoint"))
	switch lost, known := c.LostTicks(); {
	case known && lost > 0:
		fmt.Fprintf(&b, "the chunk cut short took the run to tick %d, so ticks %d to %d (%s, %s) are lost, and anything after tick %d too",
			c.Reach, c.Ticks, c.Reach, count(int(lost), "tick"), c.seconds(lost), c.Reach)
	case known:
		fmt.Fprintf(&b, "the chunk cut short added no ticks; anything after tick %d is lost", c.Ticks)
	default:
		fmt.Fprintf(&b, "anything after tick %d is lost, and the file does not say how much that was", c.Ticks)
	}
	if c.Version == 1 {
		b.WriteString(" (a version 1 file: its chunk lengths are not checked, so a corrupt one reads as a cut too)")
	}
	return b.String()
}

// Error returns "replay: " and String: a Cut is the error of a command
// that wants a whole recording.
func (c *Cut) Error() string { return "replay: " + c.String() }

// count returns "1 thing" or "n things".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

func (c *Cut) seconds(ticks uint64) string {
	if c.Hz <= 0 {
		return "? s"
	}
	return fmt.Sprintf("%.3f s", float64(ticks)/float64(c.Hz))
}

// ErrNoCheckpoint is matched (errors.Is) by the error of
// [Recording.CheckComplete] for a recording with neither a checkpoint nor
// its end record: a replay of it can check nothing but its tick count.
var ErrNoCheckpoint = errors.New("replay: no checkpoint and no end record: nothing to check")

// CheckComplete returns nil when r holds its end record, so that a replay
// can check every checkpoint and the final state. Otherwise it returns
// r.Cut (a *Cut, errors.As) saying where the file ends and what was lost;
// when r holds no checkpoint either, the error also matches
// ErrNoCheckpoint. A command that accepts cut files may still refuse
// those.
func (r *Recording) CheckComplete() error {
	if r.Complete {
		return nil
	}
	var err error = r.Cut
	if r.Cut == nil { // a Recording not made by Read
		err = fmt.Errorf("replay: no end record: the recording holds the run up to tick %d with %d checkpoints", r.End(), len(r.Checkpoints))
	}
	if len(r.Checkpoints) == 0 {
		return &uncheckable{err}
	}
	return err
}

// uncheckable is a cut recording without a checkpoint.
type uncheckable struct{ err error }

func (u *uncheckable) Error() string {
	return u.err.Error() + "; it holds no checkpoint, so a replay of it checks nothing but its tick count"
}

func (u *uncheckable) Unwrap() []error { return []error{u.err, ErrNoCheckpoint} }
