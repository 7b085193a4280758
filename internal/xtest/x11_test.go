//go:build linux && cgo && !wayland

package xtest

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandem-engine/tandem/internal/mainthread"
	"github.com/tandem-engine/tandem/snapshot"
	"github.com/tandem-engine/tandem/window"
)

func TestOpenWithoutDisplay(t *testing.T) {
	t.Setenv("DISPLAY", "")
	_, err := Open("")
	wantErr(t, err, "DISPLAY is not set", "xvfb-run", "synthetic input")
	// A display no server answers.
	_, err = Open(":4321")
	wantErr(t, err, `cannot open X display ":4321"`, "xvfb-run", "synthetic input")
}

func TestOpenWithoutXTEST(t *testing.T) {
	// A private Xvfb started without the extension.
	name, _ := privateXvfb(t, "-extension", "XTEST")
	_, err := Open(name)
	wantErr(t, err, fmt.Sprintf("X display %q has no XTEST extension", name), "synthetic input")
}

func TestServerGone(t *testing.T) {
	// The server exits under an open injector: its calls say so, and
	// neither hang nor end the process (Xlib's default on a lost
	// connection is exit(1)); Close still works.
	name, kill := privateXvfb(t)
	in, err := Open(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in.Press(DefaultKey); err != nil {
		t.Fatal(err)
	}
	kill()
	done := make(chan error, 1)
	go func() {
		_, err := in.Release(DefaultKey)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "broke (the server exited?)") {
			t.Errorf("Release after the server exited: %v, want the broken connection named", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Release after the server exited did not return in 10 s")
	}
	if _, err := in.FocusedPID(); err == nil {
		t.Error("FocusedPID after the server exited gave no error")
	}
	in.Close()
}

// privateXvfb starts an Xvfb of its own with args, and returns its
// display's name and a function that stops it (also run at the end).
func privateXvfb(t *testing.T, args ...string) (name string, kill func()) {
	t.Helper()
	path, err := exec.LookPath("Xvfb")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no Xvfb under CI=true: install it (apt-get install xvfb; make deps does)")
		}
		t.Skip("no Xvfb to start a server of the test's own")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command(path, append([]string{"-displayfd", "3", "-nolisten", "tcp", "-screen", "0", "64x64x24"}, args...)...)
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	kill = sync.OnceFunc(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	t.Cleanup(kill)
	line, err := bufio.NewReader(r).ReadString('\n')
	n, cerr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || cerr != nil {
		t.Fatalf("Xvfb gave no display number (%q, %v)", line, err)
	}
	return fmt.Sprintf(":%d", n), kill
}

func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("error %v does not wrap ErrUnavailable", err)
		return
	}
	if !strings.HasPrefix(err.Error(), "xtest: ") {
		t.Errorf("error %q lacks the xtest: prefix", err)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not say %q", err, p)
		}
	}
	t.Log(err)
}

// glfwStarted records window.Init's result; set on the main thread.
var glfwStarted bool

// openWindow opens a visible window (the keyboard focus goes only to a
// viewable one) and destroys it at the end.
func openWindow(t *testing.T) *window.Window {
	t.Helper()
	mainthread.NeedDisplay(t)
	var w *window.Window
	var err error
	mainthread.Do(func() {
		if !glfwStarted {
			if err = window.Init(); err != nil {
				return
			}
			glfwStarted, terminate = true, window.Terminate
		}
		w, err = window.Open(window.Config{Title: "xtest", Width: 320, Height: 240})
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mainthread.Do(w.Destroy) })
	return w
}

// collect runs inject on a goroutine of its own while the main thread
// waits for window events, and returns the F9 key events GLFW delivered
// until 100 ms after inject returned.
func collect(w *window.Window, inject func()) []window.Input {
	var got []window.Input
	done := make(chan struct{})
	mainthread.Do(func() {
		w.SetSink(nil)
		w.WaitEvents(10 * time.Millisecond) // what is pending: focus, exposure
		w.SetSink(func(e window.Input) {
			if e.Kind == window.KindKey && e.Key == window.KeyF9 {
				got = append(got, e)
			}
		})
	})
	go func() {
		defer close(done)
		inject()
	}()
	mainthread.Do(func() {
		defer w.SetSink(nil)
		var until int64
		for until == 0 || snapshot.Now() < until {
			// WaitEvents wakes as soon as the X connection has
			// something: the callback's stamp is the delivery.
			w.WaitEvents(2 * time.Millisecond)
			select {
			case <-done:
				if until == 0 {
					until = snapshot.Now() + int64(100*time.Millisecond)
				}
			default:
			}
		}
	})
	return got
}

// compare checks that GLFW delivered sent, in order, each after it was
// sent and within limit, and returns the delays from At and from Acked.
func compare(sent []Event, got []window.Input, limit time.Duration) (fromAt, fromAcked []time.Duration, problems []string) {
	if len(got) != len(sent) {
		return nil, nil, []string{fmt.Sprintf("sent %d F9 edges, GLFW delivered %d: %+v", len(sent), len(got), got)}
	}
	for i, e := range sent {
		g := got[i]
		switch {
		case g.Down != e.Down || g.Repeat:
			problems = append(problems, fmt.Sprintf("edge %d: sent Down=%v, GLFW delivered Down=%v Repeat=%v", i, e.Down, g.Down, g.Repeat))
		case e.Acked < e.At:
			problems = append(problems, fmt.Sprintf("edge %d: Acked %d before At %d", i, e.Acked, e.At))
		case g.Time <= e.At:
			problems = append(problems, fmt.Sprintf("edge %d: GLFW delivered it at %d, not after it was sent at %d", i, g.Time, e.At))
		case time.Duration(g.Time-e.At) > limit:
			problems = append(problems, fmt.Sprintf("edge %d: GLFW delivered it %v after it was sent, more than %v", i, time.Duration(g.Time-e.At), limit))
		}
		fromAt = append(fromAt, time.Duration(g.Time-e.At))
		fromAcked = append(fromAcked, time.Duration(g.Time-e.Acked))
	}
	return fromAt, fromAcked, problems
}

func TestKeysReachGLFW(t *testing.T) {
	w := openWindow(t)
	in, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	pid := os.Getpid()

	// Two ways to send: Press and Release from a goroutine, and a Runner
	// at seeded random moments.
	direct := func() ([]Event, error) {
		var sent []Event
		for _, down := range []bool{true, false, true, false} {
			send := in.Release
			if down {
				send = in.Press
			}
			st, err := send(DefaultKey)
			if err != nil {
				return sent, err
			}
			sent = append(sent, Event{Down: down, Stamp: st})
			time.Sleep(20 * time.Millisecond)
		}
		return sent, nil
	}
	runner := func(seed uint64) func() ([]Event, error) {
		return func() ([]Event, error) {
			r, err := in.Start(Schedule{Seed: seed, MinGap: 10 * time.Millisecond, MaxGap: 40 * time.Millisecond})
			if err != nil {
				return nil, err
			}
			time.Sleep(400 * time.Millisecond)
			return r.Stop()
		}
	}

	// Close releases the key an injector left down: its release is
	// stamped around the Close.
	closing := func() ([]Event, error) {
		in2, err := Open("")
		if err != nil {
			return nil, err
		}
		st, err := in2.Press(DefaultKey)
		if err != nil {
			in2.Close()
			return nil, err
		}
		time.Sleep(20 * time.Millisecond)
		before := snapshot.Now()
		err = in2.Close()
		return []Event{{Down: true, Stamp: st}, {Stamp: Stamp{At: before, Acked: snapshot.Now()}}}, err
	}

	var fromAt, fromAcked []time.Duration
	for _, c := range []struct {
		name string
		send func() ([]Event, error)
	}{{"Press/Release", direct}, {"Runner", runner(1)}, {"Close", closing}} {
		// Other test processes on the same X server (go test ./... runs
		// packages at once) may show a window, which takes the focus:
		// a round during which the focus left this process's window is
		// run again.
		for attempt := 1; ; attempt++ {
			if err := in.Focus(pid); err != nil {
				t.Fatal(err)
			}
			var sent []Event
			var sendErr error
			got := collect(w, func() { sent, sendErr = c.send() })
			if sendErr != nil {
				t.Fatalf("%s: %v", c.name, sendErr)
			}
			focused, err := in.FocusedPID()
			if err != nil {
				t.Fatal(err)
			}
			at, acked, problems := compare(sent, got, 50*time.Millisecond)
			if focused != pid && attempt < 8 {
				t.Logf("%s: the focus went to process %d during attempt %d; again", c.name, focused, attempt)
				continue
			}
			for _, p := range problems {
				t.Errorf("%s: %s", c.name, p)
			}
			if focused != pid {
				t.Errorf("%s: the focus left this process's window (to process %d) in each of %d attempts", c.name, focused, attempt)
			}
			if len(sent) < 2 {
				t.Errorf("%s: only %d edges sent", c.name, len(sent))
			}
			fromAt, fromAcked = append(fromAt, at...), append(fromAcked, acked...)
			break
		}
	}
	if len(fromAt) > 0 {
		t.Logf("GLFW's callback after At, over %d edges: %s", len(fromAt), spread(fromAt))
		t.Logf("GLFW's callback after Acked: %s", spread(fromAcked))
	}
}

// spread formats the min, median and max of ds.
func spread(ds []time.Duration) string {
	s := slices.Clone(ds)
	slices.Sort(s)
	return fmt.Sprintf("min %v, median %v, max %v", s[0], s[len(s)/2], s[len(s)-1])
}
