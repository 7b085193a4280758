//go:build linux && !wayland

package xtest

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/tandem-engine/tandem/snapshot"
)

// presser is a second X connection, the injector's hot path: it writes
// XTEST FakeInput and the GetInputFocus round trip that checks it from
// buffers of its own and reads the answers into one, so a key edge
// allocates nothing. xgb allocates a request buffer, a cookie with its
// channels and a read buffer per request (about six allocations an edge),
// which the bench's allocs_per_frame counted as the frame's.
//
// It speaks only what an edge needs; xgb's connection keeps everything
// else (keymap, focus). Both sequence the requests they send alone.
type presser struct {
	nc     net.Conn // read and written through the runtime's netpoller
	opcode byte     // XTEST's major opcode on this server
	seq    uint16   // the sequence number of the last request sent
	req    [36 + 4]byte
	buf    [32]byte
}

// dialPresser opens display (as xgb parsed it: "" is $DISPLAY) with the
// authority xgb would use, for XTEST at major opcode opcode.
func dialPresser(display string, opcode byte) (*presser, error) {
	if display == "" {
		display = os.Getenv("DISPLAY")
	}
	network, addr, host, num, err := displayAddr(display)
	if err != nil {
		return nil, err
	}
	nc, err := net.Dial(network, addr)
	if err != nil {
		return nil, err
	}
	if err := setup(nc, host, num); err != nil {
		nc.Close()
		return nil, err
	}
	// The socket stays in the netpoller: a read that waits for the
	// server's answer parks the runner's goroutine and frees its P, so the
	// goroutines the key wakes (the frame loop's) are not kept waiting for
	// one, as a blocking read made them wait (TestRealKeyStamps saw keys
	// stamped 10 to 19 ms late).
	p := &presser{nc: nc, opcode: opcode}
	// FakeInput (XTEST minor 2, 9 words): the type and the key are set per
	// edge; time CurrentTime, root None, no motion, device 0.
	p.req[0], p.req[1] = opcode, 2
	binary.LittleEndian.PutUint16(p.req[2:], 9)
	// GetInputFocus (opcode 43, 1 word): its reply means the server has
	// processed the FakeInput before it.
	p.req[36] = 43
	binary.LittleEndian.PutUint16(p.req[38:], 1)
	return p, nil
}

// displayAddr parses an X display name: "[protocol/][host]:N[.screen]"
// or "/path/socket:N" (launchd's). host is "" for the local socket.
func displayAddr(display string) (network, addr, host, num string, err error) {
	colon := strings.LastIndex(display, ":")
	if colon < 0 {
		return "", "", "", "", fmt.Errorf("bad display name %q", display)
	}
	num = display[colon+1:]
	if dot := strings.LastIndex(num, "."); dot >= 0 {
		num = num[:dot]
	}
	if n, err := strconv.Atoi(num); err != nil || n < 0 {
		return "", "", "", "", fmt.Errorf("bad display name %q", display)
	}
	if strings.HasPrefix(display, "/") {
		return "unix", display[:colon] + ":" + num, "", num, nil
	}
	protocol, host := "", display[:colon]
	if slash := strings.LastIndex(host, "/"); slash >= 0 {
		protocol, host = host[:slash], host[slash+1:]
	}
	if host == "" || host == "unix" {
		return "unix", "/tmp/.X11-unix/X" + num, "", num, nil
	}
	if protocol == "" {
		protocol = "tcp"
	}
	n, _ := strconv.Atoi(num)
	return protocol, net.JoinHostPort(host, strconv.Itoa(6000+n)), host, num, nil
}

// setup makes the connection's handshake, with the MIT-MAGIC-COOKIE-1
// that $XAUTHORITY (or ~/.Xauthority) holds for the display, or none.
func setup(nc net.Conn, host, num string) error {
	name, data := authority(host, num)
	pad := func(n int) int { return (n + 3) &^ 3 }
	b := make([]byte, 12+pad(len(name))+pad(len(data)))
	b[0] = 'l' // little-endian
	binary.LittleEndian.PutUint16(b[2:], 11)
	binary.LittleEndian.PutUint16(b[6:], uint16(len(name)))
	binary.LittleEndian.PutUint16(b[8:], uint16(len(data)))
	copy(b[12:], name)
	copy(b[12+pad(len(name)):], data)
	if _, err := nc.Write(b); err != nil {
		return err
	}
	head := make([]byte, 8)
	if _, err := io.ReadFull(nc, head); err != nil {
		return err
	}
	rest := make([]byte, 4*int(binary.LittleEndian.Uint16(head[6:])))
	if _, err := io.ReadFull(nc, rest); err != nil {
		return err
	}
	if head[0] != 1 {
		reason := rest[:min(int(head[1]), len(rest))]
		return fmt.Errorf("the server refused the connection: %s", strings.TrimSpace(string(reason)))
	}
	return nil
}

// authority returns the MIT-MAGIC-COOKIE-1 for display num on host ("":
// this machine) from the authority file, as Xlib and xgb look it up; none
// when the file has none, which a server without access control accepts.
func authority(host, num string) (name string, data []byte) {
	const familyLocal, familyWild = 256, 65535
	if host == "" || host == "localhost" {
		host, _ = os.Hostname()
	}
	path := os.Getenv("XAUTHORITY")
	if path == "" {
		path = os.Getenv("HOME") + "/.Xauthority"
	}
	f, err := os.Open(path)
	if err != nil {
		return "", nil
	}
	defer f.Close()
	r := bufio.NewReader(f)
	field := func() ([]byte, error) {
		var n uint16
		if err := binary.Read(r, binary.BigEndian, &n); err != nil {
			return nil, err
		}
		b := make([]byte, n) // at most 64 KiB, as the format's length says
		_, err := io.ReadFull(r, b)
		return b, err
	}
	for {
		var family uint16
		if binary.Read(r, binary.BigEndian, &family) != nil {
			return "", nil
		}
		var e [4][]byte // address, display number, name, data
		for i := range e {
			if e[i], err = field(); err != nil {
				return "", nil
			}
		}
		addrOK := family == familyWild || family == familyLocal && string(e[0]) == host
		if addrOK && (len(e[1]) == 0 || string(e[1]) == num) && string(e[2]) == "MIT-MAGIC-COOKIE-1" {
			return string(e[2]), e[3]
		}
	}
}

// errRefused is fake's X error for the FakeInput, wrapped with its code.
var errRefused = errors.New("refused")

// fake sends one key event on keycode code, then GetInputFocus, in one
// write, and reads until that reply: At is read just before the write,
// Acked after the reply. An X error for the FakeInput is returned as
// errRefused; a broken connection as the read's or write's error.
func (p *presser) fake(code byte, down bool) (Stamp, error) {
	typ := byte(3) // KeyRelease
	if down {
		typ = 2 // KeyPress
	}
	p.req[4], p.req[5] = typ, code
	fakeSeq, syncSeq := p.seq+1, p.seq+2
	p.seq += 2
	at := snapshot.Now()
	if err := p.write(p.req[:]); err != nil {
		return Stamp{}, err
	}
	var refused error
	for {
		if err := p.read(p.buf[:]); err != nil {
			return Stamp{}, err
		}
		seq := binary.LittleEndian.Uint16(p.buf[2:])
		switch kind := p.buf[0] & 0x7f; {
		case kind == 0: // an error
			if seq == fakeSeq {
				refused = fmt.Errorf("%w with X error %d", errRefused, p.buf[1])
			}
		case kind == 1 || kind == 35: // a reply, or a generic event: 32 bytes and more
			if err := p.skip(4 * int64(binary.LittleEndian.Uint32(p.buf[4:]))); err != nil {
				return Stamp{}, err
			}
			if kind == 1 && seq == syncSeq {
				return Stamp{At: at, Acked: snapshot.Now()}, refused
			}
		}
		// Other events (MappingNotify goes to every client) are dropped.
	}
}

// skip reads and drops n bytes through buf.
func (p *presser) skip(n int64) error {
	for n > 0 {
		k := min(n, int64(len(p.buf)))
		if err := p.read(p.buf[:k]); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

// read fills b from the socket.
func (p *presser) read(b []byte) error {
	_, err := io.ReadFull(p.nc, b)
	return err
}

// write writes b to the socket (a net.Conn writes all of b, or fails).
func (p *presser) write(b []byte) error {
	_, err := p.nc.Write(b)
	return err
}

func (p *presser) close() { p.nc.Close() }
