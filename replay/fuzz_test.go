package replay_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/tandem-engine/tandem/replay"
	"github.com/tandem-engine/tandem/simthread/simtest"
)

// FuzzRead feeds the reader arbitrary bytes (seeded from testdata/fuzz:
// whole recordings of versions 1 and 2, cut ones and corrupt ones). It
// must never panic or hang; every failure is a *replay.Error naming the
// file; a recording without its end record says where it was cut;
// whatever it accepts replays without trouble.
func FuzzRead(f *testing.F) {
	// Besides the corpus in testdata, a fresh recording of this build and
	// the same cut at every tenth of its length.
	b := liveBytes(f)
	for i := 1; i <= 10; i++ {
		f.Add(b[:len(b)*i/10])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		rec, err := replay.Read(bytes.NewReader(b), int64(len(b)), "fuzz.tdr")
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
		if rec.End() > 100_000 {
			return // a valid file of a very long run: too long to replay here
		}
		sim := &simtest.HashSim{}
		v := rec.NewVerifier()
		k, err := replay.Fast(context.Background(), sim, rec, v)
		if err != nil {
			t.Fatal(err)
		}
		if k != rec.End() {
			t.Fatalf("replayed %d ticks of %d", k, rec.End())
		}
		_ = rec.Verify(v, k, sim.Hash()) // may differ: the bytes are made up
	})
}
