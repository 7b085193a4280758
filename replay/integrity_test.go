package replay_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/replay"
)

// refTicks is the length of the reference run: 3.1 s at 100 Hz, a file
// of over 8 KiB whose last chunk (Close's) holds ticks as well as the end
// record.
const refTicks = 310

// refBytes returns a recording of refRun(ticks), its chunks where refRun
// flushes.
func refBytes(t testing.TB, ticks uint64) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := replay.NewManualWriter(&buf, refHeader)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(refRun(w, ticks), "seconds"); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// layout is where a version 2 file's parts lie, read the way the format
// says: the header's end, and each chunk's start and the tick count its
// prefix says it reaches.
type layout struct {
	headerEnd int
	starts    []int    // the chunks' starts, then the file's end
	reaches   []uint64 // each chunk's reach
}

func layoutOf(t *testing.T, b []byte) layout {
	t.Helper()
	l := layout{headerEnd: 8 + 2 + 4 + int(binary.LittleEndian.Uint32(b[10:])) + 4}
	for at := l.headerEnd; at < len(b); {
		l.starts = append(l.starts, at)
		l.reaches = append(l.reaches, binary.LittleEndian.Uint64(b[at+8:]))
		at += 20 + int(binary.LittleEndian.Uint32(b[at:])) + 4
		if at > len(b) {
			t.Fatalf("chunk at %d runs past the end", l.starts[len(l.starts)-1])
		}
	}
	l.starts = append(l.starts, len(b))
	return l
}

// part returns which part of the file byte i lies in: -1 for the header,
// else the chunk's index.
func (l layout) part(i int) int {
	if i < l.headerEnd {
		return -1
	}
	for j := range len(l.starts) - 1 {
		if i < l.starts[j+1] {
			return j
		}
	}
	return len(l.starts) - 1
}

// sameRecording reports whether a holds what b holds.
func sameRecording(a, b *replay.Recording) bool {
	return reflect.DeepEqual(a.Header, b.Header) && slices.Equal(a.Events, b.Events) && slices.Equal(a.Checkpoints, b.Checkpoints) &&
		a.Final == b.Final && a.StoppedBy == b.StoppedBy && a.Complete == b.Complete && a.Marked == b.Marked
}

// TestEveryByteChecked flips every bit of a recording and cuts it at every
// byte. A flipped file must fail to read with an error naming a byte of
// the part (header or chunk) the flip is in: never read back, whole or
// as a cut. A cut file must read as cut, holding exactly the chunks
// before the cut, and its Cut must state the ticks it holds and those
// the chunk cut short took away: the ticks of the reference's chunks.
func TestEveryByteChecked(t *testing.T) {
	if raceEnabled {
		t.Skip("one goroutine reading 77,000 files: make test runs it without -race, nine times faster")
	}
	ref := refBytes(t, refTicks)
	if len(ref) < 4096 {
		t.Fatalf("the reference is %d bytes, want at least 4 KiB", len(ref))
	}
	full := read(t, ref)
	if want := refRecording(refTicks); !sameRecording(full, want) || full.Version != replay.Version || full.Cut != nil {
		t.Fatalf("the reference reads back as %+v, want %+v", full, want)
	}
	l := layoutOf(t, ref)
	if len(l.starts) < 10 {
		t.Fatalf("the reference has %d chunks, want 10 or more", len(l.starts)-1)
	}

	var headerCuts, reachCuts, otherCuts int
	defer func() {
		if t.Failed() {
			return
		}
		t.Logf("%d bytes: %d bit flips, each an error in its part; %d cuts in the header (errors), %d cuts stating the lost chunk's ticks, %d stating the ticks held alone",
			len(ref), len(ref)*8, headerCuts, reachCuts, otherCuts)
	}()
	b := bytes.Clone(ref)
	for i := range len(ref) * 8 {
		b[i/8] ^= 1 << (i % 8)
		rec, err := replay.Read(bytes.NewReader(b), int64(len(b)), "flip.tdr")
		b[i/8] ^= 1 << (i % 8)
		var re *replay.Error
		switch {
		case err == nil && sameRecording(rec, full):
			t.Errorf("bit %d of byte %d flipped: reads back the same: the byte is not checked", i%8, i/8)
		case err == nil:
			t.Errorf("bit %d of byte %d flipped: reads back (complete %v, %d of %d ticks, cut %v)", i%8, i/8, rec.Complete, rec.End(), full.End(), rec.Cut)
		case !errors.As(err, &re) || re.File != "flip.tdr" || !strings.Contains(err.Error(), fmt.Sprintf("byte %d:", re.Offset)):
			t.Errorf("bit %d of byte %d flipped: error %v, want a *replay.Error naming its byte", i%8, i/8, err)
		case l.part(int(re.Offset)) != l.part(i/8):
			t.Errorf("bit %d of byte %d flipped (part %d): %v names part %d", i%8, i/8, l.part(i/8), err, l.part(int(re.Offset)))
		}
		if t.Failed() {
			return // one case says it; thousands would drown it
		}
	}

	for size := range len(ref) {
		rec, err := replay.Read(bytes.NewReader(ref[:size]), int64(size), "cut.tdr")
		if size < l.headerEnd {
			// Without its whole header a file is no recording.
			var re *replay.Error
			if !errors.As(err, &re) || re.Offset > int64(size) {
				t.Fatalf("cut at %d, in the header: %v, want a *replay.Error", size, err)
			}
			headerCuts++
			continue
		}
		if err != nil {
			t.Fatalf("cut at %d: %v", size, err)
		}
		c := rec.Cut
		if rec.Complete || c == nil {
			t.Fatalf("cut at %d: complete %v, cut %v", size, rec.Complete, c)
		}
		// The whole chunks before the cut, and the one it cut, if any.
		j := l.part(size)
		if size == l.starts[j] {
			j-- // on a chunk's end (or the header's)
		}
		var held uint64
		whole := j
		if size == l.starts[j+1] {
			whole = j + 1
		}
		if whole > 0 {
			held = l.reaches[whole-1]
		}
		if rec.End() != held || c.Ticks != held || c.Checkpoints != len(rec.Checkpoints) || held >= full.End() {
			t.Fatalf("cut at %d: ends at tick %d, cut says %d with %d checkpoints; want tick %d (the whole chunks'), before %d",
				size, rec.End(), c.Ticks, c.Checkpoints, held, full.End())
		}
		if c.Size != int64(size) || c.From != int64(l.starts[whole]) || c.Chunk != whole || c.Hz != refHeader.Hz {
			t.Fatalf("cut at %d: %+v; want from byte %d, chunk %d", size, c, l.starts[whole], whole)
		}
		lost, known := c.LostTicks()
		if known {
			reachCuts++
		} else {
			otherCuts++
		}
		switch inPrefix := size-l.starts[whole] < 20; {
		case whole == j+1 || inPrefix:
			if known {
				t.Fatalf("cut at %d: knows the cut chunk reaches tick %d, with no whole prefix", size, c.Reach)
			}
		case !known || c.Reach != l.reaches[whole] || lost != l.reaches[whole]-held ||
			c.ChunkSize != int64(l.starts[whole+1]-l.starts[whole]):
			t.Fatalf("cut at %d: reach %d (known %v), %d ticks lost, chunk of %d bytes; want the chunk's %d, %d bytes",
				size, c.Reach, known, lost, c.ChunkSize, l.reaches[whole], l.starts[whole+1]-l.starts[whole])
		}
		if len(rec.Events) > len(full.Events) || !slices.Equal(rec.Events, full.Events[:len(rec.Events)]) ||
			len(rec.Checkpoints) > len(full.Checkpoints) || !slices.Equal(rec.Checkpoints, full.Checkpoints[:len(rec.Checkpoints)]) {
			t.Fatalf("cut at %d: the records are not the first ones of the file", size)
		}
		s := c.String()
		for _, want := range []string{
			fmt.Sprintf("cut.tdr: cut short at byte %d", size),
			fmt.Sprintf("the file ends at tick %d (%.3f s of sim time at 100 Hz) with %s", held, float64(held)/100, plural(len(rec.Checkpoints), "checkpoint")),
		} {
			if !strings.Contains(s, want) {
				t.Fatalf("cut at %d: %q does not say %q", size, s, want)
			}
		}
		if known && lost > 0 && !strings.Contains(s, fmt.Sprintf("ticks %d to %d (%s, %.3f s) are lost", held, c.Reach, plural(int(lost), "tick"), float64(lost)/100)) {
			t.Fatalf("cut at %d: %q does not say which ticks were lost", size, s)
		}
	}
}

func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// TestCutStatement: what a cut says, word for word.
func TestCutStatement(t *testing.T) {
	ref := refBytes(t, refTicks)
	l := layoutOf(t, ref)
	for _, tc := range []struct {
		size int
		want string
	}{
		{l.starts[4] + 100, fmt.Sprintf("cut.tdr: cut short at byte %d, 100 bytes into the %d-byte chunk 4 at byte %d: "+
			"the file ends at tick 100 (1.000 s of sim time at 100 Hz) with 10 checkpoints; "+
			"the chunk cut short took the run to tick 125, so ticks 100 to 125 (25 ticks, 0.250 s) are lost, and anything after tick 125 too",
			l.starts[4]+100, l.starts[5]-l.starts[4], l.starts[4])},
		{l.starts[4], fmt.Sprintf("cut.tdr: cut short at byte %d, after 4 whole chunks, with no end record: "+
			"the file ends at tick 100 (1.000 s of sim time at 100 Hz) with 10 checkpoints; "+
			"anything after tick 100 is lost, and the file does not say how much that was", l.starts[4])},
		{l.starts[4] + 7, fmt.Sprintf("cut.tdr: cut short at byte %d, 7 bytes into chunk 4 at byte %d, too few to say how long it is: "+
			"the file ends at tick 100 (1.000 s of sim time at 100 Hz) with 10 checkpoints; "+
			"anything after tick 100 is lost, and the file does not say how much that was", l.starts[4]+7, l.starts[4])},
	} {
		rec, err := replay.Read(bytes.NewReader(ref[:tc.size]), int64(tc.size), "cut.tdr")
		if err != nil {
			t.Fatal(err)
		}
		if got := rec.Cut.String(); got != tc.want {
			t.Errorf("cut at %d:\n got %s\nwant %s", tc.size, got, tc.want)
		}
		if rec.Lost != int64(tc.size-l.starts[4]) || (rec.Lost > 0 && rec.LostFrom != int64(l.starts[4])) {
			t.Errorf("cut at %d: lost %d bytes from %d", tc.size, rec.Lost, rec.LostFrom)
		}
	}
}

// TestCheckComplete: what a command needs to refuse a recording that
// cannot prove a replay.
func TestCheckComplete(t *testing.T) {
	ref := refBytes(t, refTicks)
	l := layoutOf(t, ref)
	if err := read(t, ref).CheckComplete(); err != nil {
		t.Errorf("whole file: %v", err)
	}
	var c *replay.Cut
	cut := read(t, ref[:l.starts[4]+100])
	err := cut.CheckComplete()
	if !errors.As(err, &c) || c != cut.Cut || errors.Is(err, replay.ErrNoCheckpoint) || !strings.HasPrefix(err.Error(), "replay: rec.tdr: cut short at byte ") {
		t.Errorf("cut with checkpoints: %v", err)
	}
	// The first chunk holds ticks 0-25: checkpoints at 10 and 20. Only
	// the header: none.
	bare := read(t, ref[:l.headerEnd+5])
	err = bare.CheckComplete()
	if len(bare.Checkpoints) != 0 || !errors.As(err, &c) || !errors.Is(err, replay.ErrNoCheckpoint) || !strings.Contains(err.Error(), "checks nothing") {
		t.Errorf("cut before any checkpoint: %v", err)
	}
	if err := (&replay.Recording{}).CheckComplete(); !errors.Is(err, replay.ErrNoCheckpoint) {
		t.Errorf("an empty Recording: %v", err)
	}
}

// reseal makes the chunk at b[at:] whole again after a test changed it:
// its prefix CRC and its CRC.
func reseal(b []byte, at int) {
	n := int(binary.LittleEndian.Uint32(b[at:]))
	binary.LittleEndian.PutUint32(b[at+16:], crc32.ChecksumIEEE(b[at:at+16]))
	binary.LittleEndian.PutUint32(b[at+20+n:], crc32.ChecksumIEEE(b[at:at+20+n]))
}

// TestChunkPrefixes: chunks whose CRCs hold but whose prefixes contradict
// the file (as a writer's bug or a spliced file would make them) are
// errors naming the field, not cuts.
func TestChunkPrefixes(t *testing.T) {
	ref := refBytes(t, refTicks)
	l := layoutOf(t, ref)
	at := l.starts[3]
	for _, tc := range []struct {
		name   string
		edit   func(b []byte) []byte
		offset int
		reason string
	}{
		{"index", func(b []byte) []byte { b[at+4]++; reseal(b, at); return b }, at + 4, "chunk 4 where chunk 3 belongs"},
		{"dropped chunk", func(b []byte) []byte { return append(b[:at:at], b[l.starts[4]:]...) }, at + 4, "chunk 4 where chunk 3 belongs"},
		{"reach going back", func(b []byte) []byte { binary.LittleEndian.PutUint64(b[at+8:], 10); reseal(b, at); return b },
			at + 8, "chunk 3 reaches tick 10, before chunk 2's 75"},
		{"record past reach", func(b []byte) []byte { binary.LittleEndian.PutUint64(b[at+8:], 80); reseal(b, at); return b },
			// After 4 events and a checkpoint of ticks 76 to 80.
			at + 20 + 4*34 + 17, "a record of tick 81 in a chunk that reaches tick 80"},
		{"length over the limit", func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[at:], 1<<21)
			binary.LittleEndian.PutUint32(b[at+16:], crc32.ChecksumIEEE(b[at:at+16]))
			return b
		}, at, "chunk length 2097152 is over the"},
	} {
		b := tc.edit(bytes.Clone(ref))
		_, err := replay.Read(bytes.NewReader(b), int64(len(b)), "rec.tdr")
		var re *replay.Error
		if !errors.As(err, &re) || re.Offset != int64(tc.offset) || !strings.Contains(re.Reason, tc.reason) {
			t.Errorf("%s: %v; want byte %d and %q", tc.name, err, tc.offset, tc.reason)
		}
	}
}

// TestChunkBytes: the writer's chunks (the same in versions 2 and 3) are
// where the format says, with the reaches the run had at each flush.
func TestChunkBytes(t *testing.T) {
	ref := refBytes(t, refTicks)
	if v := binary.LittleEndian.Uint16(ref[8:]); v != replay.Version || replay.Version != 3 {
		t.Fatalf("version %d written, package Version %d", v, replay.Version)
	}
	l := layoutOf(t, ref)
	var want []uint64
	for k := uint64(25); k <= refTicks; k += 25 {
		want = append(want, k)
	}
	want = append(want, refTicks) // Close's chunk
	if !reflect.DeepEqual(l.reaches, want) {
		t.Errorf("chunks reach %v, want %v", l.reaches, want)
	}
}
