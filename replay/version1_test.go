package replay_test

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/replay"
)

// testdata/v1.tdr is a version 1 recording of refRun(60), written by the
// package's Writer before version 2: 1701 bytes, its first chunk at byte
// 70.
const v1Ticks, v1FirstChunk = 60, 70

func readV1(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/v1.tdr")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestVersion1Reads: a recording made before version 2 reads back whole.
func TestVersion1Reads(t *testing.T) {
	b := readV1(t)
	rec, err := replay.Read(bytes.NewReader(b), int64(len(b)), "v1.tdr")
	if err != nil {
		t.Fatal(err)
	}
	want := refRecording(v1Ticks)
	if !reflect.DeepEqual(rec.Header, want.Header) || !reflect.DeepEqual(rec.Events, want.Events) ||
		!reflect.DeepEqual(rec.Checkpoints, want.Checkpoints) || rec.Final != want.Final ||
		rec.StoppedBy != want.StoppedBy || !rec.Complete || rec.Marked != v1Ticks || rec.Lost != 0 ||
		rec.Version != 1 || rec.Cut != nil || rec.CheckComplete() != nil {
		t.Errorf("read back %+v\nwant %+v", rec, want)
	}
}

// TestVersion1Cuts: a version 1 file keeps its old reading of a cut: any
// chunk that runs past the end of the file is a cut, even one whose
// length was corrupted (version 1 cannot tell the two apart).
func TestVersion1Cuts(t *testing.T) {
	b := readV1(t)
	full := refRecording(v1Ticks)
	for cut := v1FirstChunk; cut < len(b); cut++ {
		rec, err := replay.Read(bytes.NewReader(b[:cut]), int64(cut), "v1.tdr")
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		if rec.Complete || (rec.Lost > 0 && rec.LostFrom+rec.Lost != int64(cut)) {
			t.Fatalf("cut at %d: complete %v, lost %d from %d", cut, rec.Complete, rec.Lost, rec.LostFrom)
		}
		if c := rec.Cut; c == nil || c.Version != 1 || c.ReachKnown || c.Size != int64(cut) || c.Ticks != rec.End() ||
			(rec.Lost > 0 && c.From != rec.LostFrom) || !strings.Contains(c.String(), "a version 1 file") {
			t.Fatalf("cut at %d: %+v", cut, c)
		}
		if len(rec.Events) > len(full.Events) || !slices.Equal(rec.Events, full.Events[:len(rec.Events)]) {
			t.Fatalf("cut at %d: the events are not the first %d of the file's", cut, len(rec.Events))
		}
	}
	// The first chunk's length 4096 bytes longer: past the end, a cut.
	bad := bytes.Clone(b)
	bad[v1FirstChunk+1] ^= 0x10
	rec, err := replay.Read(bytes.NewReader(bad), int64(len(bad)), "v1.tdr")
	if err != nil || rec.Complete || len(rec.Events) != 0 || rec.LostFrom != v1FirstChunk || rec.Lost != int64(len(b)-v1FirstChunk) {
		t.Fatalf("a version 1 chunk length past the end: %v, %+v; want the old reading, a cut", err, rec)
	}
	want := fmt.Sprintf("v1.tdr: cut short at byte %d: its last %d bytes, from byte 70, are not a whole chunk: "+
		"the file ends at tick 0 (0.000 s of sim time at 100 Hz) with 0 checkpoints; "+
		"anything after tick 0 is lost, and the file does not say how much that was "+
		"(a version 1 file: its chunk lengths are not checked, so a corrupt one reads as a cut too)", len(b), len(b)-70)
	if got := rec.Cut.String(); got != want {
		t.Errorf("its cut:\n got %s\nwant %s", got, want)
	}
}
