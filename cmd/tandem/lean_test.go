package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/internal/jsonline"
	"github.com/tandem-engine/tandem/internal/mainthread"
)

// A game with a flag of its own, defined the flag package's way before
// Main, and a game built on Run.
const (
	flagGame = `package main

import (
	"flag"

	"github.com/tandem-engine/tandem"
)

var speed = flag.Int("speed", 1, "how far the square moves a tick, px")

type game struct{ moved int64 }

func (g *game) Setup(s *tandem.Setup) error { s.World().Spawn(tandem.Sprite{Scale: 8}); return nil }
func (g *game) Tick(w *tandem.World)        { g.moved += int64(*speed) }
func (g *game) Counters(add func(string, int64)) {
	add("speed", int64(*speed))
}

func main() { tandem.Main(&game{}) }
`
	runGame = `package main

import (
	"context"
	"fmt"
	"os"

	"github.com/tandem-engine/tandem"
)

type game struct{}

func (game) Setup(s *tandem.Setup) error { s.World().Spawn(tandem.Sprite{Scale: 8}); return nil }
func (game) Tick(w *tandem.World)        {}

func main() {
	if err := tandem.Run(context.Background(), game{}, tandem.Config{Seconds: 1, JSON: true}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
`
)

// writeGame writes src as a program inside the module (so that it builds
// against this checkout) and returns its package path, relative to the
// module's root. Its folder's name begins with "_", which the go
// command's ./... leaves out: a go vet ./... running meanwhile (make test
// vets for Windows beside these tests) never meets it half made or gone.
func writeGame(t *testing.T, src string) string {
	t.Helper()
	dir, err := os.MkdirTemp("../..", "_game-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return "./" + filepath.Base(dir)
}

// goCmd runs the go command in the module's root.
func goCmd(t *testing.T, args ...string) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("no go command")
	}
	cmd := exec.Command(gobin, args...)
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func TestGameFlag(t *testing.T) {
	// The game's own flag is shown in -h beside the engine's, under the
	// program's name, and reaches the game.
	mainthread.NeedDisplay(t)
	pkg := writeGame(t, flagGame)
	bin := filepath.Join(t.TempDir(), "flaggame")
	goCmd(t, "build", "-o", bin, pkg)
	var stderr bytes.Buffer
	help := exec.Command(bin, "run", "-h")
	help.Stderr = &stderr
	if err := help.Run(); err != nil {
		t.Fatalf("-h: %v\n%s", err, stderr.String())
	}
	for _, want := range []string{"usage: flaggame run [flags]", "-speed", "how far the square moves a tick", "-seconds"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("-h says no %q:\n%s", want, stderr.String())
		}
	}
	out, err := exec.Command(bin, "-seconds", "1", "-speed", "3", "-json").Output()
	if err != nil {
		t.Fatalf("flaggame -speed 3: %v", err)
	}
	if v := jsonline.Field(t, strings.TrimSpace(string(out)), "speed"); v != 3.0 {
		t.Fatalf("-speed 3 reached the game as %v", v)
	}
	var errb bytes.Buffer
	bad := exec.Command(bin, "-speed", "fast")
	bad.Stderr = &errb
	if err := bad.Run(); err == nil || !strings.Contains(errb.String(), "flaggame run:") {
		t.Fatalf("-speed fast: %v: %s", err, errb.String())
	}
}

func TestLeanGames(t *testing.T) {
	// A game built on Run links no plotting, no HTTP server and no
	// process spawning; one built on Main (the example games too) no
	// plotting and no HTTP server: -pprof's server is linked by an import
	// of pprofserver, which this launcher has.
	banned := func(deps string, what []string) {
		t.Helper()
		for _, d := range strings.Fields(deps) {
			for _, w := range what {
				if d == w || strings.HasPrefix(d, w+"/") {
					t.Errorf("links %s", d)
				}
			}
		}
	}
	plotting := []string{"gonum.org", "codeberg.org", "git.sr.ht", "github.com/ajstarks", "github.com/golang/freetype"}
	banned(goCmd(t, "list", "-deps", writeGame(t, runGame)), append([]string{"net/http", "os/exec", "crypto/tls"}, plotting...))
	banned(goCmd(t, "list", "-deps", writeGame(t, flagGame)), append([]string{"net/http"}, plotting...))
	for _, game := range []string{"./examples/bunnymark", "./examples/platformer", "./examples/shooter"} {
		banned(goCmd(t, "list", "-deps", game), append([]string{"net/http"}, plotting...))
	}
	if deps := goCmd(t, "list", "-deps", "./cmd/tandem"); !strings.Contains(deps, "\nnet/http/pprof\n") {
		t.Error("the tandem launcher does not link net/http/pprof: -pprof would not work in it")
	}
}
