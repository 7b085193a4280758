//go:build cgo && linux

package tandem

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/jsonline"
	"github.com/tandem-engine/tandem/replay"
)

// tandemMain runs the command line on the main thread and returns its exit
// code, stdout and stderr.
func tandemMain(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := 0
	onMain(func() { code = Command(args, &stdout, &stderr, testGames...) })
	return code, stdout.String(), stderr.String()
}

func TestRecordReplayEveryLoop(t *testing.T) {
	// A live run with input, recorded in the decoupled loop, replays to
	// the same final state hash in every loop and with -fast, and -verify
	// checks every checkpoint on the way.
	needDisplay(t)
	rec := filepath.Join(t.TempDir(), "run.tdr")
	// 1.2 s: checkpoints at ticks 0 and 60, and autoplay's keys (right,
	// and a jump pressed, released at 0.35 s and pressed again at 0.9 s).
	code, out, errs := tandemMain("run", "-seconds", "1.2", "-autoplay", "-record", rec, "-json")
	if code != 0 {
		t.Fatalf("record: exit %d: %s", code, errs)
	}
	hash := jsonline.Field(t, out, "state_hash")
	r, err := replay.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete || r.StoppedBy != "seconds" || len(r.Events) < 4 || len(r.Checkpoints) < 2 {
		t.Fatalf("recording: complete %v, stopped by %q, %d events, %d checkpoints", r.Complete, r.StoppedBy, len(r.Events), len(r.Checkpoints))
	}
	code, out, errs = tandemMain("replay", "-fast", "-verify", "-json", rec)
	if code != 0 || jsonline.Field(t, out, "state_hash") != hash || jsonline.Field(t, out, "verified") != true {
		t.Fatalf("replay -fast: exit %d, %s; stderr: %s", code, out, errs)
	}
	// Every loop, and the decoupled loop at a render rate of its own (a
	// 30 Hz cap, half the tick rate): the render rate decides nothing.
	for _, args := range [][]string{{"-loop", string(Coupled)}, {"-loop", string(Decoupled)}, {"-loop", string(Pipelined)}, {"-loop", string(Threaded)}, {"-fps-cap", "30"}} {
		loop := strings.Join(args, " ")
		code, out, errs := tandemMain(append([]string{"replay", "-verify", "-json"}, append(args, rec)...)...)
		if code != 0 {
			t.Fatalf("replay -loop %s: exit %d: %s", loop, code, errs)
		}
		if got := jsonline.Field(t, out, "state_hash"); got != hash {
			t.Errorf("replay -loop %s: state hash %v, recorded %v", loop, got, hash)
		}
		if got := jsonline.Field(t, out, "stopped_by"); got != "end" {
			t.Errorf("replay -loop %s: stopped by %v", loop, got)
		}
		rep := jsonline.Field(t, out, "replay").(map[string]any)
		if rep["verified"] != true || rep["checkpoints_checked"].(float64) != float64(len(r.Checkpoints)) {
			t.Errorf("replay -loop %s: %v", loop, rep)
		}
	}
}

// recordBunnies writes a short recording without a window: the bunnymark
// stepped by replay.Fast's machinery is not a recording, so this one
// comes from a real run. Skips like needDisplay.
func recordBunnies(t *testing.T) string {
	t.Helper()
	needDisplay(t)
	rec := filepath.Join(t.TempDir(), "bunnies.tdr")
	if code, _, errs := tandemMain("bench", "-scene", "dots", "-sprites", "300", "-seconds", "1.5", "-warmup", "0", "-record", rec); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errs)
	}
	return rec
}

func TestReplayBadFiles(t *testing.T) {
	rec := recordBunnies(t)
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// The bench presses its button every 250 ms: the file has events.
	cut := write("cut.tdr", b[:len(b)-7])
	// -verify of a cut file fails: it cannot check what the file
	// promised; -allow-cut checks what it holds. The warning states the
	// loss in ticks, never a guess.
	code, _, errs := tandemMain("replay", "-fast", "-verify", cut)
	if code != 1 || !strings.Contains(errs, "cut short") || !strings.Contains(errs, "add -allow-cut") || strings.Contains(errs, "at most") {
		t.Errorf("cut file, -verify: exit %d: %s", code, errs)
	}
	code, _, errs = tandemMain("replay", "-fast", "-verify", "-allow-cut", cut)
	if code != 0 || !strings.Contains(errs, "the file ends at tick") || !strings.Contains(errs, "no final state") {
		t.Errorf("cut file, -verify -allow-cut: exit %d: %s", code, errs)
	}
	// A file cut inside its first chunk holds no checkpoint: nothing to
	// verify, with or without -allow-cut, and nothing to replay in a
	// window.
	empty := write("empty.tdr", b[:100]) // the header and part of the first chunk
	for _, args := range [][]string{{"-fast", "-verify"}, {"-fast", "-verify", "-allow-cut"}} {
		code, _, errs = tandemMain(append(append([]string{"replay"}, args...), empty)...)
		if code != 1 || !strings.Contains(errs, "nothing to check") {
			t.Errorf("no checkpoint, %v: exit %d: %s", args, code, errs)
		}
	}
	bad := bytes.Clone(b)
	bad[len(b)/2] ^= 0xff
	code, _, errs = tandemMain("replay", "-fast", write("bad.tdr", bad))
	if code != 1 || !strings.Contains(errs, "bad.tdr: byte ") || !strings.Contains(errs, "corrupt") {
		t.Errorf("corrupt file: exit %d: %s", code, errs)
	}
	ver := bytes.Clone(b)
	ver[8] = 7
	code, _, errs = tandemMain("replay", write("v7.tdr", ver))
	if code != 1 || !strings.Contains(errs, "v7.tdr: byte 8: unsupported version 7") {
		t.Errorf("version 7: exit %d: %s", code, errs)
	}
	code, _, errs = tandemMain("replay", "-fast", filepath.Join(dir, "typo.tdr"))
	if code != 1 || !strings.Contains(errs, "typo.tdr") {
		t.Errorf("missing file: exit %d: %s", code, errs)
	}
	code, _, errs = tandemMain("replay", "-sprites", "10", rec)
	if code != 2 || !strings.Contains(errs, "-sprites: a replay takes its world") {
		t.Errorf("-sprites: exit %d: %s", code, errs)
	}
	code, _, errs = tandemMain("run", "-seconds", "1", "-record", filepath.Join(dir, "no", "such.tdr"))
	if code != 2 || !strings.Contains(errs, "-record") || !strings.Contains(errs, "does not exist") {
		t.Errorf("-record into a missing directory: exit %d: %s", code, errs)
	}
}

func TestReplayOnAnotherLevel(t *testing.T) {
	needDisplay(t)
	rec := filepath.Join(t.TempDir(), "run.tdr")
	if code, _, errs := tandemMain("run", "-seconds", "0.5", "-record", rec); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errs)
	}
	lv := filepath.Join(t.TempDir(), "other.txt")
	if err := os.WriteFile(lv, []byte("##########\n#P.......#\n##########\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := tandemMain("replay", "-fast", "-level", lv, rec)
	if code != 1 || !strings.Contains(errs, "recorded on another level") || !strings.Contains(errs, "run.tdr: byte ") {
		t.Errorf("another level: exit %d: %s", code, errs)
	}
}

func TestRecordSurvivesKill(t *testing.T) {
	// kill -9 runs no cleanup: the recording, left under its partial name
	// (the name itself is never half a recording), holds every whole chunk
	// written before, at most half a second short, and replays exactly.
	childMain()
	rec := filepath.Join(t.TempDir(), "killed.tdr")
	// Killed once the recording holds its first chunk, and a second on:
	// a fixed wait from the start was too short on a loaded machine,
	// where the child's Xvfb and window take seconds.
	cmd, _, stderr := childRecording(t, "TestRecordSurvivesKill", rec, "-scene", "dots", "-sprites", "200", "-seconds", "60", "-autoplay")
	time.Sleep(time.Second)
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if _, err := os.Stat(rec); err == nil {
		t.Fatalf("%s exists after kill -9: a cut recording under the final name", rec)
	}
	rec = partialOf(t, rec)
	r, err := replay.Open(rec)
	if err != nil {
		t.Fatalf("%v; stderr:\n%s", err, stderr)
	}
	if r.Complete || r.End() < 30 {
		t.Fatalf("complete %v, %d ticks: want a cut recording of over half a second", r.Complete, r.End())
	}
	code, _, errs := tandemMain("replay", "-fast", "-verify", "-allow-cut", rec)
	if code != 0 || !strings.Contains(errs, "cut short") {
		t.Fatalf("replay: exit %d: %s", code, errs)
	}
}

func TestRecordOnSignal(t *testing.T) {
	// SIGTERM finishes the recording with its end record and final hash.
	childMain()
	rec := filepath.Join(t.TempDir(), "term.tdr")
	cmd, stdout, stderr := childRun(t, "TestRecordOnSignal", "-seconds", "60", "-autoplay", "-json", "-record", rec)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after SIGTERM: %v; stderr:\n%s", err, stderr)
	}
	r, err := replay.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete || r.StoppedBy != "signal" {
		t.Fatalf("complete %v, stopped by %q", r.Complete, r.StoppedBy)
	}
	hash := jsonline.Field(t, stdout.String(), "state_hash")
	code, out, errs := tandemMain("replay", "-fast", "-verify", "-json", rec)
	if code != 0 || jsonline.Field(t, out, "state_hash") != hash {
		t.Fatalf("replay: exit %d, %s (recorded %v); stderr: %s", code, out, hash, errs)
	}
}
