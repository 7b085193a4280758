//go:build cgo

package scene

import (
	"fmt"
	"os"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/tandem-engine/tandem"
	"github.com/tandem-engine/tandem/audio"
	"github.com/tandem-engine/tandem/internal/soundtest"
	"github.com/tandem-engine/tandem/simthread"
	"github.com/tandem-engine/tandem/snapshot"
)

// TestExamplesHeard plays each demo game for 3 seconds in real time into
// a PulseAudio null sink, its ticks' sounds fed to the device as a loop
// feeds them, and finds its sounds in the recorded monitor. The
// platformer and the shooter, whose sounds are only found, play side by
// side after the bunnymark, whose clicks' gaps are timed; each has a
// server of its own (a monitor records every client of its sink).
func TestExamplesHeard(t *testing.T) {
	for _, g := range []string{"bunnymark", "platformer", "shooter"} {
		t.Run(g, func(t *testing.T) {
			if g != "bunnymark" {
				t.Parallel()
			}
			s := soundtest.Start(t)
			soundtest.Child(t, "TestHeardChild", append(s.Env(), "TANDEM_TEST_GAME="+g)...)
		})
	}
}

func TestHeardChild(t *testing.T) {
	soundtest.InChild(t)
	const hz, seconds = 60, 3
	game := os.Getenv("TANDEM_TEST_GAME")
	var g tandem.Game
	var in func(k int) simthread.TickInput
	switch game {
	case "platformer":
		g, in = NewPlatformer(), hold(buttons(tandem.Right, tandem.Jump), 30, 60)
	case "shooter":
		g, in = NewShooter(), hold(buttons(tandem.Jump), 30, 90)
	default:
		g, in = NewBunnymark(), hold(0, 0, 0)
	}
	sim := newSim(t, g, tandem.SimConfig{Hz: hz, Seed: 1, Sprites: 50, Width: 640, Height: 360})
	names := map[uint16]string{}
	for i, snd := range sim.Sounds() {
		names[uint16(i)] = strings.TrimSuffix(path.Base(snd.Name), ".wav")
	}
	out, err := audio.Open(sim.Sounds(), audio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	offset := out.SetOffset(out.Latency() + 30*time.Millisecond)
	for deadline := time.Now().Add(10 * time.Second); out.Stats().Frames < soundtest.Rate && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	stop := soundtest.Record(t)
	time.Sleep(300 * time.Millisecond)

	var snap snapshot.Snapshot
	played := map[string][]int64{} // by sound, the instants aimed at
	t0 := snapshot.Now()
	for k := 1; k <= hz*seconds; k++ {
		at := t0 + int64(k)*1e9/hz
		for snapshot.Now() < at {
			time.Sleep(time.Millisecond)
		}
		sim.Step(in(k))
		sim.Publish(&snap)
		snap.Tick, snap.Time = uint64(k), at
		out.Feed(&snap)
		for _, e := range snap.Sounds.List[:snap.Sounds.N] {
			if e.Op == uint8(audio.OpPlay) || e.Op == uint8(audio.OpMusic) {
				played[names[e.Sound]] = append(played[names[e.Sound]], at+int64(offset))
			}
		}
	}
	// The device pulls at the sound server's pace, which a loaded machine
	// slows: wait until it has started every sound fed (at most 10 s),
	// then for the last one to be heard.
	for deadline := time.Now().Add(10 * time.Second); out.Stats().Started < int64(countAll(played)) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(offset + 500*time.Millisecond)
	rec := stop()
	st := out.Stats()
	t.Logf("%s played %v; recorded %.2f s, peak %.2f; stats %+v", game, keys(played), float64(len(rec)/2)/soundtest.Rate, soundtest.Peak(rec), st)
	if soundtest.Peak(rec) < 0.05 {
		t.Fatalf("%s: nothing heard", game)
	}
	// The script reaches every sound of each game: the platformer's run
	// and jump take a coin and land; the shooter's shots hit.
	want := map[string][]string{"platformer": {"music", "jump", "land", "coin"}, "shooter": {"shot", "hit"}, "bunnymark": {"click"}}[game]
	for _, name := range want {
		if len(played[name]) == 0 {
			t.Errorf("%s played no %s", game, name)
		}
	}
	if st.Started != int64(countAll(played)) {
		t.Errorf("%d sounds started of %d played", st.Started, countAll(played))
	}
	if game == "bunnymark" {
		// Its clicks, once a second, are alone: each gap is a second to
		// the sample, unless the device ran dry between two of them.
		on := soundtest.Onsets(rec, 0.2, soundtest.Rate/4)
		var wrong []string
		if len(on) != len(played["click"]) { // one heard after the recording's end
			wrong = append(wrong, fmt.Sprintf("%d clicks in the recording, %d played", len(on), len(played["click"])))
		}
		for i := 1; i < len(on); i++ {
			if gap := on[i] - on[i-1]; gap < soundtest.Rate-1 || gap > soundtest.Rate+1 {
				wrong = append(wrong, fmt.Sprintf("clicks %d and %d are %d frames apart; want %d", i-1, i, gap, soundtest.Rate))
			}
		}
		if len(wrong) > 0 {
			t.Log(strings.Join(wrong, "\n"))
			soundtest.Underran(t, st.Underruns)
			t.Error("with no underrun")
		}
	}
}

func keys(m map[string][]int64) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		out[k] = len(v)
	}
	return out
}

func countAll(m map[string][]int64) int {
	n := 0
	for _, v := range m {
		n += len(v)
	}
	return n
}
