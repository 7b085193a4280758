//go:build linux

// The floods read the server's memory from /proc and limit its file
// descriptors with setrlimit: Linux only.

package pprofserver

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMain runs the server alone in a child process when asked (see
// serverChild): its memory and its file descriptors are then its own.
func TestMain(m *testing.M) {
	if os.Getenv("PPROFSERVER_CHILD") == "1" {
		// The descriptors a default shell gives (ulimit -n 1024).
		lim := syscall.Rlimit{Cur: 1024, Max: 1024}
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			fmt.Fprintln(os.Stderr, "setrlimit:", err)
			os.Exit(1)
		}
		_, addr, err := Serve("127.0.0.1:0", false, io.Discard)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(addr)
		io.Copy(io.Discard, os.Stdin) // until the parent closes it
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// serverChild starts the server in a child process and returns its pid
// and address.
func serverChild(t *testing.T) (pid int, addr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PPROFSERVER_CHILD=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the server child: %v", err)
	}
	return cmd.Process.Pid, strings.TrimSpace(line)
}

// statusKB reads a field of /proc/pid/status, in kB.
func statusKB(t *testing.T, pid int, field string) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skip("no /proc:", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

func TestFloodMemory(t *testing.T) {
	// Three local connections each send 500 MB: a request line with no
	// end, a header with no end, and a body. The server's peak RSS grows
	// by under 50 MB, and it still answers.
	pid, addr := serverChild(t)
	if status, _ := get(t, addr, "/debug/pprof/", "localhost"); status != "HTTP/1.1 200 OK" {
		t.Fatalf("before the flood: %s", status)
	}
	before := statusKB(t, pid, "VmHWM")
	starts := []string{
		"GET /",
		"GET /debug/pprof/ HTTP/1.1\r\nHost: localhost\r\nX-Flood: ",
		"POST /debug/pprof/symbol HTTP/1.1\r\nHost: localhost\r\nContent-Length: 500000000\r\n\r\n",
	}
	var wg sync.WaitGroup
	sent := make([]int64, len(starts))
	for i, start := range starts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			c.SetWriteDeadline(time.Now().Add(60 * time.Second))
			io.WriteString(c, start)
			buf := []byte(strings.Repeat("A", 1<<20))
			for sent[i] < 500<<20 {
				n, err := c.Write(buf)
				sent[i] += int64(n)
				if err != nil {
					return // the server closed it: what a limit does
				}
			}
		}()
	}
	wg.Wait()
	grew := statusKB(t, pid, "VmHWM") - before
	t.Logf("sent %v bytes; peak RSS grew %d kB", sent, grew)
	if grew > 50<<10 {
		t.Errorf("peak RSS grew %d kB under the flood, want under 50 MB", grew)
	}
	if status, _ := get(t, addr, "/debug/pprof/", "localhost"); status != "HTTP/1.1 200 OK" {
		t.Fatalf("after the flood: %s", status)
	}
}

func TestIdleFlood(t *testing.T) {
	// 1,100 idle connections to a server with 1,024 file descriptors: it
	// still answers, during the flood and after it.
	var lim syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim)
	if lim.Cur < 1300 {
		lim.Cur = min(lim.Max, 4096)
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	}
	if lim.Cur < 1300 {
		t.Skipf("this test's own descriptor limit is %d: too few to hold 1,100 connections", lim.Cur)
	}
	_, addr := serverChild(t)
	var idle []net.Conn
	defer func() {
		for _, c := range idle {
			c.Close()
		}
	}()
	for range 1100 {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatalf("after %d connections: %v", len(idle), err)
		}
		idle = append(idle, c)
	}
	// At once: a new connection closes the oldest idle one, rather than
	// waiting for the idle ones' header timeout.
	began := time.Now()
	status, _ := get(t, addr, "/debug/pprof/", "localhost")
	if status != "HTTP/1.1 200 OK" {
		t.Fatalf("with 1,100 idle connections open: %q", status)
	}
	if took := time.Since(began); took > HeaderTimeout/2 {
		t.Errorf("answered %v into the flood: the idle connections held it up", took)
	}
	for _, c := range idle {
		c.Close()
	}
	idle = nil
	if status, _ := get(t, addr, "/debug/pprof/", "localhost"); status != "HTTP/1.1 200 OK" {
		t.Fatalf("after the flood: %q", status)
	}
}
