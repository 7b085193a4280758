package replay

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"

	"github.com/tandem-engine/tandem/simthread"
)

// Recording is a recording as read back.
type Recording struct {
	Header Header
	// Events are the recorded input events in the order they were
	// applied; their ticks never decrease.
	Events      []Event
	Checkpoints []Checkpoint // in tick order
	// Final is the run's end: the final tick count and state hash. A
	// recording cut short (Complete false) has none; it replays up to
	// End.
	Final     Checkpoint
	StoppedBy string
	Complete  bool
	// Marked is the newest tick count a chunk vouched for: the input up
	// to it is complete.
	Marked uint64
	// Lost is the number of bytes at the end of a file cut short that
	// did not make a whole chunk, and LostFrom the offset they start at.
	Lost, LostFrom int64
}

// End returns the tick count a replay runs to: the final tick of a
// complete recording, else the newest tick its whole chunks vouch for.
func (r *Recording) End() uint64 {
	if r.Complete {
		return r.Final.Tick
	}
	end := r.Marked
	if n := len(r.Checkpoints); n > 0 {
		end = max(end, r.Checkpoints[n-1].Tick)
	}
	return end
}

// Error is a recording that cannot be read: the file, the byte offset of
// the trouble and the reason.
type Error struct {
	File   string
	Offset int64
	Reason string
}

// Error returns "replay: FILE: byte N: REASON".
func (e *Error) Error() string {
	return fmt.Sprintf("replay: %s: byte %d: %s", e.File, e.Offset, e.Reason)
}

// Open reads the recording at path.
func Open(path string) (*Recording, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, &Error{File: path, Reason: "not a regular file"}
	}
	return Read(f, st.Size(), path)
}

// Read reads a recording of size bytes from r; name is the file's name
// for errors. A file cut short is not an error: the recording holds what
// its whole chunks hold and Lost says how much is missing. A bad magic,
// version, header or CRC, or an unknown record, is an *Error.
func Read(r io.ReaderAt, size int64, name string) (*Recording, error) {
	d := &decoder{r: r, size: size, name: name}
	rec := &Recording{}
	if err := d.header(&rec.Header); err != nil {
		return nil, err
	}
	for d.off < size {
		start := d.off
		n, ok, err := d.chunkLen()
		if err != nil {
			return nil, err
		}
		if !ok {
			rec.Lost, rec.LostFrom = size-start, start
			break
		}
		body, err := d.chunk(n)
		if err != nil {
			return nil, err
		}
		if err := d.records(rec, body, start+4); err != nil {
			return nil, err
		}
		if rec.Complete && d.off < size {
			return nil, d.fail(d.off, fmt.Sprintf("%d bytes after the end record", size-d.off))
		}
	}
	return rec, nil
}

type decoder struct {
	r    io.ReaderAt
	size int64
	off  int64
	name string
}

func (d *decoder) fail(at int64, reason string) *Error {
	return &Error{File: d.name, Offset: at, Reason: reason}
}

// read returns the next n bytes, which the caller has checked the file
// holds.
func (d *decoder) read(n int64) ([]byte, error) {
	b := make([]byte, n)
	if _, err := d.r.ReadAt(b, d.off); err != nil {
		return nil, d.fail(d.off, "read: "+err.Error())
	}
	d.off += n
	return b, nil
}

func (d *decoder) header(h *Header) error {
	const fixed = int64(len(Magic) + 2 + 4)
	if d.size < fixed {
		return d.fail(0, fmt.Sprintf("%d bytes is too short for a recording (not a tandem recording?)", d.size))
	}
	b, err := d.read(fixed)
	if err != nil {
		return err
	}
	if string(b[:len(Magic)]) != Magic {
		return d.fail(0, fmt.Sprintf("not a tandem recording (magic %q, want %q)", b[:len(Magic)], Magic))
	}
	if v := binary.LittleEndian.Uint16(b[len(Magic):]); v != Version {
		return &Error{File: d.name, Offset: int64(len(Magic)),
			Reason: fmt.Sprintf("unsupported version %d (this build reads version %d; replay it with the build that recorded it)", v, Version)}
	}
	n := int64(binary.LittleEndian.Uint32(b[len(Magic)+2:]))
	if n > maxHeader || n > d.size-d.off-4 {
		return d.fail(fixed-4, fmt.Sprintf("header length %d does not fit the file's %d bytes", n, d.size))
	}
	at := d.off
	body, err := d.read(n + 4)
	if err != nil {
		return err
	}
	if got, want := crc32.Checksum(body[:n], crcTable), binary.LittleEndian.Uint32(body[n:]); got != want {
		return d.fail(at, fmt.Sprintf("header CRC %08x, want %08x: the file is corrupt", got, want))
	}
	p := parser{b: body[:n]}
	h.Scene, h.Level = p.str(), p.str()
	h.LevelHash, h.Seed = p.u64(), p.u64()
	h.Hz, h.Sprites, h.ArenaW, h.ArenaH, h.CheckpointEvery = p.int(), p.int(), p.int(), p.int(), p.int()
	h.Build = p.str()
	if p.bad || len(p.b) != 0 {
		return d.fail(at, "malformed header")
	}
	if h.Hz <= 0 || h.Hz > 10_000 || h.CheckpointEvery <= 0 || h.Sprites < 0 || h.ArenaW < 0 || h.ArenaH < 0 {
		return d.fail(at, fmt.Sprintf("header out of range: %d Hz, checkpoint every %d ticks, %d sprites, arena %dx%d",
			h.Hz, h.CheckpointEvery, h.Sprites, h.ArenaW, h.ArenaH))
	}
	return nil
}

// chunkLen reads the next chunk's length. ok is false when the file ends
// before the chunk does: a recording cut short.
func (d *decoder) chunkLen() (n int64, ok bool, err error) {
	if d.size-d.off < 4 {
		return 0, false, nil
	}
	var b [4]byte
	if _, err := d.r.ReadAt(b[:], d.off); err != nil {
		return 0, false, d.fail(d.off, "read: "+err.Error())
	}
	n = int64(binary.LittleEndian.Uint32(b[:]))
	if n > maxChunk {
		return 0, false, d.fail(d.off, fmt.Sprintf("chunk length %d is over the %d-byte limit: the file is corrupt", n, maxChunk))
	}
	if n > d.size-d.off-8 {
		return 0, false, nil
	}
	return n, true, nil
}

// chunk reads a chunk of n bytes of records and checks its CRC.
func (d *decoder) chunk(n int64) ([]byte, error) {
	at := d.off
	b, err := d.read(4 + n + 4)
	if err != nil {
		return nil, err
	}
	if got, want := crc32.Checksum(b[:4+n], crcTable), binary.LittleEndian.Uint32(b[4+n:]); got != want {
		return nil, d.fail(at, fmt.Sprintf("chunk CRC %08x, want %08x: the file is corrupt", got, want))
	}
	return b[4 : 4+n], nil
}

// records decodes one chunk's records, which start at offset at.
func (d *decoder) records(rec *Recording, b []byte, at int64) error {
	for p := (parser{b: b}); len(p.b) > 0; {
		off := at + int64(len(b)-len(p.b))
		if rec.Complete {
			return d.fail(off, "a record after the end record")
		}
		switch kind := p.byte(); kind {
		case recEvent:
			tick, stamp := p.u64(), int64(p.u64())
			e := simthread.Event{Time: stamp, Kind: simthread.EventKind(p.byte()), Down: p.byte() == 1}
			e.Buttons = simthread.Buttons(p.u32())
			e.Scale = simthread.Ratio{Num: int64(p.byte()), Den: int64(p.byte())}
			e.X, e.Y = math.Float32frombits(p.u32()), math.Float32frombits(p.u32())
			e.Axis = p.byte()
			if p.bad {
				return d.fail(off, "an event record cut short")
			}
			if !e.Valid() {
				return d.fail(off, fmt.Sprintf("invalid event (kind %d): the loop would have refused it", e.Kind))
			}
			if n := len(rec.Events); n > 0 && tick < rec.Events[n-1].Tick {
				return d.fail(off, fmt.Sprintf("event at tick %d after one at tick %d", tick, rec.Events[n-1].Tick))
			}
			rec.Events = append(rec.Events, Event{Tick: tick, Event: e})
		case recMark:
			c := Checkpoint{Tick: p.u64(), Hash: p.u64()}
			if p.bad {
				return d.fail(off, "a mark record cut short")
			}
			if c.Tick < rec.Marked {
				return d.fail(off, fmt.Sprintf("mark at tick %d after one at tick %d", c.Tick, rec.Marked))
			}
			rec.Marked = c.Tick
		case recCheckpoint, recFinal:
			c := Checkpoint{Tick: p.u64(), Hash: p.u64()}
			var stop string
			if kind == recFinal {
				stop = p.str()
			}
			if p.bad {
				return d.fail(off, "a checkpoint record cut short")
			}
			if n := len(rec.Checkpoints); n > 0 && c.Tick <= rec.Checkpoints[n-1].Tick && kind == recCheckpoint {
				return d.fail(off, fmt.Sprintf("checkpoint at tick %d after one at tick %d", c.Tick, rec.Checkpoints[n-1].Tick))
			}
			if kind == recFinal {
				rec.Final, rec.StoppedBy, rec.Complete = c, stop, true
			} else {
				rec.Checkpoints = append(rec.Checkpoints, c)
			}
		default:
			return d.fail(off, fmt.Sprintf("unknown record kind 0x%02x", kind))
		}
	}
	return nil
}

// parser reads fields off a byte slice; a read past its end sets bad and
// returns zero.
type parser struct {
	b   []byte
	bad bool
}

func (p *parser) take(n int) []byte {
	if n > len(p.b) {
		p.bad, p.b = true, nil
		return make([]byte, n)
	}
	v := p.b[:n]
	p.b = p.b[n:]
	return v
}

func (p *parser) byte() byte  { return p.take(1)[0] }
func (p *parser) u32() uint32 { return binary.LittleEndian.Uint32(p.take(4)) }
func (p *parser) u64() uint64 { return binary.LittleEndian.Uint64(p.take(8)) }
func (p *parser) int() int    { return int(p.u32()) }
func (p *parser) str() string {
	n := int(binary.LittleEndian.Uint16(p.take(2)))
	if n > len(p.b) {
		p.bad, p.b = true, nil
		return ""
	}
	return string(p.take(n))
}

// LevelHashOffset returns the byte offset of the header's level hash, for
// errors about a replay on another level.
func (r *Recording) LevelHashOffset() int64 {
	return int64(len(Magic)+2+4) + 2 + int64(len(r.Header.Scene)) + 2 + int64(len(r.Header.Level))
}
