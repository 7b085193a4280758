package main

import (
	"bufio"
	"bytes"
	"errors"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem"
	"github.com/tandem-engine/tandem/examples/scene"
	"github.com/tandem-engine/tandem/fmacheck"
	"github.com/tandem-engine/tandem/internal/jsonline"
	"github.com/tandem-engine/tandem/internal/mainthread"
	"github.com/tandem-engine/tandem/internal/racecap"
)

// TestMain runs on the main goroutine, locked to the main thread by
// tandem's init; it serves mainthread.Do there while the tests run
// elsewhere.
func TestMain(m *testing.M) { os.Exit(mainthread.Run(m.Run)) }

// demo runs the demo's command line on the main thread and returns its
// exit code, stdout and stderr; under -race its runs draw at most
// racecap.FPS frames a second.
func demo(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := 0
	mainthread.Do(func() {
		code = tandem.Command(racecap.Args(args), &stdout, &stderr, scene.NewPlatformer(), scene.NewBunnymark(), scene.NewShooter())
	})
	return code, stdout.String(), stderr.String()
}

func TestShooterScene(t *testing.T) {
	// The shoot-'em-up runs in the app, draws, and reports its hits; its
	// recording replays to the same hits-bearing state.
	mainthread.NeedDisplay(t)
	rec := filepath.Join(t.TempDir(), "shooter.tdr")
	shot := filepath.Join(t.TempDir(), "shooter.png")
	code, out, errs := demo("run", "-scene", "shooter", "-seconds", "2", "-json", "-record", rec, "-screenshot", shot)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if hits, _ := jsonline.Field(t, out, "hits").(float64); hits < 10 {
		t.Errorf("%v hits in 2 s", jsonline.Field(t, out, "hits"))
	}
	if fired, _ := jsonline.Field(t, out, "bullets_fired").(float64); fired < 1000 {
		t.Errorf("%v bullets fired in 2 s", jsonline.Field(t, out, "bullets_fired"))
	}
	code, fast, errs := demo("replay", "-fast", "-verify", "-json", rec)
	if code != 0 || jsonline.Field(t, fast, "state_hash") != jsonline.Field(t, out, "state_hash") {
		t.Errorf("replay: exit %d, %s; stderr: %s", code, fast, errs)
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
	// Bullets are yellow (#ffcd75) on the blue sky: some must show.
	yellow := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 > 0xe0 && g>>8 > 0xb0 && bl>>8 < 0x90 {
				yellow++
			}
		}
	}
	if yellow < 20 {
		t.Errorf("%d yellow pixels: no bullets drawn", yellow)
	}
}

func TestPlatformerRecordReplay(t *testing.T) {
	// The platformer played by -autoplay collects coins, and its recording
	// verifies in the coupled loop: the demo's games replay through the
	// public API as the engine's own test games do.
	mainthread.NeedDisplay(t)
	rec := filepath.Join(t.TempDir(), "platformer.tdr")
	code, out, errs := demo("run", "-seconds", "3", "-autoplay", "-json", "-record", rec)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if left, _ := jsonline.Field(t, out, "coins_left").(float64); left <= 0 || jsonline.Field(t, out, "scene") != "platformer" {
		t.Fatalf("summary: %s", out)
	}
	code, rep, errs := demo("replay", "-verify", "-json", "-loop", "coupled", rec)
	if code != 0 || jsonline.Field(t, rep, "state_hash") != jsonline.Field(t, out, "state_hash") {
		t.Fatalf("replay -loop coupled: exit %d, %s; stderr: %s", code, rep, errs)
	}
}

// publicAPI are the module's packages a game may import: the root
// package, the physics a world is made of, and the shipped levels.
var publicAPI = map[string]bool{
	"github.com/tandem-engine/tandem":          true,
	"github.com/tandem-engine/tandem/physics":  true,
	"github.com/tandem-engine/tandem/levels":   true,
	"github.com/tandem-engine/tandem/fmacheck": true, // in a game's tests
}

func TestGamesUsePublicAPI(t *testing.T) {
	// The demo's three games (examples/*) import only the public API: nothing under internal/, nor the engine's own packages (gl,
	// window, simthread, snapshot). go list -deps finds every package of
	// the demo's; each one's imports from this module must be public API
	// or the demo's own.
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("no go command to list the imports with")
	}
	cmd := exec.Command(gobin, "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "../../examples/...")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module, demoRoot = "github.com/tandem-engine/tandem/", "github.com/tandem-engine/tandem/examples"
	games := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || !strings.HasPrefix(f[0], demoRoot) {
			continue
		}
		games++
		for _, imp := range f[1:] {
			own := strings.HasPrefix(imp, demoRoot)
			if strings.HasPrefix(imp, module) && !publicAPI[imp] && !own {
				t.Errorf("%s imports %s, which is not the public API", f[0], imp)
			}
		}
	}
	if games < 3 {
		t.Fatalf("go list found %d of the demo's packages:\n%s", games, out)
	}
}

func TestWriteYourOwnGame(t *testing.T) {
	// The README's "Write your own game" is a whole program: it builds and
	// runs headless, and its summary carries its own score.
	mainthread.NeedDisplay(t)
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src := readmeGame(t, string(readme))
	// Inside the module, so that it builds against this checkout as a
	// reader's own module would against a release.
	bin := filepath.Join(t.TempDir(), "catch")
	pkg := writeGame(t, src)
	goCmd(t, "build", "-o", bin, pkg)
	// It holds no fused multiply-add, as the README tells a game author
	// to check with fmacheck: its recordings replay on arm64 too.
	if !testing.Short() {
		fused, err := fmacheck.Fused(filepath.Join("../..", pkg))
		if err != nil || len(fused) > 0 {
			t.Errorf("the README's game: fused multiply-adds %q, %v; round each product", fused, err)
		}
	}
	rec := filepath.Join(t.TempDir(), "catch.tdr")
	cmd := exec.Command(bin, "-seconds", "2", "-autoplay", "-json", "-record", rec)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the README's game: %v\n%s", err, stderr.String())
	}
	line := strings.TrimSpace(stdout.String())
	// Its recording verifies: every checkpoint of its StateHash, and the
	// final one.
	if out, err := exec.Command(bin, "replay", "-fast", "-verify", rec).CombinedOutput(); err != nil ||
		!strings.Contains(string(out), "every checkpoint and the final state match") {
		t.Fatalf("replay -fast -verify of the README's game: %v\n%s", err, out)
	}
	if jsonline.Field(t, line, "scene") != "catch" || jsonline.Field(t, line, "stopped_by") != "seconds" {
		t.Fatalf("summary: %s", line)
	}
	if _, ok := jsonline.Field(t, line, "score").(float64); !ok {
		t.Fatalf("no score in the summary: %s", line)
	}
	if ticks, _ := jsonline.Field(t, line, "ticks").(float64); ticks < 90 {
		t.Fatalf("%v ticks in 2 s", ticks)
	}
}

// readmeGame returns the Go program in the README's "Write your own game"
// section: its first ```go block.
func readmeGame(t *testing.T, readme string) string {
	t.Helper()
	_, sec, ok := strings.Cut(readme, "\n## Write your own game\n")
	if !ok {
		t.Fatal(`README.md has no "## Write your own game" section`)
	}
	_, code, ok := strings.Cut(sec, "\n```go\n")
	if !ok {
		t.Fatal("the section has no ```go block")
	}
	code, _, ok = strings.Cut(code, "\n```\n")
	if !ok || !strings.Contains(code, "tandem.Main(") {
		t.Fatal("the section's Go block is not a whole program")
	}
	return code + "\n"
}

func TestBuildWithoutCgo(t *testing.T) {
	// The demo builds with CGO_ENABLED=0 (the games use only the part of
	// the API that needs none), and the program it makes says what it
	// lacks and how to build it right, instead of a link error.
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("no go command")
	}
	bin := filepath.Join(t.TempDir(), "tandem-nocgo")
	build := exec.Command(gobin, "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("the demo does not build without cgo: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "run", "-seconds", "1").CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("exit %v, want status 1\n%s", err, out)
	}
	if !strings.Contains(string(out), "built without cgo") || !strings.Contains(string(out), "apt-get install gcc") {
		t.Fatalf("it says %q; want that it was built without cgo, and the fix", out)
	}
	// What needs no window runs: a recording made by the cgo build
	// verifies with replay -fast.
	withCgo := filepath.Join(t.TempDir(), "tandem")
	if out, err := exec.Command(gobin, "build", "-o", withCgo, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	rec := filepath.Join(t.TempDir(), "r.tdr")
	mainthread.NeedDisplay(t)
	if out, err := exec.Command(withCgo, "run", "-scene", "shooter", "-seconds", "1", "-autoplay", "-record", rec).CombinedOutput(); err != nil {
		t.Fatalf("record: %v\n%s", err, out)
	}
	out, err = exec.Command(bin, "replay", "-fast", "-verify", rec).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "every checkpoint and the final state match") {
		t.Fatalf("replay -fast -verify without cgo: %v\n%s", err, out)
	}
}

func TestCrampedLevelBeforeDisplay(t *testing.T) {
	// A level whose start has no room for the player is refused before
	// the display starts (here there is none, and no Xvfb to start: a
	// display would fail first), at the 'P''s line and column from 1, as
	// the loader's errors are.
	lv := filepath.Join(t.TempDir(), "cramped.txt")
	if err := os.WriteFile(lv, []byte("; no room\n#####\n##P##\n#####\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	t.Setenv("PATH", t.TempDir())
	code, _, errs := demo("run", "-seconds", "1", "-level", lv)
	if code != 1 || !strings.Contains(errs, lv+":3:3: the ") || !strings.Contains(errs, "does not fit at its start 'P'") ||
		strings.Contains(errs, "display") || strings.Contains(errs, "Xvfb") {
		t.Errorf("exit %d: %s", code, errs)
	}
}
