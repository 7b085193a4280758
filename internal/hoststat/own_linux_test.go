package hoststat

import (
	"io"
	"os"
	"syscall"
	"testing"
	"time"
)

func TestParseProcTicks(t *testing.T) {
	// A command whose name holds a space and a parenthesis.
	line := "1234 (a b) c) S 1 1 1 0 -1 4194560 100 0 0 0 7 3 11 2 20 0 1 0 10 1000 10\n"
	if got, ok := parseProcTicks(line); !ok || got != 7+3+11+2 {
		t.Errorf("parseProcTicks = %d, %v; want 23, true", got, ok)
	}
	for _, bad := range []string{"", "1 (x) S 1 2 3", "1 (x) S 1 1 1 0 -1 0 0 0 0 0 a 3 11 2 20"} {
		if _, ok := parseProcTicks(bad); ok {
			t.Errorf("parseProcTicks(%q) ok", bad)
		}
	}
}

// cpuTime returns this process's CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestOwnTicks: a child that spins for 300 ms of CPU time is counted
// while it still runs, and once it has been waited for.
func TestOwnTicks(t *testing.T) {
	if os.Getenv("HOSTSTAT_SPIN") != "" {
		for cpuTime() < 300*time.Millisecond {
		}
		io.Copy(io.Discard, os.Stdin) // until the parent closes it
		return
	}
	before, ok := OwnTicks()
	if !ok {
		t.Fatal("OwnTicks: /proc not read")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := os.StartProcess(exe, []string{exe, "-test.run=^TestOwnTicks$"},
		&os.ProcAttr{Env: append(os.Environ(), "HOSTSTAT_SPIN=1"), Files: []*os.File{r, nil, os.Stderr}})
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	const want = 25 // of the 30 ticks of 10 ms spun
	during := before
	for end := time.Now().Add(30 * time.Second); during-before < want && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
		during, _ = OwnTicks()
	}
	w.Close()
	if _, err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	after, _ := OwnTicks()
	if during-before < want || after-before < want {
		t.Errorf("OwnTicks: %d before, %d while a child that spun 300 ms waited, %d once it exited (ticks of 10 ms): want %d more at least", before, during, after, want)
	}
}
