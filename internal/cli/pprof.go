package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"runtime/pprof"
	"runtime/trace"
	"strconv"
	"strings"
	"time"
)

// checkPprofAddr refuses a -pprof address that is not host:port with a
// port from 0 to 65535, or not on the loopback interface unless any is
// set: the profiler shows the process's memory.
func checkPprofAddr(addr string, any bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-pprof %q: want host:port, e.g. localhost:6060", addr)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return fmt.Errorf("-pprof %q: port %q: want a number from 0 to 65535, e.g. localhost:6060", addr, port)
	}
	if any || loopbackHost(host) {
		return nil
	}
	return fmt.Errorf("-pprof %q: not a loopback address (use localhost:PORT or 127.0.0.1:PORT, or add -pprof-any-addr to serve the profiler to the network)", addr)
}

// loopbackHost reports whether host names the loopback interface.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// servePprof serves the runtime's profiles at addr, as net/http/pprof's
// paths do (go tool pprof http://ADDR/debug/pprof/profile works), until
// the returned stop is called. It listens before returning, so a port in
// use is an error at start. A request whose Host is not a loopback name
// is refused unless any is set: a web page cannot reach the profiler
// through a DNS name rebound to 127.0.0.1.
//
// It is a small HTTP/1.1 server of its own rather than net/http: a game
// built on tandem.Main then links no HTTP stack (net/http with crypto/tls
// is about 5 MB of a binary) for a flag most runs never give.
func servePprof(addr string, any bool) (stop func(), bound string, err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, "", fmt.Errorf("-pprof: %w", err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				if !errors.Is(err, net.ErrClosed) {
					fmt.Fprintf(os.Stderr, "tandem: pprof server: %v\n", err)
				}
				return
			}
			go servePprofConn(c, any)
		}
	}()
	return func() { ln.Close() }, ln.Addr().String(), nil
}

// servePprofConn answers one request on c and closes it.
func servePprofConn(c net.Conn, any bool) {
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	path, query, host, err := readRequest(bufio.NewReaderSize(c, 4096))
	w := bufio.NewWriter(c)
	defer w.Flush()
	switch {
	case err != nil:
		respond(w, 400, "text/plain", "bad request: "+err.Error()+"\n")
		return
	case !any && !loopbackHost(hostOnly(host)):
		respond(w, 403, "text/plain", fmt.Sprintf("Host %q is not a loopback name: ask for localhost or 127.0.0.1 (or give -pprof-any-addr)\n", host))
		return
	}
	c.SetReadDeadline(time.Time{})
	name, ok := strings.CutPrefix(path, "/debug/pprof/")
	if !ok {
		respond(w, 404, "text/plain", "not found: the profiles are under /debug/pprof/\n")
		return
	}
	seconds := func(def int) time.Duration {
		n, err := strconv.Atoi(query.Get("seconds"))
		if err != nil || n <= 0 {
			n = def
		}
		return time.Duration(min(n, 3600)) * time.Second
	}
	switch name {
	case "":
		var b strings.Builder
		b.WriteString("tandem's profiles (go tool pprof http://HOST/debug/pprof/NAME):\n\nprofile?seconds=N  CPU profile\ntrace?seconds=N    runtime/trace\ncmdline\n")
		for _, p := range pprof.Profiles() {
			fmt.Fprintf(&b, "%-18s %d\n", p.Name(), p.Count())
		}
		respond(w, 200, "text/plain", b.String())
	case "cmdline":
		respond(w, 200, "text/plain", strings.Join(os.Args, "\x00"))
	case "symbol":
		// Profiles carry their symbols; go tool pprof asks only whether
		// the server symbolizes.
		respond(w, 200, "text/plain", "num_symbols: 0\n")
	case "profile":
		stream(w, "application/octet-stream", pprof.StartCPUProfile, pprof.StopCPUProfile, seconds(30))
	case "trace":
		stream(w, "application/octet-stream", trace.Start, trace.Stop, seconds(1))
	default:
		p := pprof.Lookup(name)
		if p == nil {
			respond(w, 404, "text/plain", fmt.Sprintf("no profile %q\n", name))
			return
		}
		debug, _ := strconv.Atoi(query.Get("debug"))
		ctype := "application/octet-stream"
		if debug > 0 {
			ctype = "text/plain"
		}
		header(w, 200, ctype)
		p.WriteTo(w, debug)
	}
}

// stream runs a profile that writes as it goes (start, then stop after
// d) into the response.
func stream(w *bufio.Writer, ctype string, start func(io.Writer) error, stop func(), d time.Duration) {
	var body strings.Builder // start refuses at once when a profile runs
	if err := start(&body); err != nil {
		respond(w, 409, "text/plain", err.Error()+"\n")
		return
	}
	time.Sleep(d)
	stop()
	respond(w, 200, ctype, body.String())
}

// readRequest reads a GET request's line and headers: its path, query
// and Host.
func readRequest(r *bufio.Reader) (path string, query url.Values, host string, err error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return "", nil, "", err
	}
	f := strings.Fields(line)
	if len(f) != 3 || !strings.HasPrefix(f[2], "HTTP/1.") {
		return "", nil, "", fmt.Errorf("request line %q", strings.TrimSpace(line))
	}
	if f[0] != "GET" {
		return "", nil, "", fmt.Errorf("method %s: only GET", f[0])
	}
	u, err := url.ParseRequestURI(f[1])
	if err != nil {
		return "", nil, "", err
	}
	for n := 0; ; n++ {
		h, err := r.ReadString('\n')
		if err != nil {
			return "", nil, "", err
		}
		h = strings.TrimRight(h, "\r\n")
		if h == "" {
			break
		}
		if n > 100 {
			return "", nil, "", errors.New("too many headers")
		}
		if k, v, ok := strings.Cut(h, ":"); ok && strings.EqualFold(strings.TrimSpace(k), "Host") {
			host = strings.TrimSpace(v)
		}
	}
	return u.Path, u.Query(), host, nil
}

// hostOnly is a Host header's host, without its port.
func hostOnly(h string) string {
	if host, _, err := net.SplitHostPort(h); err == nil {
		return host
	}
	return strings.Trim(h, "[]")
}

func header(w *bufio.Writer, code int, ctype string) {
	text := map[int]string{200: "OK", 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 409: "Conflict"}[code]
	fmt.Fprintf(w, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nConnection: close\r\n\r\n", code, text, ctype)
}

func respond(w *bufio.Writer, code int, ctype, body string) {
	header(w, code, ctype)
	w.WriteString(body)
}
