package replay_test

import (
	"bytes"
	"errors"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/internal/mallocs"
	"github.com/tandem-engine/tandem/replay"
)

// allocated returns the bytes the whole process allocated while f ran:
// bounds on it are generous.
func allocated(f func()) uint64 { return mallocs.Bytes(f) }

// forged is a hostile recording: header h (unchecked) and chunks of the
// given records, each chunk reaching the tick count in reach.
func forged(h replay.Header, version int, reach []uint64, chunks ...[]byte) []byte {
	b := replay.ForgeHeader(h, version)
	for i, c := range chunks {
		b = append(b, replay.ForgeChunk(uint32(i), reach[i], c)...)
	}
	return b
}

var bunnyHeader = replay.Header{Scene: "bunnymark", Seed: 1, Hz: 60, Sprites: 5000, ArenaW: 1280, ArenaH: 720,
	CheckpointEvery: 60, Build: "forged"}

// TestForgedClaims: every claim a header or chunk makes is bounded by the
// file: its fields by the flags' ranges, its ticks by its checkpoints.
// Each forged file is refused in a few hundred bytes of work, naming the
// byte; none asks for memory or time its size does not back.
func TestForgedClaims(t *testing.T) {
	start := bytes.Join([][]byte{replay.ForgePoint('C', 0, 1), replay.ForgePoint('T', 60, 0)}, nil)
	with := func(edit func(h *replay.Header)) replay.Header {
		h := bunnyHeader
		edit(&h)
		return h
	}
	for _, tc := range []struct {
		name, reason string
		file         []byte
	}{
		// The forged 375-byte bunnymark of issue 29: a 1,000,000 px
		// square arena, which the bunnymark turned into a level of
		// gigabytes.
		{"arena", "arena 1000000x1000000 px (want each side 0 to 16384",
			forged(with(func(h *replay.Header) { h.ArenaW, h.ArenaH = 1_000_000, 1_000_000 }), 3, []uint64{60}, start)},
		{"arena, version 2", "arena 1000000x1000000 px",
			forged(with(func(h *replay.Header) { h.ArenaW, h.ArenaH = 1_000_000, 1_000_000 }), 2, []uint64{60}, start)},
		{"hz", "10000 Hz (want 1 to 1000", forged(with(func(h *replay.Header) { h.Hz = 10_000 }), 3, []uint64{60}, start)},
		{"sprites", "2000000 sprites", forged(with(func(h *replay.Header) { h.Sprites = 2_000_000 }), 3, []uint64{60}, start)},
		{"checkpoint interval", "a checkpoint every 4294967295 ticks",
			forged(with(func(h *replay.Header) { h.CheckpointEvery = math.MaxUint32 }), 3, []uint64{60}, start)},
		// The forged 139-byte recording of issue 29: one chunk whose end
		// record says tick 2^64-1, with no checkpoint at all though the
		// header promises one every 60 ticks. It would have replayed
		// for 800,000 years.
		{"end tick", "the end record of tick 18446744073709551615, past tick 60: no checkpoint yet",
			forged(bunnyHeader, 3, []uint64{math.MaxUint64}, replay.ForgePoint('F', math.MaxUint64, 1))},
		{"end tick, version 2", "the end record of tick 18446744073709551615",
			forged(bunnyHeader, 2, []uint64{math.MaxUint64}, replay.ForgePoint('F', math.MaxUint64, 1))},
		{"mark", "a mark of tick 1000000", forged(bunnyHeader, 3, []uint64{1_000_000}, bytes.Join([][]byte{
			replay.ForgePoint('C', 0, 1), replay.ForgePoint('T', 1_000_000, 0)}, nil))},
		{"checkpoints far apart", "a checkpoint of tick 121, past tick 120: the last checkpoint at tick 60",
			forged(bunnyHeader, 3, []uint64{121}, bytes.Join([][]byte{
				replay.ForgePoint('C', 0, 1), replay.ForgePoint('C', 60, 1), replay.ForgePoint('C', 121, 1)}, nil))},
		{"reach", "chunk 0's reach of tick 500, past tick 60", forged(bunnyHeader, 3, []uint64{500}, start)},
	} {
		var err error
		n := allocated(func() { _, err = replay.Read(bytes.NewReader(tc.file), int64(len(tc.file)), "forged.tdr") })
		var re *replay.Error
		if !errors.As(err, &re) || !strings.Contains(re.Reason, tc.reason) || re.Offset < 0 || re.Offset >= int64(len(tc.file)) {
			t.Errorf("%s (%d bytes): %v; want a byte of the file and %q", tc.name, len(tc.file), err, tc.reason)
		}
		if n > 100<<20 {
			t.Errorf("%s: %d MB allocated to refuse %d bytes", tc.name, n>>20, len(tc.file))
		}
	}
	// A chunk cut short claims no more than its bytes could hold: one
	// interval past the last checkpoint for each checkpoint record that
	// fits in its length.
	whole := forged(bunnyHeader, 3, []uint64{60}, start)
	cut := replay.ForgeChunk(1, math.MaxUint64, bytes.Repeat([]byte{0}, 170)) // room for 10 checkpoints
	b := append(bytes.Clone(whole), cut[:40]...)
	if _, err := replay.Read(bytes.NewReader(b), int64(len(b)), "forged.tdr"); err == nil || !strings.Contains(err.Error(), "chunk 1 cut short reaches tick 18446744073709551615, past the 660") {
		t.Errorf("a cut chunk's reach of 2^64-1: %v", err)
	}
	cut = replay.ForgeChunk(1, 660, bytes.Repeat([]byte{0}, 170))
	b = append(bytes.Clone(whole), cut[:40]...)
	if rec, err := replay.Read(bytes.NewReader(b), int64(len(b)), "forged.tdr"); err != nil || !rec.Cut.ReachKnown || rec.Cut.Reach != 660 {
		t.Errorf("a cut chunk's reach of 660: %v", err)
	}
	// What the promise allows is read: checkpoints an interval apart,
	// and the end an interval past the last.
	ok := forged(bunnyHeader, 3, []uint64{180}, bytes.Join([][]byte{replay.ForgePoint('C', 0, 1),
		replay.ForgePoint('C', 60, 2), replay.ForgePoint('C', 120, 3), replay.ForgePoint('F', 180, 4)}, nil))
	if rec, err := replay.Read(bytes.NewReader(ok), int64(len(ok)), "ok.tdr"); err != nil || rec.End() != 180 {
		t.Errorf("checkpoints 60 ticks apart, the end 60 past the last: %v", err)
	}
}

// TestVersion2Reads: a recording made before version 3 (its header names
// its level rather than holding it, and holds no game flags) reads back
// whole. testdata/v2.tdr is refRun(60) as version 2 wrote it.
func TestVersion2Reads(t *testing.T) {
	b, err := os.ReadFile("testdata/v2.tdr")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := replay.Read(bytes.NewReader(b), int64(len(b)), "v2.tdr")
	if err != nil {
		t.Fatal(err)
	}
	want := refRecording(60)
	if !reflect.DeepEqual(rec.Header, want.Header) || !reflect.DeepEqual(rec.Events, want.Events) ||
		!reflect.DeepEqual(rec.Checkpoints, want.Checkpoints) || rec.Final != want.Final || rec.Version != 2 || rec.Cut != nil {
		t.Errorf("read back %+v\nwant %+v", rec, want)
	}
}

// TestHeaderHoldsLevelAndFlags: a version 3 header carries the level's
// text and the game's flags under its CRC, byte for byte.
func TestHeaderHoldsLevelAndFlags(t *testing.T) {
	h := refHeader
	h.Level, h.LevelText = "demo.txt", []byte("#####\n#P.C#\n#####\n")
	h.Flags = []string{"autopilot=true", "name=\x1b]0;pwned\x07"}
	var buf bytes.Buffer
	w, err := replay.NewManualWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(refRun(w, 20), "seconds"); err != nil {
		t.Fatal(err)
	}
	rec, err := replay.Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "rec.tdr")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rec.Header, h) || rec.Version != replay.Version {
		t.Errorf("header %+v, version %d; want %+v", rec.Header, rec.Version, h)
	}
	for _, bad := range []func(h *replay.Header){
		func(h *replay.Header) { h.ArenaW = replay.MaxArena + 1 },
		func(h *replay.Header) { h.Flags = make([]string, 257) },
		func(h *replay.Header) { h.Flags = []string{strings.Repeat("x", 5000)} },
	} {
		h := refHeader
		bad(&h)
		if _, err := replay.NewWriter(&bytes.Buffer{}, h); err == nil {
			t.Errorf("header %+v written", h)
		}
	}
}
