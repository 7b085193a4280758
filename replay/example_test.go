package replay_test

import (
	"bytes"
	"context"
	"fmt"

	"github.com/tandem-engine/tandem/replay"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/simthread/simtest"
)

// A recording written by hand, read back and replayed: in a real run the
// loop calls Applied, Checkpoint and Ticked itself (Config.Recorder).
func ExampleRead() {
	var file bytes.Buffer
	h := replay.Header{Scene: "example", Hz: 100, CheckpointEvery: 10, Build: "v1"}
	w, err := replay.NewWriter(&file, h)
	if err != nil {
		panic(err)
	}
	// The player pressed button 1 before tick 3 and let go before tick 8
	// (the loop says so after running each tick up to there).
	w.Applied(3, simthread.Event{Time: 25_000_000, Kind: simthread.EventButton, Buttons: 1, Down: true})
	w.Applied(8, simthread.Event{Time: 75_000_000, Kind: simthread.EventButton, Buttons: 1})
	// A replay must reach these; they come from the live run.
	live := &simtest.HashSim{}
	for k := range 12 {
		in := simthread.TickInput{}
		if k >= 3 && k < 8 {
			in.Down = 1
		}
		if k == 3 {
			in.Pressed = 1
		}
		if k == 8 {
			in.Released = 1
		}
		live.Step(in)
		if k+1 == 10 {
			w.Checkpoint(10, live.Hash())
		}
	}
	if err := w.Close(replay.Checkpoint{Tick: 12, Hash: live.Hash()}, "seconds"); err != nil {
		panic(err)
	}

	rec, err := replay.Read(bytes.NewReader(file.Bytes()), int64(file.Len()), "example.tdr")
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s at %d Hz: %d events, %d checkpoint, ends at tick %d (%s)\n",
		rec.Header.Scene, rec.Header.Hz, len(rec.Events), len(rec.Checkpoints), rec.End(), rec.StoppedBy)
	sim := &simtest.HashSim{}
	v := rec.NewVerifier()
	ticks, _ := replay.Fast(context.Background(), sim, rec, v)
	fmt.Println("replayed", ticks, "ticks:", rec.Verify(v, ticks, sim.Hash()))
	// Output:
	// example at 100 Hz: 2 events, 1 checkpoint, ends at tick 12 (seconds)
	// replayed 12 ticks: <nil>
}
