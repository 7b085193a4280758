package replay

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"github.com/tandem-engine/tandem/internal/regfile"
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
	// Version is the file's format version: 1 or [Version].
	Version int
	// Cut says where the file was cut short and what that lost; nil for
	// a recording that holds its end record (Complete).
	Cut *Cut
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

// Open reads the recording at path. Anything but a regular file (a FIFO,
// a device, a directory) is refused before a byte is read, and the open
// never waits for a FIFO's writer.
func Open(path string) (*Recording, error) {
	f, size, err := regfile.Open(path)
	var nr *regfile.NotRegularError
	if errors.As(err, &nr) {
		return nil, &Error{File: path, Reason: "not a regular file (" + regfile.Kind(nr.Mode) + "): give a recording made with -record"}
	}
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	return Read(f, size, path)
}

// Read reads a recording of size bytes from r; name is the file's name
// for errors. A file cut short is not an error: the recording holds what
// its whole chunks hold, and Cut (and Lost) say where it ends and what
// was lost. A bad magic, version, header or CRC, an unknown record, or
// anything else a cut cannot explain, is an *Error.
func Read(r io.ReaderAt, size int64, name string) (*Recording, error) {
	d := &decoder{r: r, size: size, name: name}
	rec := &Recording{}
	v, err := d.header(&rec.Header)
	if err != nil {
		return nil, err
	}
	rec.Version = v
	d.every = uint64(rec.Header.CheckpointEvery)
	read := d.chunks
	if v == 1 {
		read = d.chunks1
	}
	cut, err := read(rec)
	if err != nil {
		return nil, err
	}
	if !rec.Complete {
		cut.File, cut.Version, cut.Size, cut.Hz = name, v, size, rec.Header.Hz
		cut.Ticks, cut.Checkpoints = rec.End(), len(rec.Checkpoints)
		rec.Cut = cut
		if v != 1 && cut.From < size {
			rec.Lost, rec.LostFrom = size-cut.From, cut.From
		}
	}
	return rec, nil
}

// chunks1 reads a version 1 file's chunks: a length that runs past the
// end of the file is a cut, since nothing tells it from a corrupt one.
// It returns where the file was cut, if it was.
func (d *decoder) chunks1(rec *Recording) (*Cut, error) {
	chunk := 0
	for d.off < d.size {
		start := d.off
		n, ok, err := d.chunkLen()
		if err != nil {
			return nil, err
		}
		if !ok {
			rec.Lost, rec.LostFrom = d.size-start, start
			return &Cut{From: start, Chunk: chunk}, nil
		}
		body, err := d.chunk(n)
		if err != nil {
			return nil, err
		}
		if err := d.records(rec, body, start+4, math.MaxUint64); err != nil {
			return nil, err
		}
		if rec.Complete && d.off < d.size {
			return nil, d.fail(d.off, fmt.Sprintf("%d bytes after the end record", d.size-d.off))
		}
		chunk++
	}
	return &Cut{From: d.size, Chunk: chunk}, nil
}

// chunks reads a version 2 file's chunks. Each chunk's prefix (its
// length, index and reach) is checked by a CRC of its own before its
// length is used, so a chunk that runs past the end of the file is a cut
// and nothing else: the Cut then says how far the chunk would have taken
// the run. It returns where the file was cut, if it was.
func (d *decoder) chunks(rec *Recording) (*Cut, error) {
	var reach uint64
	chunk := 0
	for ; d.off < d.size; chunk++ {
		start := d.off
		if d.size-start < prefixSize {
			return &Cut{From: start, Chunk: chunk}, nil
		}
		var p [prefixSize]byte
		if _, err := d.r.ReadAt(p[:], start); err != nil {
			return nil, d.fail(start, "read: "+err.Error())
		}
		n := int64(binary.LittleEndian.Uint32(p[:]))
		index, r := binary.LittleEndian.Uint32(p[4:]), binary.LittleEndian.Uint64(p[8:])
		if got, want := crc32.Checksum(p[:16], crcTable), binary.LittleEndian.Uint32(p[16:]); got != want {
			return nil, d.fail(start, fmt.Sprintf("chunk %d's prefix CRC %08x, want %08x: its length cannot be trusted; the file is corrupt", chunk, got, want))
		}
		if index != uint32(chunk) {
			return nil, d.fail(start+4, fmt.Sprintf("chunk %d where chunk %d belongs: a chunk is missing, repeated or out of place; the file is corrupt", index, chunk))
		}
		if n > maxChunk {
			return nil, d.fail(start, fmt.Sprintf("chunk length %d is over the %d-byte limit: the file is corrupt", n, maxChunk))
		}
		if r < reach {
			return nil, d.fail(start+8, fmt.Sprintf("chunk %d reaches tick %d, before chunk %d's %d: the file is corrupt", chunk, r, chunk-1, reach))
		}
		if n > d.size-start-prefixSize-4 {
			// Each checkpoint the lost records held could move the bound
			// on by one interval.
			if most := d.bound() + d.every*uint64(n/pointSize); r > most {
				return nil, d.fail(start+8, fmt.Sprintf("chunk %d cut short reaches tick %d, past the %d that its %d bytes and a checkpoint every %d ticks can hold: the file is corrupt",
					chunk, r, most, n, d.every))
			}
			return &Cut{From: start, Chunk: chunk, ChunkSize: prefixSize + n + 4, Reach: r, ReachKnown: true}, nil
		}
		body, err := d.read(prefixSize + n + 4)
		if err != nil {
			return nil, err
		}
		if got, want := crc32.Checksum(body[:prefixSize+n], crcTable), binary.LittleEndian.Uint32(body[prefixSize+n:]); got != want {
			return nil, d.fail(start, fmt.Sprintf("chunk %d's CRC %08x, want %08x: the file is corrupt", chunk, got, want))
		}
		if err := d.records(rec, body[prefixSize:prefixSize+n], start+prefixSize, r); err != nil {
			return nil, err
		}
		if r > d.bound() {
			return nil, d.beyond(start+8, fmt.Sprintf("chunk %d's reach", chunk), r)
		}
		if rec.Complete && d.off < d.size {
			return nil, d.fail(d.off, fmt.Sprintf("%d bytes after the end record", d.size-d.off))
		}
		reach = r
	}
	return &Cut{From: d.size, Chunk: chunk}, nil
}

type decoder struct {
	r    io.ReaderAt
	size int64
	off  int64
	name string
	// every is the header's ticks between checkpoints; last is the
	// newest checkpoint's tick, and seen whether there was one.
	every uint64
	last  uint64
	seen  bool
}

// bound returns the newest tick a record may have: the last checkpoint's
// tick plus the header's checkpoint interval (the next checkpoint is due
// by then; with none yet, the first is the start's, at tick 0). So a file
// holds at most (its checkpoints + 1) x CheckpointEvery ticks, and a
// replay's work grows with the file's bytes, never with what it claims.
func (d *decoder) bound() uint64 { return d.last + d.every }

// beyond reports a tick past bound as the error of the record at off.
func (d *decoder) beyond(off int64, what string, tick uint64) *Error {
	last := "no checkpoint yet (the first is the start's, at tick 0)"
	if d.seen {
		last = fmt.Sprintf("the last checkpoint at tick %d", d.last)
	}
	return d.fail(off, fmt.Sprintf("%s of tick %d, past tick %d: %s, and the header promises one every %d ticks; the file is corrupt",
		what, tick, d.bound(), last, d.every))
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

// header reads the file's header into h and returns its version.
func (d *decoder) header(h *Header) (int, error) {
	const fixed = int64(len(Magic) + 2 + 4)
	if d.size < fixed {
		return 0, d.fail(0, fmt.Sprintf("%d bytes is too short for a recording (not a tandem recording?)", d.size))
	}
	b, err := d.read(fixed)
	if err != nil {
		return 0, err
	}
	if string(b[:len(Magic)]) != Magic {
		return 0, d.fail(0, fmt.Sprintf("not a tandem recording (magic %q, want %q)", b[:len(Magic)], Magic))
	}
	v := int(binary.LittleEndian.Uint16(b[len(Magic):]))
	if v < 1 || v > Version {
		return 0, &Error{File: d.name, Offset: int64(len(Magic)),
			Reason: fmt.Sprintf("unsupported version %d (this build reads versions 1 to %d; replay it with the build that recorded it)", v, Version)}
	}
	n := int64(binary.LittleEndian.Uint32(b[len(Magic)+2:]))
	limit := int64(maxHeader)
	if v >= 3 {
		limit += maxLevelText
	}
	if n > limit || n > d.size-d.off-4 {
		return 0, d.fail(fixed-4, fmt.Sprintf("header length %d does not fit the file's %d bytes: the file is corrupt, or cut short before its first chunk", n, d.size))
	}
	at := d.off
	body, err := d.read(n + 4)
	if err != nil {
		return 0, err
	}
	// Version 1's CRC covers the header's fields; later ones' everything
	// from the magic on.
	sum := crc32.Checksum(b, crcTable)
	if v == 1 {
		sum = 0
	}
	if got, want := crc32.Update(sum, crcTable, body[:n]), binary.LittleEndian.Uint32(body[n:]); got != want {
		return 0, d.fail(at, fmt.Sprintf("header CRC %08x, want %08x: the file is corrupt", got, want))
	}
	p := parser{b: body[:n]}
	h.Scene, h.Level = p.str(), p.str()
	h.LevelHash, h.Seed = p.u64(), p.u64()
	h.Hz, h.Sprites, h.ArenaW, h.ArenaH, h.CheckpointEvery = p.int(), p.int(), p.int(), p.int(), p.int()
	h.Build = p.str()
	if v >= 3 {
		if k := int(p.u32()); k > 0 && !p.bad {
			if k > len(p.b) {
				p.bad = true
			} else {
				h.LevelText = p.take(k)
			}
		}
		k := int(binary.LittleEndian.Uint16(p.take(2)))
		if k > maxFlags {
			return 0, d.fail(at, fmt.Sprintf("%d game flags in the header (at most %d): the file is corrupt", k, maxFlags))
		}
		for range k {
			if f := p.str(); !p.bad {
				h.Flags = append(h.Flags, f)
			}
		}
	}
	if p.bad || len(p.b) != 0 {
		return 0, d.fail(at, "malformed header")
	}
	if msg := h.check(); msg != "" {
		return 0, d.fail(at, "header out of range: "+msg)
	}
	return v, nil
}

// chunkLen reads the next version 1 chunk's length. ok is false when the
// file ends before the chunk does: a recording cut short, or a corrupt
// length.
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

// chunk reads a version 1 chunk of n bytes of records and checks its
// CRC.
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

// records decodes one chunk's records, which start at offset at; none
// may have a tick past reach, the tick count the chunk says it reaches.
func (d *decoder) records(rec *Recording, b []byte, at int64, reach uint64) error {
	for p := (parser{b: b}); len(p.b) > 0; {
		off := at + int64(len(b)-len(p.b))
		if rec.Complete {
			return d.fail(off, "a record after the end record")
		}
		kind := p.byte()
		known := kind == recEvent || kind == recMark || kind == recCheckpoint || kind == recFinal
		if known && len(p.b) >= 8 {
			if tick := binary.LittleEndian.Uint64(p.b); tick > reach {
				return d.fail(off, fmt.Sprintf("a record of tick %d in a chunk that reaches tick %d: the file is corrupt", tick, reach))
			}
		}
		switch kind {
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
			if tick > d.bound() {
				return d.beyond(off, "an event", tick)
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
			if c.Tick > d.bound() {
				return d.beyond(off, "a mark", c.Tick)
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
			if c.Tick > d.bound() {
				what := "a checkpoint"
				if kind == recFinal {
					what = "the end record"
				}
				return d.beyond(off, what, c.Tick)
			}
			if kind == recFinal {
				rec.Final, rec.StoppedBy, rec.Complete = c, stop, true
			} else {
				rec.Checkpoints = append(rec.Checkpoints, c)
				d.last, d.seen = c.Tick, true
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
