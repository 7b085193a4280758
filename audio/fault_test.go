//go:build cgo && unix

package audio

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/soundtest"
	"github.com/tandem-engine/tandem/snapshot"
)

// TestServerFaults: the sound server fails while an Output plays on it.
// Killed (kill -9) and started again: the loss is said once, the output
// reconnects and plays on. Stopped (SIGSTOP) and resumed: the stall is
// said once, and then the resumption. Stopped until the end: Close still
// returns, within its bounded waits. In each, the summary's device line
// says what happened and when.
func TestServerFaults(t *testing.T) {
	for _, mode := range []string{"kill", "stop", "stop-to-end"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel() // a server and a child process each: they mostly wait
			s := soundtest.Start(t)
			ready := filepath.Join(t.TempDir(), "ready")
			cmd := exec.Command(os.Args[0], "-test.run=^TestServerFaultsChild$", "-test.v", "-test.count=1")
			cmd.Env = append(os.Environ(), append(s.Env(), "TANDEM_AUDIO_CHILD=1", "TANDEM_TEST_FAULT="+mode, "TANDEM_TEST_READY="+ready)...)
			var out strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waited := make(chan error, 1)
			go func() { waited <- cmd.Wait() }()
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if _, err := os.Stat(ready); err == nil {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					<-waited
					t.Fatalf("the child did not start playing in 10 s:\n%s", out.String())
				}
			}
			time.Sleep(time.Second)
			switch mode {
			case "kill":
				s.Kill()
				time.Sleep(2 * time.Second)
				s.Restart(t)
			case "stop":
				s.Signal(syscall.SIGSTOP)
				time.Sleep(2500 * time.Millisecond)
				s.Signal(syscall.SIGCONT)
			case "stop-to-end":
				s.Signal(syscall.SIGSTOP)
			}
			var err error
			select {
			case err = <-waited:
			case <-time.After(40 * time.Second):
				cmd.Process.Kill()
				err = <-waited
			}
			t.Logf("child:\n%s", out.String())
			if err != nil || !strings.Contains(out.String(), "--- PASS") {
				t.Fatalf("child: %v", err)
			}
		})
	}
}

// syncBuffer is stderr for a test, written by the watcher and read by
// the test.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func TestServerFaultsChild(t *testing.T) {
	soundtest.InChild(t)
	mode := os.Getenv("TANDEM_TEST_FAULT")
	var notice syncBuffer
	out, err := open([]*Sound{click()}, Options{}, &notice)
	if err != nil {
		t.Fatal(err)
	}
	out.SetOffset(out.Latency())
	for deadline := time.Now().Add(5 * time.Second); out.Stats().Frames == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	os.WriteFile(os.Getenv("TANDEM_TEST_READY"), nil, 0o644)

	// A click every 100 ms, from this goroutine (the one producer), until
	// the fault has come and gone (or, stopped to the end, has come).
	want := map[string][]string{
		"kill":        {"the sound server was lost at", "the sound server is back at"},
		"stop":        {"the sound server took no sound from", "the sound server takes sound again at"},
		"stop-to-end": {"the sound server took no sound from"},
	}[mode]
	var backFrames int64 = -1
	deadline := time.Now().Add(25 * time.Second)
	for k := uint64(1); time.Now().Before(deadline); k++ {
		out.Push(Event{Op: OpPlay, Sound: 0, Volume: 0.5, Tick: k, Time: snapshot.Now()})
		time.Sleep(100 * time.Millisecond)
		said := notice.String()
		if !strings.Contains(said, want[len(want)-1]) {
			continue
		}
		if mode == "stop-to-end" {
			break
		}
		if backFrames < 0 {
			backFrames = out.Stats().Frames
		}
		if out.Stats().Frames-backFrames > soundtest.Rate/2 { // half a second played since
			break
		}
	}
	begin := time.Now()
	out.Close()
	out.Close()
	// Close's waits are each bounded, one after another: the watcher's
	// (stopWait + pulseTimeout, when it is inside a request to the
	// stalled server), the timing reader's and oto's reader's (stopWait
	// each). A stalled server can hold all three.
	if el, limit := time.Since(begin), 3*stopWait+pulseTimeout+500*time.Millisecond; el > limit {
		t.Errorf("Close took %v; its bounded waits allow %v", el, limit)
	}
	said := notice.String()
	t.Logf("stderr:\n%s", said)
	for _, w := range want {
		if n := strings.Count(said, w); n != 1 {
			t.Errorf("stderr says %q %d times; want once", w, n)
		}
	}
	if mode != "stop-to-end" && (backFrames < 0 || out.Stats().Frames-backFrames < soundtest.Rate/2) {
		t.Errorf("the device took %d frames after it came back; want half a second", out.Stats().Frames-backFrames)
	}
	st := out.Stats()
	t.Logf("stats: %+v", st)
	wantDev := map[string][]string{
		"kill":        {"server lost at", "reconnected at"},
		"stop":        {"stalled at", "resumed at"},
		"stop-to-end": {"stalled at"},
	}[mode]
	for _, w := range wantDev {
		if !strings.Contains(st.Device, w) {
			t.Errorf("the summary's device %q does not say %q", st.Device, w)
		}
	}
}
