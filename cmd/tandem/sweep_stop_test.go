package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestMatrixStop(t *testing.T) {
	// SIGTERM to bench -matrix alone (not its group): the running cell is
	// stopped, and the report of the cells done is written, marked
	// interrupted, exit 1.
	if _, err := exec.LookPath("Xvfb"); err != nil {
		t.Skip("no Xvfb")
	}
	bin := filepath.Join(t.TempDir(), "tandem")
	goCmd(t, "build", "-o", bin, "./cmd/tandem")
	out := filepath.Join(t.TempDir(), "mx")
	cmd := exec.Command(bin, "bench", "-matrix", "-reps", "1", "-seconds", "0.5", "-warmup", "0", "-out", out)
	cmd.Env = append(os.Environ(), "DISPLAY=", "WAYLAND_DISPLAY=")
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	defer timer.Stop()
	var stderr strings.Builder
	sc := bufio.NewScanner(pipe)
	for sc.Scan() {
		stderr.WriteString(sc.Text() + "\n")
		if strings.HasPrefix(sc.Text(), "bench: cell 2 of") {
			cmd.Process.Signal(syscall.SIGTERM)
		}
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("after SIGTERM: %v, want exit 1; stderr:\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted by a signal: the report holds the 1 of 36 cells done") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(out, "report.md"))
	// The one cell done (the first of a random order), and no other.
	runs := regexp.MustCompile(`(?m)^\| (coupled|decoupled|pipelined|threaded) \| `).FindAllString(string(b), -1)
	if err != nil || !strings.Contains(string(b), "(interrupted: 1 of 36 cells done)") || len(runs) != 1 {
		t.Fatalf("report.md (%v): %d runs, want 1:\n%s", err, len(runs), b)
	}
}
