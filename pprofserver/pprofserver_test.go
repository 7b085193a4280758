package pprofserver

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/pprofhook"
)

// get sends a raw GET for path with Host host to addr and returns the
// status line and the body.
func get(t *testing.T, addr, path, host string) (status, body string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: test\r\nConnection: close\r\n\r\n", path, host)
	r := bufio.NewReader(c)
	status, _ = r.ReadString('\n')
	for {
		h, err := r.ReadString('\n')
		if err != nil || h == "\r\n" {
			break
		}
	}
	b, _ := io.ReadAll(r)
	return strings.TrimSpace(status), string(b)
}

func TestServe(t *testing.T) {
	// The profiles at net/http/pprof's paths, to a loopback Host only: a
	// browser's page whose DNS name was rebound to 127.0.0.1 is refused.
	if pprofhook.Serve == nil {
		t.Fatal("importing pprofserver did not set pprofhook.Serve")
	}
	stop, addr, err := Serve("127.0.0.1:0", false, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	_, port, _ := net.SplitHostPort(addr)
	for _, tc := range []struct{ path, host, status, body string }{
		{"/debug/pprof/", "localhost:" + port, "HTTP/1.1 200 OK", "goroutine"},
		{"/debug/pprof/goroutine?debug=1", "127.0.0.1:" + port, "HTTP/1.1 200 OK", "goroutine profile: total"},
		{"/debug/pprof/heap", "[::1]:" + port, "HTTP/1.1 200 OK", ""},
		{"/debug/pprof/heap", "evil.example:" + port, "HTTP/1.1 403 Forbidden", "not a loopback name"},
		{"/debug/pprof/heap", "", "HTTP/1.1 403 Forbidden", "not a loopback name"},
		{"/debug/pprof/nosuch", "localhost", "HTTP/1.1 404 Not Found", "Unknown profile"},
		{"/", "localhost", "HTTP/1.1 404 Not Found", "/debug/pprof/"},
		{"/debug/pprof/profile?seconds=1", "localhost", "HTTP/1.1 200 OK", ""},
	} {
		status, body := get(t, addr, tc.path, tc.host)
		if status != tc.status || !strings.Contains(body, tc.body) {
			t.Errorf("GET %s (Host %q): %s, %.80q; want %s with %q", tc.path, tc.host, status, body, tc.status, tc.body)
		}
		if tc.status == "HTTP/1.1 200 OK" && tc.body == "" && len(body) < 50 {
			t.Errorf("GET %s: a %d-byte profile", tc.path, len(body))
		}
	}
	// With -pprof-any-addr the Host is not checked.
	stopAny, addrAny, err := Serve("127.0.0.1:0", true, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer stopAny()
	if status, _ := get(t, addrAny, "/debug/pprof/", "evil.example"); status != "HTTP/1.1 200 OK" {
		t.Errorf("-pprof-any-addr: %s", status)
	}
}

func TestTimedRequestsBounded(t *testing.T) {
	// Requests that take minutes (delta profiles of 600 s) fill at most
	// MaxTimed slots: one more is answered 503 at once, and the index
	// still answers.
	timed := make(chan struct{}, MaxTimed)
	srv := httptest.NewServer(handler(false, timed))
	defer srv.Close()
	addr := srv.Listener.Addr().String()
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range MaxTimed {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "GET /debug/pprof/heap?seconds=600 HTTP/1.1\r\nHost: localhost\r\n\r\n")
	}
	for deadline := time.Now().Add(10 * time.Second); len(timed) < MaxTimed; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d held requests reached the handler in 10 s", len(timed), MaxTimed)
		}
	}
	if status, body := get(t, addr, "/debug/pprof/heap?seconds=600", "localhost"); status != "HTTP/1.1 503 Service Unavailable" || !strings.Contains(body, "busy") {
		t.Errorf("a request past %d timed ones: %s %s", MaxTimed, status, body)
	}
	if status, _ := get(t, addr, "/debug/pprof/", "localhost"); status != "HTTP/1.1 200 OK" {
		t.Errorf("the index with every timed slot taken: %s", status)
	}
}
