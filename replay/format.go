package replay

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/tandem-engine/tandem/simthread"
)

// Magic opens every recording; Version is the format this package
// writes. It reads Version, version 2 (whose header names its level's
// file rather than holding it) and version 1 (whose chunk lengths have no
// check of their own); see the package doc.
const (
	Magic   = "TANDEMRP"
	Version = 3
)

// Limits that keep a corrupt length from asking for memory the file does
// not back.
const (
	maxHeader = 64 << 10 // bytes, before version 3
	maxChunk  = 1 << 20  // bytes
	// maxLevelText bounds the level a version 3 header holds: the level
	// loader's own limit on a file (physics reads at most 64 MiB).
	maxLevelText = 64 << 20
	// maxFlags bounds the game flags a header holds.
	maxFlags = 256
)

// The ranges a header's fields must fall in: the ranges of the flags
// that set them (-hz, -sprites, -width and -height), so a recording
// cannot build a world that the command line would refuse.
const (
	MaxHz      = 1000
	MaxSprites = 1_000_000
	// MaxArena bounds the arena's sides in pixels, as -width and
	// -height; 0 is an arena the game ignores.
	MaxArena = 16384
	// MaxCheckpointEvery bounds the ticks between checkpoints: a
	// recording can claim at most this many ticks past its last
	// checkpoint (see [Read]).
	MaxCheckpointEvery = MaxHz
)

// Record kinds.
const (
	recEvent      = 'E'
	recCheckpoint = 'C'
	recFinal      = 'F'
	recMark       = 'T'
	eventSize     = 1 + 8 + 8 + 1 + 1 + 4 + 1 + 1 + 4 + 4 + 1
	pointSize     = 1 + 8 + 8
)

// prefixSize is a version 2 chunk's prefix: length u32, index u32,
// reach u64 and their CRC-32; version 1's is the length alone.
const prefixSize = 4 + 4 + 8 + 4

// Header says what a recording was made of: a replay must rebuild the
// same world.
type Header struct {
	Scene string // the scene's name, e.g. "platformer"
	// Level is the level's name, for messages: its file's base name, or
	// "" for the game's own level. A version 1 or 2 header holds the
	// -level flag as given, which may be a path: see docs/replay.md for
	// how a replay treats it (it never opens a path a file names).
	Level     string
	LevelHash uint64 // physics.Level.Hash of the level played
	Seed      uint64
	Hz        int
	Sprites   int
	// ArenaW, ArenaH are the bunnymark's arena in pixels (the framebuffer
	// it was recorded in); the platformer ignores them.
	ArenaW, ArenaH int
	// CheckpointEvery is the number of ticks between checkpoints.
	CheckpointEvery int
	Build           string // the recording build's version, for messages
	// LevelText is the level played, in the level file format
	// (physics.Level.Text): a replay plays it, checked against
	// LevelHash, and opens no file for it. Empty for a game without a
	// level, and in version 1 and 2 files.
	LevelText []byte
	// Flags are the game's own flags as NAME=VALUE, in name order: a
	// replay sets them as they were. None in version 1 and 2 files.
	Flags []string
}

// Event is one recorded input event: the event and the tick that saw it.
type Event struct {
	Tick  uint64
	Event simthread.Event
}

// Checkpoint is the state hash after Tick ticks.
type Checkpoint struct {
	Tick, Hash uint64
}

var crcTable = crc32.MakeTable(crc32.IEEE)

// appendHeader encodes h after the magic and version; the CRC covers
// everything from the magic on.
func appendHeader(b []byte, h Header) ([]byte, error) {
	for _, s := range []struct{ name, v string }{{"scene", h.Scene}, {"level", h.Level}, {"build", h.Build}} {
		if len(s.v) > 1<<12 {
			return nil, fmt.Errorf("replay: header %s is %d bytes (at most 4096)", s.name, len(s.v))
		}
	}
	if err := h.check(); err != "" {
		return nil, fmt.Errorf("replay: invalid header: %s", err)
	}
	if len(h.LevelText) > maxLevelText {
		return nil, fmt.Errorf("replay: header level is %d bytes (at most %d)", len(h.LevelText), maxLevelText)
	}
	if len(h.Flags) > maxFlags {
		return nil, fmt.Errorf("replay: %d game flags (at most %d)", len(h.Flags), maxFlags)
	}
	for _, f := range h.Flags {
		if len(f) > 1<<12 {
			return nil, fmt.Errorf("replay: game flag %.40q... is %d bytes (at most 4096)", f, len(f))
		}
	}
	body := appendHeaderBody(nil, h, Version)
	b = append(b, Magic...)
	b = binary.LittleEndian.AppendUint16(b, Version)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(body)))
	b = append(b, body...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crcTable)), nil
}

// appendHeaderBody encodes h's fields as a header of version holds them
// (versions 1 and 2 hold no level text and no flags), unchecked.
func appendHeaderBody(body []byte, h Header, version int) []byte {
	body = appendStr(body, h.Scene)
	body = appendStr(body, h.Level)
	body = binary.LittleEndian.AppendUint64(body, h.LevelHash)
	body = binary.LittleEndian.AppendUint64(body, h.Seed)
	for _, v := range []int{h.Hz, h.Sprites, h.ArenaW, h.ArenaH, h.CheckpointEvery} {
		body = binary.LittleEndian.AppendUint32(body, uint32(v))
	}
	body = appendStr(body, h.Build)
	if version < 3 {
		return body
	}
	body = binary.LittleEndian.AppendUint32(body, uint32(len(h.LevelText)))
	body = append(body, h.LevelText...)
	body = binary.LittleEndian.AppendUint16(body, uint16(len(h.Flags)))
	for _, f := range h.Flags {
		body = appendStr(body, f)
	}
	return body
}

// check returns what is out of range in h, or "".
func (h *Header) check() string {
	switch {
	case h.Hz < 1 || h.Hz > MaxHz:
		return fmt.Sprintf("%d Hz (want 1 to %d, as -hz)", h.Hz, MaxHz)
	case h.Sprites < 0 || h.Sprites > MaxSprites:
		return fmt.Sprintf("%d sprites (want 0 to %d, as -sprites)", h.Sprites, MaxSprites)
	case h.ArenaW < 0 || h.ArenaW > MaxArena || h.ArenaH < 0 || h.ArenaH > MaxArena:
		return fmt.Sprintf("arena %dx%d px (want each side 0 to %d, as -width and -height)", h.ArenaW, h.ArenaH, MaxArena)
	case h.CheckpointEvery < 1 || h.CheckpointEvery > MaxCheckpointEvery:
		return fmt.Sprintf("a checkpoint every %d ticks (want 1 to %d)", h.CheckpointEvery, MaxCheckpointEvery)
	}
	return ""
}

func appendStr(b []byte, s string) []byte {
	b = binary.LittleEndian.AppendUint16(b, uint16(len(s)))
	return append(b, s...)
}

func appendEvent(b []byte, tick uint64, e *simthread.Event) []byte {
	b = append(b, recEvent)
	b = binary.LittleEndian.AppendUint64(b, tick)
	b = binary.LittleEndian.AppendUint64(b, uint64(e.Time))
	down := byte(0)
	if e.Down {
		down = 1
	}
	b = append(b, byte(e.Kind), down)
	b = binary.LittleEndian.AppendUint32(b, uint32(e.Buttons))
	// Scales are at most 64/1 (Push refuses others), so a byte each.
	b = append(b, byte(e.Scale.Num), byte(e.Scale.Den))
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(e.X))
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(e.Y))
	return append(b, e.Axis)
}

func appendPoint(b []byte, kind byte, c Checkpoint) []byte {
	b = append(b, kind)
	b = binary.LittleEndian.AppendUint64(b, c.Tick)
	return binary.LittleEndian.AppendUint64(b, c.Hash)
}

// sealChunk fills in the prefix of the chunk that starts at b[at]
// (prefixSize bytes reserved there): its length, its index in the file
// and the tick count it reaches, under a CRC of their own so that a
// corrupt length is told from a cut; then it appends the CRC of the whole
// chunk.
func sealChunk(b []byte, at int, index uint32, reach uint64) []byte {
	p := b[at : at+prefixSize]
	binary.LittleEndian.PutUint32(p, uint32(len(b)-at-prefixSize))
	binary.LittleEndian.PutUint32(p[4:], index)
	binary.LittleEndian.PutUint64(p[8:], reach)
	binary.LittleEndian.PutUint32(p[16:], crc32.Checksum(p[:16], crcTable))
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[at:], crcTable))
}
