// Package pprofserver serves the runtime's profiles for the -pprof flag of
// a program built on tandem.Main, at net/http/pprof's paths (go tool
// pprof http://localhost:6060/debug/pprof/profile works). A game opts in
// with one import in its main package, which links net/http:
//
//	import _ "github.com/tandem-engine/tandem/pprofserver"
//
// The tandem launcher has it; without it -pprof says how to add it.
//
// The server is made for a local process that may be hostile: request
// headers are capped at 8 KiB and bodies at 64 KiB, a request's headers
// must come within 5 s, at most 32 connections are held (a new one
// closes the oldest that has not sent a request yet), and a request whose
// Host is not a loopback name is refused unless -pprof-any-addr is given
// (a web page cannot reach the profiler through a DNS name rebound to
// 127.0.0.1). At most 4 requests that take time (a CPU profile, a trace,
// a delta profile's seconds) run at once: more are answered 503 at once,
// so that long requests cannot hold every connection.
package pprofserver

import (
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/pprof"
	"sync"
	"time"

	"github.com/tandem-engine/tandem/internal/pprofhook"
)

func init() { pprofhook.Serve = Serve }

// The server's limits.
const (
	MaxConns       = 32
	MaxTimed       = 4 // requests that take seconds, at once
	MaxHeaderBytes = 8 << 10
	MaxBodyBytes   = 64 << 10
	HeaderTimeout  = 5 * time.Second
)

// Serve serves the profiles at addr until stop is called; see the package
// doc. any lets a request name any Host. The server's own errors (an
// accept that failed for want of file descriptors, say) go to errlog.
func Serve(addr string, any bool, errlog io.Writer) (stop func(), bound string, err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, "", fmt.Errorf("-pprof: %w", err)
	}
	l := &limitListener{Listener: ln, conns: map[*conn]http.ConnState{}}
	srv := &http.Server{
		Handler:           handler(any, make(chan struct{}, MaxTimed)),
		ReadHeaderTimeout: HeaderTimeout,
		ReadTimeout:       HeaderTimeout + 5*time.Second,
		// A CPU profile or trace answers after its seconds; net/http/pprof
		// refuses one longer than this.
		WriteTimeout:   65 * time.Minute,
		IdleTimeout:    30 * time.Second,
		MaxHeaderBytes: MaxHeaderBytes,
		ConnState:      l.state,
		ErrorLog:       log.New(errlog, "tandem: pprof server: ", 0),
	}
	go srv.Serve(l)
	return func() { srv.Close() }, ln.Addr().String(), nil
}

// handler checks the Host, bounds the body and holds the requests that
// take seconds to timed's room, then serves net/http/pprof's handlers.
func handler(any bool, timed chan struct{}) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index) // and every named profile
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "not found: the profiles are under /debug/pprof/", http.StatusNotFound)
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !any && !pprofhook.LoopbackHost(hostOnly(r.Host)) {
			http.Error(w, fmt.Sprintf("Host %q is not a loopback name: ask for localhost or 127.0.0.1 (or give -pprof-any-addr)", r.Host), http.StatusForbidden)
			return
		}
		if takesTime(r) {
			select {
			case timed <- struct{}{}:
				defer func() { <-timed }()
			default:
				http.Error(w, fmt.Sprintf("busy: %d profiles that take seconds are being taken; ask again when one is done", MaxTimed), http.StatusServiceUnavailable)
				return
			}
		}
		r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
		mux.ServeHTTP(w, r)
	})
}

// takesTime reports whether r asks for a profile that answers only after
// some seconds: a CPU profile (30 s unless told), a trace, or a profile
// with seconds (a delta of two).
func takesTime(r *http.Request) bool {
	switch r.URL.Path {
	case "/debug/pprof/profile", "/debug/pprof/trace":
		return true
	}
	return r.URL.Query().Has("seconds")
}

// hostOnly is a Host header's host, without its port.
func hostOnly(h string) string {
	if host, _, err := net.SplitHostPort(h); err == nil {
		return host
	}
	return h
}

// limitListener holds at most MaxConns connections: at the cap, a new
// one closes the oldest that has sent no request (a flood of idle
// connections cannot lock the profiler out), or is closed itself when
// every connection is serving.
type limitListener struct {
	net.Listener
	mu    sync.Mutex
	conns map[*conn]http.ConnState
}

// conn is an accepted connection that leaves the count when closed.
type conn struct {
	net.Conn
	l    *limitListener
	at   time.Time
	once sync.Once
}

func (c *conn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.conns, c)
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		nc, err := l.Listener.Accept()
		if err != nil {
			return nil, err // net/http retries a temporary error (EMFILE) after a pause
		}
		c := &conn{Conn: nc, l: l, at: time.Now()}
		l.mu.Lock()
		var oldest *conn
		if len(l.conns) >= MaxConns {
			for o, st := range l.conns {
				if (st == http.StateNew || st == http.StateIdle) && (oldest == nil || o.at.Before(oldest.at)) {
					oldest = o
				}
			}
			if oldest == nil {
				l.mu.Unlock()
				nc.Close() // every connection is serving a request
				continue
			}
			delete(l.conns, oldest)
		}
		l.conns[c] = http.StateNew
		l.mu.Unlock()
		if oldest != nil {
			oldest.Conn.Close()
		}
		return c, nil
	}
}

// state follows each connection's state, for Accept's choice.
func (l *limitListener) state(nc net.Conn, st http.ConnState) {
	c, ok := nc.(*conn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, held := l.conns[c]; !held {
		return
	}
	if st == http.StateClosed || st == http.StateHijacked {
		delete(l.conns, c)
		return
	}
	l.conns[c] = st
}
