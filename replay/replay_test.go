package replay_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"github.com/tandem-engine/tandem/internal/mallocs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/replay"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/simthread/simtest"
)

var header = replay.Header{Scene: "test", Level: "none", LevelHash: 42, Seed: 7, Hz: 100,
	Sprites: 3, ArenaW: 640, ArenaH: 360, CheckpointEvery: 10, Build: "test"}

// recordLive runs a decoupled loop the way live play does: the sim thread
// runs ahead, and each event is pushed after the clock has passed its
// stamp, so many land a tick later than their stamps say. It returns the
// recording's bytes, the world and the loop's stats.
func recordLive(t testing.TB) ([]byte, *simtest.HashSim, simthread.Stats) {
	t.Helper()
	var buf bytes.Buffer
	w, err := replay.NewWriter(&buf, header)
	if err != nil {
		t.Fatal(err)
	}
	clk := simthread.NewFakeClock(0)
	sim := &simtest.HashSim{}
	r, err := simthread.New(sim, simthread.Config{Hz: 100, Clock: clk, Recorder: w, CheckpointEvery: 10})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	n := 0
	for f := int64(0); f <= 2_000_000_000; f += 7_000_000 {
		clk.Set(f)
		clk.BlockUntilWaiting()
		if f < 3_000_000 {
			continue
		}
		b := simthread.Buttons(1) << (n % 3)
		r.Push(simthread.Event{Time: f - 3_000_000, Kind: simthread.EventButton, Buttons: b, Down: n%2 == 0})
		if n%36 == 35 {
			w.Flush() // 250 ms of this run's 7 ms frames
		}
		if n%5 == 2 {
			r.Push(simthread.Event{Time: f - 2_000_000, Kind: simthread.EventPointer, X: float32(n), Y: float32(3 * n)})
			r.Push(simthread.Event{Time: f - 2_000_000, Kind: simthread.EventAxis, Axis: uint8(n % simthread.NumAxes), X: float32(n%7) / 7})
		}
		if n == 40 {
			r.Push(simthread.Event{Time: f - 1_000_000, Kind: simthread.EventScale, Scale: simthread.Ratio{Num: 1, Den: 2}})
		}
		n++
	}
	clk.Set(2_100_000_000)
	clk.BlockUntilWaiting()
	cancel()
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	st := r.Stats()
	if err := w.Close(replay.Checkpoint{Tick: st.Ticks, Hash: sim.Hash()}, "seconds"); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), sim, st
}

func liveBytes(t testing.TB) []byte {
	b, _, _ := recordLive(t)
	return b
}

func read(t *testing.T, b []byte) *replay.Recording {
	t.Helper()
	rec, err := replay.Read(bytes.NewReader(b), int64(len(b)), "rec.tdr")
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestRoundTrip(t *testing.T) {
	b, sim, st := recordLive(t)
	rec := read(t, b)
	if !reflect.DeepEqual(rec.Header, header) {
		t.Errorf("header %+v, want %+v", rec.Header, header)
	}
	if !rec.Complete || rec.Lost != 0 || rec.StoppedBy != "seconds" {
		t.Errorf("complete %v lost %d stopped by %q", rec.Complete, rec.Lost, rec.StoppedBy)
	}
	if rec.Final != (replay.Checkpoint{Tick: st.Ticks, Hash: sim.Hash()}) || rec.End() != st.Ticks {
		t.Errorf("final %+v, want tick %d hash %x", rec.Final, st.Ticks, sim.Hash())
	}
	if want := int(st.Ticks/10) + 1; len(rec.Checkpoints) != want || rec.Checkpoints[0].Tick != 0 {
		t.Errorf("%d checkpoints, want %d", len(rec.Checkpoints), want)
	}
	if len(rec.Events) < 200 {
		t.Errorf("only %d events", len(rec.Events))
	}
	if st.InputLate == 0 {
		t.Fatal("no event landed late: the test does not exercise the race")
	}
}

// TestReplayExactAcrossLoops: a recording of live play, with events that
// landed a tick late, replays to the same checkpoints and final hash in
// every loop and at any render rate, where replaying the stamps alone
// does not.
func TestReplayExactAcrossLoops(t *testing.T) {
	b, sim, st := recordLive(t)
	rec := read(t, b)

	// The stamps alone put the late events a tick early.
	var stamped []simthread.Event
	for _, e := range rec.Events {
		stamped = append(stamped, e.Event)
	}
	naive := &simtest.HashSim{}
	simtest.Coupled(naive, simthread.Config{Hz: 100, MaxLag: 1e10}, stamped, simtest.FrameTimes(1, 60, 2_100_000_000, 0))
	if naive.Hash() == sim.Hash() {
		t.Fatal("replaying the stamps matched too: no event was late")
	}

	fast := &simtest.HashSim{}
	v := rec.NewVerifier()
	k, err := replay.Fast(context.Background(), fast, rec, v)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Verify(v, k, fast.Hash()); err != nil {
		t.Errorf("fast: %v", err)
	}
	if v.Checked() != len(rec.Checkpoints) {
		t.Errorf("fast: checked %d of %d checkpoints", v.Checked(), len(rec.Checkpoints))
	}
	for _, hz := range []int{30, 144} {
		frames := simtest.FrameTimes(uint64(hz), hz, 4_000_000_000, 50_000_000)
		for _, loop := range []struct {
			name string
			run  func(simthread.Sim, simthread.Config, []simthread.Event, []int64) (uint64, error)
		}{{"coupled", simtest.Coupled}, {"decoupled", simtest.Decoupled}, {"pipelined", simtest.Pipelined}} {
			got := &simtest.HashSim{}
			v := rec.NewVerifier()
			cfg := rec.Config(v)
			k, err := loop.run(got, cfg, nil, frames)
			if err != nil {
				t.Fatal(err)
			}
			if err := rec.Verify(v, k, got.Hash()); err != nil {
				t.Errorf("%s at %d Hz: %v", loop.name, hz, err)
			}
		}
	}
	_ = st
}

func TestVerifyNamesFirstBadTick(t *testing.T) {
	b, _, _ := recordLive(t)
	rec := read(t, b)
	// Drop one event: the replay goes wrong from its tick on.
	i := len(rec.Events) / 2
	bad := rec.Events[i].Tick
	rec.Events = append(rec.Events[:i:i], rec.Events[i+1:]...)
	got := &simtest.HashSim{}
	v := rec.NewVerifier()
	k, err := replay.Fast(context.Background(), got, rec, v)
	if err != nil {
		t.Fatal(err)
	}
	err = rec.Verify(v, k, got.Hash())
	want, _, ok := v.Mismatch()
	if err == nil || !ok {
		t.Fatal("a replay missing an event verified")
	}
	// The first checkpoint after the lost event's tick.
	if first := (bad/10 + 1) * 10; want.Tick != first {
		t.Errorf("first mismatch at tick %d, want %d (event at tick %d)", want.Tick, first, bad)
	}
	if !strings.Contains(err.Error(), "tick") {
		t.Errorf("error %q does not name the tick", err)
	}
}

func TestCutShort(t *testing.T) {
	// A file cut anywhere inside its chunks reads up to its last whole
	// chunk, says how much it lost, and replays what it has exactly.
	b, _, _ := recordLive(t)
	full := read(t, b)
	headerLen := 8 + 2 + 4 + int(binary.LittleEndian.Uint32(b[10:])) + 4
	var end uint64
	for cut := headerLen; cut < len(b); cut += 97 {
		rec := read(t, b[:cut])
		if rec.End() < end {
			t.Fatalf("cut at %d: ends at tick %d, a shorter cut at %d", cut, rec.End(), end)
		}
		end = rec.End()
		if rec.Complete {
			t.Fatalf("cut at %d: complete", cut)
		}
		if rec.Lost > 0 && rec.LostFrom+rec.Lost != int64(cut) {
			t.Fatalf("cut at %d: lost %d from %d", cut, rec.Lost, rec.LostFrom)
		}
		if len(rec.Events) > len(full.Events) || len(rec.Checkpoints) > len(full.Checkpoints) {
			t.Fatalf("cut at %d: more records than the whole file", cut)
		}
		got := &simtest.HashSim{}
		v := rec.NewVerifier()
		k, err := replay.Fast(context.Background(), got, rec, v)
		if err != nil {
			t.Fatal(err)
		}
		if err := rec.Verify(v, k, got.Hash()); err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
	}
}

func TestCutLosesAtMostTwoFlushes(t *testing.T) {
	// Without its last chunk (the end record's), a recording still
	// replays to within the last flush of the run's end: the 'T' marks
	// say how far the input is complete, checkpoints or not.
	b, _, st := recordLive(t)
	full := read(t, b)
	// The last chunk starts where reading all but its last byte stops.
	cut := read(t, b[:len(b)-1])
	perFlush := uint64(replay.FlushEvery.Seconds()*float64(header.Hz)) + 1
	if lost := st.Ticks - cut.End(); lost > 2*perFlush {
		t.Errorf("the cut file replays to tick %d of %d: %d ticks lost, more than two flushes (%d)", cut.End(), full.Final.Tick, lost, 2*perFlush)
	}
}

func TestBadFiles(t *testing.T) {
	b, _, _ := recordLive(t)
	headerLen := 8 + 2 + 4 + int(binary.LittleEndian.Uint32(b[10:])) + 4
	mod := func(f func(c []byte) []byte) []byte { return f(bytes.Clone(b)) }
	for _, tc := range []struct {
		name   string
		file   []byte
		offset int64
		reason string
	}{
		{"empty", nil, 0, "too short"},
		{"magic", mod(func(c []byte) []byte { c[0] = 'X'; return c }), 0, "not a tandem recording"},
		{"version", mod(func(c []byte) []byte { c[8] = 9; return c }), 8, "unsupported version 9"},
		{"header length", mod(func(c []byte) []byte { binary.LittleEndian.PutUint32(c[10:], 1<<30); return c }), 10, "does not fit"},
		{"header crc", mod(func(c []byte) []byte { c[16]++; return c }), 14, "header CRC"},
		{"chunk crc", mod(func(c []byte) []byte { c[headerLen+30]++; return c }), int64(headerLen), "chunk 0's CRC"},
		{"chunk length", mod(func(c []byte) []byte {
			binary.LittleEndian.PutUint32(c[headerLen:], 1<<31)
			return c
		}), int64(headerLen), "chunk 0's prefix CRC"},
		{"trailing", append(bytes.Clone(b), 1, 2, 3, 4, 5, 6, 7, 8, 9), int64(len(b)), "after the end record"},
	} {
		_, err := replay.Read(bytes.NewReader(tc.file), int64(len(tc.file)), "rec.tdr")
		var re *replay.Error
		if !errors.As(err, &re) {
			t.Errorf("%s: error %v, want a *replay.Error", tc.name, err)
			continue
		}
		if re.File != "rec.tdr" || re.Offset != tc.offset || !strings.Contains(re.Reason, tc.reason) {
			t.Errorf("%s: %v; want byte %d and %q", tc.name, err, tc.offset, tc.reason)
		}
	}
}

func TestCreateAndOpen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.tdr")
	// A symlink at the name is replaced, its target untouched.
	target := filepath.Join(dir, "victim")
	os.WriteFile(target, []byte("mine"), 0o644)
	os.Symlink(target, path)
	w, err := replay.Create(path, header)
	if err != nil {
		t.Fatal(err)
	}
	w.Applied(0, simthread.Event{Time: 5, Kind: simthread.EventButton, Buttons: 1, Down: true})
	w.Checkpoint(10, 0xabc)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	// While the run lasts the recording is PATH.partial-*, readable as a
	// cut file; the name is the symlink still.
	partial, _ := filepath.Glob(path + ".partial-*")
	if len(partial) != 1 {
		t.Fatalf("partial files %v", partial)
	}
	if rec, err := replay.Open(partial[0]); err != nil || len(rec.Checkpoints) != 1 || rec.Complete {
		t.Fatalf("the partial file mid-run: %v %+v", err, rec)
	}
	if err := w.Close(replay.Checkpoint{Tick: 12, Hash: 0xdef}, "signal"); err != nil {
		t.Fatal(err)
	}
	rec, err := replay.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Events) != 1 || rec.Events[0].Event.Buttons != 1 || len(rec.Checkpoints) != 1 || rec.Final.Hash != 0xdef || rec.StoppedBy != "signal" {
		t.Errorf("read back %+v", rec)
	}
	if b, _ := os.ReadFile(target); string(b) != "mine" {
		t.Errorf("the symlink's target now holds %q", b)
	}
	if left, _ := filepath.Glob(path + ".partial-*"); len(left) != 0 {
		t.Errorf("left behind %v", left)
	}
	if _, err := replay.Open(filepath.Join(t.TempDir(), "missing.tdr")); err == nil || !strings.Contains(err.Error(), "missing.tdr") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := replay.Open(t.TempDir()); err == nil {
		t.Error("a directory read as a recording")
	}
	if _, err := replay.Create(filepath.Join(t.TempDir(), "no", "such", "dir.tdr"), header); err == nil {
		t.Error("Create in a missing directory succeeded")
	}
	os.Remove(path)
}

func TestWriterAllocs(t *testing.T) {
	w, err := replay.NewWriter(&bytes.Buffer{}, header)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(replay.Checkpoint{}, "")
	e := simthread.Event{Kind: simthread.EventButton, Buttons: 1}
	// Total mallocs over a thousand records (AllocsPerRun would round a
	// stray one down to zero), the fewest of five tries: the writer's own
	// goroutine may flush in between, and that is not the sim thread.
	n := mallocs.Fewest(5, func() {
		for range 1000 {
			w.Applied(1, e)
			w.Checkpoint(2, 3)
		}
	})
	if n != 0 {
		t.Errorf("%d mallocs for 2000 records on the sim thread", n)
	}
}
