// Package pprofhook is where the -pprof server attaches: package
// pprofserver sets Serve when a program imports it, so that the command
// line links net/http only in the programs that ask for it.
package pprofhook

import (
	"io"
	"net"
	"strings"
)

// Serve serves the runtime's profiles at addr until stop is called; any
// lets a request name any Host (else loopback names only); errors the
// server meets while it runs go to errlog. It listens before returning,
// so bound is the address served. nil: this program has no server (it
// does not import pprofserver).
var Serve func(addr string, any bool, errlog io.Writer) (stop func(), bound string, err error)

// Import is the line a program's main package adds to have Serve.
const Import = `import _ "github.com/tandem-engine/tandem/pprofserver"`

// LoopbackHost reports whether host (no port) names the loopback
// interface.
func LoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
