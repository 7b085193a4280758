package main

import (
	"bytes"
	"errors"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/tandem-engine/tandem/window/mainthread"
)

// TestMain runs on the main goroutine, locked to the main thread by this
// package's init; it serves onMain there while the tests run elsewhere.
func TestMain(m *testing.M) { os.Exit(mainthread.Run(m.Run)) }

// onMain runs f on the main thread and waits for it.
func onMain(f func()) { mainthread.Do(f) }

// needDisplay skips a test that opens a window when there is no display,
// and fails it instead under CI=true: CI runs the GL tests under Xvfb, so a
// missing display there is a broken setup, not a reason to pass.
func needDisplay(t *testing.T) {
	t.Helper()
	if os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no display under CI=true: run the tests under xvfb-run (make test does)")
	}
	t.Skip("no display: run under xvfb-run (make test does)")
}

func testOptions(t *testing.T, args ...string) options {
	t.Helper()
	o, err := parseRunFlags(args, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestThreads(t *testing.T) {
	// Every tick runs on one OS thread, every frame's GL calls on another:
	// the main thread.
	needDisplay(t)
	var mu sync.Mutex
	ticks, frames := map[int]int{}, map[int]int{}
	h := &hooks{
		onTick:  func() { mu.Lock(); ticks[unix.Gettid()]++; mu.Unlock() },
		onFrame: func() { mu.Lock(); frames[unix.Gettid()]++; mu.Unlock() },
	}
	var err error
	onMain(func() { _, err = runApp(testOptions(t, "-seconds", "1", "-sprites", "100"), h) })
	if err != nil {
		t.Fatal(err)
	}
	if len(ticks) != 1 || len(frames) != 1 {
		t.Fatalf("ticks ran on threads %v, frames on %v: want one each", ticks, frames)
	}
	for tick := range ticks {
		for frame, n := range frames {
			if tick == frame {
				t.Fatalf("ticks and GL calls share thread %d", tick)
			}
			if frame != os.Getpid() {
				t.Fatalf("GL ran on thread %d, not the main thread %d", frame, os.Getpid())
			}
			if n < 10 || ticks[tick] < 30 {
				t.Fatalf("only %d frames and %d ticks in a second", n, ticks[tick])
			}
		}
	}
}

func TestScreenshotAfterTwoSeconds(t *testing.T) {
	needDisplay(t)
	dir := t.TempDir()
	shot := filepath.Join(dir, "demo.png")
	var sum *summary
	var err error
	onMain(func() {
		sum, err = runApp(testOptions(t, "-seconds", "2", "-screenshot", shot, "-sprites", "200"), nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	colours := map[[4]uint32]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, a := img.At(x, y).RGBA()
			colours[[4]uint32{r, g, bl, a}]++
		}
	}
	if len(colours) < 16 {
		t.Fatalf("screenshot has %d colours: blank or flat", len(colours))
	}
	total := (b.Dx() / 2) * (b.Dy() / 2)
	for c, n := range colours {
		if n > total*9/10 {
			t.Fatalf("colour %v covers %d of %d pixels", c, n, total)
		}
	}
	if sum.Ticks < 100 || sum.Frames < 20 || sum.Sprites < 200 {
		t.Fatalf("summary after 2 s: %+v", sum)
	}
}

func TestFrameAllocs(t *testing.T) {
	// A frame in steady state allocates nothing: measured by the app itself
	// over a run, from runtime/metrics, as -json reports it.
	needDisplay(t)
	var sum *summary
	var err error
	onMain(func() { sum, err = runApp(testOptions(t, "-seconds", "3", "-sprites", "1000", "-vsync=false"), nil) })
	if err != nil {
		t.Fatal(err)
	}
	// The whole process counts, so the odd runtime-internal allocation may
	// show: allow well under one allocation per hundred frames.
	if sum.AllocsPerFrame < 0 || sum.AllocsPerFrame > 0.01 {
		t.Fatalf("allocs_per_frame = %v over %d frames", sum.AllocsPerFrame, sum.Frames)
	}
}

func TestBadFlags(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"-scene pong", `-scene: "pong" is not a scene (use platformer or bunnymark)`},
		{"-loop sideways", `-loop "sideways" is not a loop (use decoupled or coupled)`},
		{"-hz 0", "-hz 0 out of range (use 1 to 1000)"},
		{"-sprites -5", "-sprites -5 out of range"},
		{"-sprite-size 0", "-sprite-size 0 out of range"},
		{"-seconds -1", "-seconds -1 is negative"},
		{"-vsync=maybe", "invalid boolean value"},
		{"-bogus", "flag provided but not defined: -bogus"},
		{"run extra", `unexpected argument "extra"`},
		{"fly", `unknown subcommand "fly"`},
	} {
		var out, errb bytes.Buffer
		code := run(strings.Fields(tc.args), &out, &errb)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want %d", tc.args, code, exitUsage)
		}
		if !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%s: stderr %q, want it to say %q", tc.args, errb.String(), tc.want)
		}
	}
}

func TestMissingLevel(t *testing.T) {
	var err error
	onMain(func() { _, err = runApp(testOptions(t, "-level", "no/such/level.txt", "-seconds", "1"), nil) })
	if err == nil || !strings.Contains(err.Error(), "no/such/level.txt") {
		t.Fatalf("missing level: %v", err)
	}
}

func TestMalformedLevel(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("####\n#P.#\n#.x#\n####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var err error
	onMain(func() { _, err = runApp(testOptions(t, "-level", bad, "-seconds", "1"), nil) })
	if err == nil || !strings.Contains(err.Error(), bad+":3:3") {
		t.Fatalf("malformed level: %v, want the file, line 3, column 3", err)
	}
}

func TestNoDisplay(t *testing.T) {
	// GLFW keeps its state per process: try it in a child without DISPLAY.
	if os.Getenv("TANDEM_TEST_CHILD") == "1" {
		os.Exit(run([]string{"-seconds", "1"}, os.Stdout, os.Stderr))
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoDisplay$")
	cmd.Env = append(os.Environ(), "TANDEM_TEST_CHILD=1", "DISPLAY=", "WAYLAND_DISPLAY=")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitError {
		t.Fatalf("without a display: %v, want exit code %d; output:\n%s", err, exitError, out)
	}
	if !strings.Contains(string(out), "no display: set DISPLAY, or run under xvfb-run") {
		t.Fatalf("without a display it said:\n%s", out)
	}
}

func TestCoupledLoop(t *testing.T) {
	// The classic single-thread loop: ticks and GL calls share the main
	// thread, and the sim still holds its rate.
	needDisplay(t)
	var mu sync.Mutex
	threads := map[int]int{}
	h := &hooks{
		onTick:  func() { mu.Lock(); threads[unix.Gettid()]++; mu.Unlock() },
		onFrame: func() { mu.Lock(); threads[unix.Gettid()]++; mu.Unlock() },
	}
	var sum *summary
	var err error
	onMain(func() { sum, err = runApp(testOptions(t, "-loop", "coupled", "-seconds", "1.5", "-autoplay"), h) })
	if err != nil {
		t.Fatal(err)
	}
	if len(threads) != 1 || threads[os.Getpid()] == 0 {
		t.Fatalf("coupled loop ran on threads %v, want only the main thread %d", threads, os.Getpid())
	}
	if sum.Loop != "coupled" || sum.Ticks < 60 || sum.TPS < 40 {
		t.Fatalf("coupled summary: loop %s, %d ticks, %.1f TPS", sum.Loop, sum.Ticks, sum.TPS)
	}
}
