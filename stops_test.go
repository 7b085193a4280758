//go:build cgo && linux

package tandem

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/app"
	"github.com/tandem-engine/tandem/internal/jsonline"
	"github.com/tandem-engine/tandem/replay"
)

// The stops and outputs of issue 29: how a run ends however it is
// stopped, and what it leaves under its outputs' names.

func TestGroupKill(t *testing.T) {
	// coreutils' timeout sends SIGTERM to tandem and then to its process
	// group: the two deliveries are one stop, not a user's second Ctrl-C.
	// Twenty runs, four at a time (each on its own Xvfb), every one prints
	// the summary. It tests the stop, not a race, and each run is a child
	// process: make test runs it once, without -race.
	if raceEnabled {
		t.Skip("twenty child processes, which test the stop, not a race: make test runs it without -race")
	}
	childMain()
	if _, err := exec.LookPath("timeout"); err != nil {
		t.Skip("no timeout command")
	}
	probe := childCmd(t, "TestGroupKill") // skips without Xvfb
	errs := make(chan error, 20)
	sem := make(chan struct{}, 4)
	for i := range 20 {
		go func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			cmd := exec.Command("timeout", "3", os.Args[0], "-test.run=^TestGroupKill$")
			// At a display's 60 frames a second: uncapped on Xvfb, four
			// runs at once take every core from the tests beside them.
			cmd.Env = append(probe.Env[:len(probe.Env)-1], "TANDEM_TEST_ARGS=-scene dots -sprites 200 -fps-cap 60 -json")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			switch {
			case err != nil && (!errors.As(err, &exit) || exit.ExitCode() != 124):
				errs <- fmt.Errorf("run %d: %v (want timeout's 124); stderr:\n%s", i, err, stderr.String())
			case !strings.Contains(stdout.String(), `"stopped_by":"signal"`) || strings.Contains(stderr.String(), "second"):
				errs <- fmt.Errorf("run %d: no summary after timeout's group kill:\n%s\nstderr:\n%s", i, stdout.String(), stderr.String())
			default:
				errs <- nil
			}
		}()
	}
	for range 20 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestSIGHUP(t *testing.T) {
	// A closed terminal or a dropped ssh: SIGHUP stops the run as SIGTERM
	// does, with the summary and a recording that verifies to its end.
	childMain()
	rec := filepath.Join(t.TempDir(), "hup.tdr")
	cmd, stdout, stderr := childRecording(t, "TestSIGHUP", rec, "-scene", "dots", "-sprites", "20", "-seconds", "60", "-json", "-autoplay")
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after SIGHUP: %v; stderr:\n%s", err, stderr)
	}
	line := strings.TrimSpace(stdout.String())
	if !strings.Contains(line, `"stopped_by":"signal"`) {
		t.Fatalf("summary %q; stderr:\n%s", line, stderr)
	}
	verifiesToEnd(t, rec, line)
}

func TestSecondSignalDuringFinalWrites(t *testing.T) {
	if raceEnabled {
		t.Skip("eight child processes, which test the stop, not a race: make test runs it without -race")
	}
	// A second Ctrl-C while the screenshot, the profiles, the trace and the
	// recording are being written: whatever the moment, each name holds a
	// whole file or nothing, and no temporary file is left but the
	// recording's partial one (which the exit names).
	childMain()
	for _, after := range []time.Duration{10, 100, 200, 250, 300, 350, 450, 600} {
		t.Run(fmt.Sprint(after*time.Millisecond), func(t *testing.T) {
			dir := t.TempDir()
			rec := filepath.Join(dir, "run.tdr")
			names := map[string]string{"shot": "big.png", "cpu": "big.prof", "mem": "mem.prof", "trace": "run.trace"}
			for k, n := range names {
				names[k] = filepath.Join(dir, n)
			}
			cmd, _, stderr := childRecording(t, "TestSecondSignalDuringFinalWrites", rec, "-scene", "dots", "-sprites", "2000",
				"-seconds", "60", "-json", "-screenshot", names["shot"], "-cpuprofile", names["cpu"],
				"-memprofile", names["mem"], "-trace", names["trace"])
			syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
			time.Sleep(app.Coalesce + after*time.Millisecond)
			syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
			// Exit 0 (the stop ended first), 130 (the second Ctrl-C came
			// during the final writes), or killed by SIGINT: once every
			// output is written the run stops watching for signals, and a
			// Ctrl-C in the moment before the process exits ends it as it
			// ends any program. Whichever, the files below must be whole.
			err := cmd.Wait()
			var exit *exec.ExitError
			if err != nil && (!errors.As(err, &exit) || exit.ExitCode() != 130 && !killedBy(exit, syscall.SIGINT)) {
				t.Fatalf("exit %v, want 0, 130 or SIGINT; stderr:\n%s", err, stderr)
			}
			var left []string
			if ents, _ := os.ReadDir(dir); ents != nil {
				for _, e := range ents {
					left = append(left, e.Name())
				}
			}
			t.Logf("exit %v; left %v", err, left)
			if f, err := os.Open(names["shot"]); err == nil {
				if _, err := png.Decode(f); err != nil {
					t.Errorf("%s is not a whole PNG: %v", names["shot"], err)
				}
				f.Close()
			}
			for _, n := range []string{names["cpu"], names["mem"]} {
				if f, err := os.Open(n); err == nil {
					z, err := gzip.NewReader(f)
					if err == nil {
						_, err = io.Copy(io.Discard, z)
					}
					if err != nil {
						t.Errorf("%s is not a whole profile: %v", n, err)
					}
					f.Close()
				}
			}
			if b, err := os.ReadFile(names["trace"]); err == nil && !bytes.HasPrefix(b, []byte("go 1.")) {
				t.Errorf("%s is not a trace: %.20q", names["trace"], b)
			}
			if _, err := os.Stat(rec); err == nil {
				r, err := replay.Open(rec)
				if err != nil || r.Cut != nil || !r.Complete {
					t.Errorf("%s is not a whole recording: %v", rec, err)
				}
			}
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				n := e.Name()
				if strings.HasPrefix(n, ".") {
					t.Errorf("temporary file left: %s", n)
				}
				if strings.HasPrefix(n, "run.tdr.partial-") && !strings.Contains(stderr.String(), n) {
					t.Errorf("the partial recording %s is not named on stderr:\n%s", n, stderr)
				}
			}
		})
	}
}

// killedBy reports whether the process of exit ended by signal sig.
func killedBy(exit *exec.ExitError, sig syscall.Signal) bool {
	ws, ok := exit.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == sig
}

func TestRecordDevNull(t *testing.T) {
	// /dev/null is an output like a file: written directly, exit 0.
	needDisplay(t)
	code, out, errs := tandemMain("run", "-seconds", "0.3", "-sprites", "10", "-json", "-record", os.DevNull, "-cpuprofile", os.DevNull)
	if code != 0 || !strings.Contains(out, `"record":"/dev/null"`) || strings.Contains(out, "record_error") {
		t.Fatalf("-record /dev/null: exit %d, %s\n%s", code, out, errs)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is no longer a device: %v", err)
	}
}

func TestJSONOnEveryExit(t *testing.T) {
	// With -json a script always reads one JSON object, with error when
	// the run failed: a cut recording under -verify, a file that is no
	// recording, a bad flag.
	needDisplay(t)
	dir := t.TempDir()
	rec := filepath.Join(dir, "run.tdr")
	if code, _, errs := tandemMain("run", "-seconds", "1.2", "-autoplay", "-record", rec); code != 0 {
		t.Fatalf("recording: exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.tdr")
	os.WriteFile(cut, b[:len(b)-10], 0o644)
	junk := filepath.Join(dir, "junk.tdr")
	os.WriteFile(junk, []byte("not a recording"), 0o644)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"replay", "-json", "-verify", cut}, 1, "cut short"},
		{[]string{"replay", "-json", "-fast", "-verify", cut}, 1, "cut short"},
		{[]string{"replay", "-fast", "-json", junk}, 1, "junk.tdr"},
		{[]string{"run", "-json", "-sprites", "-5"}, 2, "-sprites -5 (Config.Sprites): want 0 to 1000000"},
	} {
		code, out, errs := tandemMain(tc.args...)
		line := strings.TrimSpace(out)
		if code != tc.code || strings.Count(line, "\n") != 0 {
			t.Errorf("%v: exit %d, stdout %q; want exit %d and one line\n%s", tc.args, code, out, tc.code, errs)
			continue
		}
		if msg, _ := jsonline.Field(t, line, "error").(string); !strings.Contains(msg, tc.want) {
			t.Errorf("%v: error %q, want it to say %q", tc.args, msg, tc.want)
		}
	}
}
