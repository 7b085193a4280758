//go:build cgo && linux

package tandem

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/jsonline"
)

func TestStuckTick(t *testing.T) {
	// A tick that never ends (a stall of a minute in the first tick after
	// a second): -seconds 2 still ends the run within 10 s, exit 1, with
	// the summary, which names the tick the sim was stuck in, and a
	// recording cut there that verifies as far as it goes. In the
	// decoupled loop the frames go on and the wait for the sim has a
	// bound; in the coupled loop the tick is the main thread's, and the
	// watchdog ends the run a stop's grace after -seconds; in the
	// pipelined loop the main thread waits for the stuck tick, and the
	// watchdog's wait for the sim is short (the threaded loop's frames go
	// on as the decoupled loop's do). The summary's error says so. It
	// reads the stuck threads' records without a lock, which the race
	// detector rightly calls a race: make test runs this without it.
	if raceEnabled {
		t.Skip("reads a stuck thread's records without a lock; make test runs it without -race")
	}
	childMain()
	for _, loop := range []string{"decoupled", "coupled", "pipelined"} {
		t.Run(loop, func(t *testing.T) {
			// Side by side: each waits on its watchdog's timers, which a
			// spinning tick in the other process does not hold up.
			t.Parallel()
			rec := filepath.Join(t.TempDir(), "stuck.tdr")
			cmd, stdout, stderr := childRecording(t, "TestStuckTick", rec, "-loop", loop, "-scene", "dots", "-sprites", "20",
				"-seconds", "2", "-json", "-hitch", "sim:1s:1m")
			began := time.Now()
			line := failedWithSummary(t, cmd, stdout, stderr, 20*time.Second, "seconds", "stuck")
			el := time.Since(began)
			t.Logf("ended %v after it began", el.Round(100*time.Millisecond))
			if el > 10*time.Second {
				t.Errorf("the run ended %v after it began: want within 10 s of -seconds 2", el.Round(100*time.Millisecond))
			}
			stuck, ok := jsonline.Field(t, line, "sim_stuck_at_tick").(float64)
			if !ok || stuck < 30 || strings.Contains(line, `"state_hash":"0`) {
				t.Fatalf("summary %s: want sim_stuck_at_tick near tick 60 and no state hash", line)
			}
			if e, _ := jsonline.Field(t, line, "error").(string); !strings.Contains(e, "stuck inside a tick") {
				t.Errorf("summary's error %q: want it to say the sim was stuck inside a tick", e)
			}
			code, out, errs := tandemMain("replay", "-fast", "-verify", "-allow-cut", "-json", rec)
			if code != 0 || jsonline.Field(t, strings.TrimSpace(out), "ticks").(float64) > stuck {
				t.Fatalf("replay -verify -allow-cut: exit %d, %s: want the ticks up to %v verified:\n%s", code, out, stuck, errs)
			}
		})
	}
}
