package replay_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"

	"github.com/tandem-engine/tandem/replay"
	"github.com/tandem-engine/tandem/simthread/simtest"
)

// FuzzRead feeds the reader arbitrary bytes (seeded from testdata/fuzz:
// whole recordings of versions 1 to 3, cut ones, corrupt ones and forged
// ones). It must never panic or hang; every failure is a *replay.Error
// naming the file; a recording without its end record says where it was
// cut; whatever it accepts replays without trouble, and every input is
// read and replayed in work and memory bounded by its size: at most one
// checkpoint interval of ticks past each checkpoint its bytes hold, and
// a few dozen bytes allocated per byte read.
func FuzzRead(f *testing.F) {
	// Besides the corpus in testdata, a fresh recording of this build and
	// the same cut at every tenth of its length.
	b := liveBytes(f)
	for i := 1; i <= 10; i++ {
		f.Add(b[:len(b)*i/10])
	}
	// Forged claims: a vast arena, the last tick there is.
	f.Add(forged(replay.Header{Scene: "bunnymark", Hz: 60, Sprites: 5000, ArenaW: 1_000_000, ArenaH: 1_000_000, CheckpointEvery: 60},
		3, []uint64{60}, replay.ForgePoint('C', 0, 1)))
	f.Add(forged(bunnyHeader, 3, []uint64{math.MaxUint64}, replay.ForgePoint('F', math.MaxUint64, 1)))
	f.Add(forged(bunnyHeader, 3, []uint64{120}, bytes.Join([][]byte{replay.ForgePoint('C', 0, 1),
		replay.ForgePoint('C', 60, 1), replay.ForgePoint('F', 120, 1)}, nil)))
	f.Fuzz(func(t *testing.T, b []byte) {
		var rec *replay.Recording
		var err error
		read := allocated(func() { rec, err = replay.Read(bytes.NewReader(b), int64(len(b)), "fuzz.tdr") })
		if read > memoryBound(len(b)) {
			t.Fatalf("reading %d bytes allocated %d", len(b), read)
		}
		if err != nil {
			var re *replay.Error
			if !errors.As(err, &re) || re.File != "fuzz.tdr" || re.Offset < 0 || re.Offset > int64(len(b)) {
				t.Fatalf("error %v: want a *replay.Error within the file", err)
			}
			return
		}
		if rec.Lost < 0 || rec.LostFrom+rec.Lost > int64(len(b)) {
			t.Fatalf("lost %d bytes from %d of %d", rec.Lost, rec.LostFrom, len(b))
		}
		if c := rec.Cut; rec.Complete != (c == nil) ||
			c != nil && (c.Size != int64(len(b)) || c.From > c.Size || c.Ticks != rec.End() || c.Checkpoints != len(rec.Checkpoints) ||
				c.ReachKnown && (c.Reach < c.Ticks || c.Version == 1 || c.From+c.ChunkSize <= c.Size)) {
			t.Fatalf("complete %v, cut %+v, of %d bytes ending at tick %d", rec.Complete, c, len(b), rec.End())
		}
		if int64(len(rec.Events)*34) > int64(len(b)) { // 34 bytes an event record
			t.Fatalf("%d events from %d bytes", len(rec.Events), len(b))
		}
		// The ticks a replay runs: at most an interval past each
		// checkpoint, and each checkpoint takes 17 bytes of the file.
		every := uint64(rec.Header.CheckpointEvery)
		if n := len(rec.Checkpoints); n*17 > len(b) || rec.End() > (uint64(n)+1)*every || every > replay.MaxCheckpointEvery {
			t.Fatalf("%d ticks from %d checkpoints, one every %d ticks, in %d bytes", rec.End(), n, every, len(b))
		}
		sim := &simtest.HashSim{}
		v := rec.NewVerifier()
		var k uint64
		played := allocated(func() { k, err = replay.Fast(context.Background(), sim, rec, v) })
		if err != nil {
			t.Fatal(err)
		}
		if played > memoryBound(len(b)) {
			t.Fatalf("replaying %d bytes allocated %d", len(b), played)
		}
		if k != rec.End() {
			t.Fatalf("replayed %d ticks of %d", k, rec.End())
		}
		_ = rec.Verify(v, k, sim.Hash()) // may differ: the bytes are made up
	})
}

// memoryBound is what reading or replaying n bytes may allocate: 64
// bytes a byte (an event record of 34 bytes becomes a 48-byte event in a
// slice that doubles as it grows, and the script copies it) and 4 MiB for
// the loop's own buffers; a generous bound, since the count is the whole
// process's.
func memoryBound(n int) uint64 { return 64*uint64(n) + 4<<20 }
