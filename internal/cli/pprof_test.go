package cli

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
)

// get sends a raw GET for path with Host host to addr and returns the
// status line and the body.
func get(t *testing.T, addr, path, host string) (status, body string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: test\r\n\r\n", path, host)
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

func TestPprofServer(t *testing.T) {
	// The profiles at net/http/pprof's paths, to a loopback Host only: a
	// browser's page whose DNS name was rebound to 127.0.0.1 is refused.
	stop, addr, err := servePprof("127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	_, port, _ := net.SplitHostPort(addr)
	for _, tc := range []struct{ path, host, status, body string }{
		{"/debug/pprof/", "localhost:" + port, "HTTP/1.1 200 OK", "profile?seconds=N"},
		{"/debug/pprof/goroutine?debug=1", "127.0.0.1:" + port, "HTTP/1.1 200 OK", "goroutine profile: total"},
		{"/debug/pprof/heap", "[::1]:" + port, "HTTP/1.1 200 OK", ""},
		{"/debug/pprof/heap", "evil.example:" + port, "HTTP/1.1 403 Forbidden", "not a loopback name"},
		{"/debug/pprof/heap", "", "HTTP/1.1 403 Forbidden", "not a loopback name"},
		{"/debug/pprof/nosuch", "localhost", "HTTP/1.1 404 Not Found", `no profile "nosuch"`},
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
	stopAny, addrAny, err := servePprof("127.0.0.1:0", true)
	if err != nil {
		t.Fatal(err)
	}
	defer stopAny()
	if status, _ := get(t, addrAny, "/debug/pprof/", "evil.example"); status != "HTTP/1.1 200 OK" {
		t.Errorf("-pprof-any-addr: %s", status)
	}
	// A port out of range is refused before anything runs.
	if err := checkPprofAddr("localhost:99999", false); err == nil || !strings.Contains(err.Error(), "0 to 65535") {
		t.Errorf("localhost:99999: %v", err)
	}
}

// TestProfiling checks the summary's profiling field: which profilers ran.
func TestProfiling(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "none"},
		{[]string{"-trace", "t.out"}, "trace"},
		{[]string{"-pprof", "localhost:0", "-cpuprofile", "c.prof"}, "cpuprofile,pprof"},
		{[]string{"-memprofile", "m.prof", "-trace", "t.out"}, "trace,memprofile"},
	} {
		o, err := testProgram.parseFlags("bench", c.args, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if got := profiling(o); got != c.want {
			t.Errorf("%q: profiling %q, want %q", c.args, got, c.want)
		}
	}
}
