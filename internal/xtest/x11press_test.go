//go:build linux && cgo && !wayland

package xtest

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tandem-engine/tandem/internal/mallocs"
	"github.com/tandem-engine/tandem/snapshot"
)

// TestRunnerAllocatesNothing counts every allocation of the process
// (MemStats.Mallocs, not AllocsPerRun's rounded mean) while a Runner
// presses and releases a key every millisecond or two on a real server:
// the bench's allocs_per_frame counts the presser's, and a frame's must
// read zero. The runtime itself allocates now and then (a new OS thread
// when the locked runner's is preempted: seven objects), so the test
// passes on the first of five windows of 300 ms (each of 20 edges or more
// on a loaded machine, 150 on an idle one) that counts none; an edge that
// allocated (xgb's made six) would count in every window.
func TestRunnerAllocatesNothing(t *testing.T) {
	name, _ := privateXvfb(t)
	in, err := Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	r, err := in.Start(Schedule{Seed: 1, MinGap: time.Millisecond, MaxGap: 2 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	// The test sleeps in the kernel, not on a Go timer, whose heap the
	// runtime grows now and then.
	sleep := func(d time.Duration) {
		ts := unix.NsecToTimespec(int64(d))
		for unix.Nanosleep(&ts, &ts) == unix.EINTR {
		}
	}
	sleep(200 * time.Millisecond) // the runner's first edges, its thread
	type window struct {
		from, to int64
		mallocs  uint64
	}
	var windows [5]window
	n := 0
	for n < len(windows) {
		w := &windows[n]
		w.mallocs = mallocs.Count(func() {
			w.from = snapshot.Now()
			sleep(300 * time.Millisecond)
			w.to = snapshot.Now()
		})
		n++
		if w.mallocs == 0 {
			break
		}
	}
	events, err := r.Stop()
	if err != nil {
		t.Fatal(err)
	}
	var report []string
	for _, w := range windows[:n] {
		edges := 0
		for _, e := range events {
			if e.At >= w.from && e.Acked <= w.to {
				edges++
			}
		}
		if edges < 20 {
			t.Fatalf("the runner sent %d edges in 300 ms with gaps of 1 to 2 ms: too few to count on", edges)
		}
		report = append(report, fmt.Sprintf("%d over %d edges", w.mallocs, edges))
	}
	if windows[n-1].mallocs != 0 {
		t.Errorf("allocations in the process in each window of 300 ms: %s; want a window with none", strings.Join(report, ", "))
	}
	t.Logf("allocations: %s", strings.Join(report, ", "))
}

func TestPresserRefusedKeyKeepsConnection(t *testing.T) {
	name, _ := privateXvfb(t)
	in, err := Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	// Keycode 1 is below every server's minimum (8): BadValue.
	if _, err := in.x.fake(1, true); err == nil || !strings.Contains(err.Error(), "refused the fake key event on keycode 1") {
		t.Errorf("a press on keycode 1 gave %v, want the server's refusal", err)
	}
	// The answers stay in step: the next edges work.
	for _, send := range []func(Keysym) (Stamp, error){in.Press, in.Release} {
		st, err := send(DefaultKey)
		if err != nil {
			t.Fatalf("an edge after a refused one: %v", err)
		}
		if st.At <= 0 || st.Acked < st.At {
			t.Errorf("stamp %+v: Acked must follow At", st)
		}
	}
}

func TestDisplayAddr(t *testing.T) {
	for _, c := range []struct{ display, network, addr, host, num string }{
		{":99", "unix", "/tmp/.X11-unix/X99", "", "99"},
		{":0.1", "unix", "/tmp/.X11-unix/X0", "", "0"},
		{"unix:3", "unix", "/tmp/.X11-unix/X3", "", "3"},
		{"/tmp/launch-1/org.x:0", "unix", "/tmp/launch-1/org.x:0", "", "0"},
		{"example.org:2.0", "tcp", "example.org:6002", "example.org", "2"},
		{"tcp/example.org:1", "tcp", "example.org:6001", "example.org", "1"},
	} {
		network, addr, host, num, err := displayAddr(c.display)
		if err != nil || network != c.network || addr != c.addr || host != c.host || num != c.num {
			t.Errorf("displayAddr(%q) = %q %q %q %q %v, want %q %q %q %q", c.display, network, addr, host, num, err,
				c.network, c.addr, c.host, c.num)
		}
	}
	for _, bad := range []string{"", "99", ":", ":x", ":-1"} {
		if _, _, _, _, err := displayAddr(bad); err == nil {
			t.Errorf("displayAddr(%q) gave no error", bad)
		}
	}
}

func TestAuthority(t *testing.T) {
	host, _ := os.Hostname()
	cookie := []byte("0123456789abcdef")
	entry := func(family uint16, addr, num, name string, data []byte) []byte {
		b := binary.BigEndian.AppendUint16(nil, family)
		for _, f := range [][]byte{[]byte(addr), []byte(num), []byte(name), data} {
			b = binary.BigEndian.AppendUint16(b, uint16(len(f)))
			b = append(b, f...)
		}
		return b
	}
	var file []byte
	file = append(file, entry(256, "elsewhere", "99", "MIT-MAGIC-COOKIE-1", []byte("wrong host......"))...)
	file = append(file, entry(256, host, "98", "MIT-MAGIC-COOKIE-1", []byte("wrong display..."))...)
	file = append(file, entry(256, host, "99", "XDM-AUTHORIZATION-1", []byte("other protocol.."))...)
	file = append(file, entry(256, host, "99", "MIT-MAGIC-COOKIE-1", cookie)...)
	path := filepath.Join(t.TempDir(), "Xauthority")
	if err := os.WriteFile(path, file, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XAUTHORITY", path)
	if name, data := authority("", "99"); name != "MIT-MAGIC-COOKIE-1" || string(data) != string(cookie) {
		t.Errorf("authority for :99 = %q %q, want the matching entry's cookie", name, data)
	}
	if name, data := authority("", "97"); name != "" || data != nil {
		t.Errorf("authority for :97, which no entry names = %q %q, want none", name, data)
	}
	// A file cut short in an entry gives none, and no error.
	if err := os.WriteFile(path, file[:len(file)-5], 0o600); err != nil {
		t.Fatal(err)
	}
	if name, _ := authority("", "99"); name != "" {
		t.Errorf("a truncated entry gave %q", name)
	}
}
