package replay

import (
	"encoding/binary"
	"hash/crc32"
	"io"
)

// NewManualWriter is NewWriter without the flush every FlushEvery: its
// chunks end where the test calls Flush, however slow the machine, so
// the bytes it writes are the same every run.
func NewManualWriter(w io.Writer, h Header) (*Writer, error) { return newWriter(w, h, "recording", 0) }

// ForgeHeader encodes h as a header of the given version, unchecked: the
// header a hostile file could carry (version 1's CRC covers the fields
// alone; versions 1 and 2 hold no level text or flags).
func ForgeHeader(h Header, version int) []byte {
	body := appendHeaderBody(nil, h, version)
	b := append([]byte(Magic), 0, 0)
	binary.LittleEndian.PutUint16(b[len(Magic):], uint16(version))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(body)))
	b = append(b, body...)
	sum := crc32.Checksum(b, crcTable)
	if version == 1 {
		sum = crc32.Checksum(body, crcTable)
	}
	return binary.LittleEndian.AppendUint32(b, sum)
}

// ForgeChunk seals records as a version 2 or 3 chunk with the given
// index and reach.
func ForgeChunk(index uint32, reach uint64, records []byte) []byte {
	b := append(make([]byte, prefixSize), records...)
	return sealChunk(b, 0, index, reach)
}

// ForgePoint encodes a checkpoint ('C'), mark ('T') or end ('F', stopped
// by "end") record.
func ForgePoint(kind byte, tick, hash uint64) []byte {
	b := appendPoint(nil, kind, Checkpoint{Tick: tick, Hash: hash})
	if kind == recFinal {
		b = appendStr(b, "end")
	}
	return b
}
