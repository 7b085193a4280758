//go:build !windows && !darwin

package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tandem-engine/tandem/internal/app"
)

// needXvfb reports whether the app must start its own X server: -headless,
// or no display to open a window on.
func needXvfb(o options) bool {
	return o.headless || (os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "")
}

// startXvfb starts a private Xvfb on a free display, large enough for a
// w x h window, points DISPLAY at it, and returns the function that stops
// it. The server runs in its own session, so a Ctrl-C in the terminal
// (which signals the whole foreground process group) reaches tandem, which
// stops cleanly, and not the X server under it: xvfb-run cannot promise
// that. Xvfb picks the display number itself (-displayfd), so two tandems
// started at once never collide.
func startXvfb(w, h int, stderr io.Writer) (stop func(), err error) {
	path, err := lookPath("Xvfb")
	if err != nil {
		return nil, errors.New("no display: set DISPLAY, or install Xvfb (apt-get install xvfb) so that tandem can start its own")
	}
	r, wr, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("xvfb: %w", err)
	}
	defer r.Close()
	screen := fmt.Sprintf("%dx%dx24", max(w, 1280), max(h, 720))
	sys := &syscall.SysProcAttr{Setsid: true}
	// A tandem killed with SIGKILL runs no cleanup: the kernel then
	// stops the server (on Linux; elsewhere only a clean exit does).
	dieWithParent(sys)
	var logs strings.Builder
	c, err := spawn(path, []string{"-displayfd", "3", "-screen", "0", screen, "-nolisten", "tcp", "-noreset"},
		nil, &logs, []*os.File{wr}, sys)
	wr.Close()
	if err != nil {
		return nil, fmt.Errorf("xvfb: start %s: %w", path, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- c.wait() }()
	stop = sync.OnceFunc(func() {
		c.proc.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(3 * time.Second):
			c.proc.Kill()
			<-exited
		}
	})
	num := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		num <- strings.TrimSpace(line)
	}()
	select {
	case n := <-num:
		if _, err := strconv.Atoi(n); err != nil {
			stop()
			return nil, fmt.Errorf("xvfb: did not start (it said %q): %s", n, strings.TrimSpace(logs.String()))
		}
		if !diesWithParent {
			// A forced exit stops it first. Where the kernel stops it
			// with the process this is left out: stopping the server
			// before exiting races the X connection, whose I/O error
			// handler then exits first, with code 1.
			app.OnForcedExit.Store(&stop)
		}
		os.Setenv("DISPLAY", ":"+n)
		os.Unsetenv("WAYLAND_DISPLAY")
		fmt.Fprintf(stderr, "tandem: no display in use; started Xvfb on :%s (%s, pid %d, stopped at exit)\n", n, screen, c.proc.Pid)
		return stop, nil
	case <-time.After(10 * time.Second):
		stop()
		return nil, errors.New("xvfb: no display number after 10 s")
	}
}
