//go:build cgo

package cli

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"time"
)

// checkPprofAddr refuses a -pprof address that is not on the loopback
// interface unless any is set: the profiler shows the process's memory.
func checkPprofAddr(addr string, any bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-pprof %q: want host:port, e.g. localhost:6060", addr)
	}
	if any {
		return nil
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("-pprof %q: not a loopback address (use localhost:PORT or 127.0.0.1:PORT, or add -pprof-any-addr to serve the profiler to the network)", addr)
}

// servePprof serves net/http/pprof at addr until the returned stop is
// called. It listens before returning, so a port in use is an error at
// start.
func servePprof(addr string) (stop func(), bound string, err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, "", fmt.Errorf("-pprof: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(os.Stderr, "tandem: pprof server: %v\n", err)
		}
	}()
	return func() { srv.Close() }, ln.Addr().String(), nil
}
