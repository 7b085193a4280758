package cli

import (
	"fmt"
	"net"
	"strconv"

	"github.com/tandem-engine/tandem/internal/pprofhook"
)

// checkPprofAddr refuses a -pprof address that is not host:port with a
// port from 0 to 65535, or not on the loopback interface unless any is
// set (the profiler shows the process's memory), or a program that has
// no profiler server (it does not import pprofserver).
func checkPprofAddr(addr string, any bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-pprof %q: want host:port, e.g. localhost:6060", addr)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return fmt.Errorf("-pprof %q: port %q: want a number from 0 to 65535, e.g. localhost:6060", addr, port)
	}
	if !any && !pprofhook.LoopbackHost(host) {
		return fmt.Errorf("-pprof %q: not a loopback address (use localhost:PORT or 127.0.0.1:PORT, or add -pprof-any-addr to serve the profiler to the network)", addr)
	}
	if pprofhook.Serve == nil {
		return fmt.Errorf("-pprof: this program has no profiler server, so that it links no HTTP stack: add %s to its main package (the tandem launcher has it), or use -cpuprofile FILE", pprofhook.Import)
	}
	return nil
}
