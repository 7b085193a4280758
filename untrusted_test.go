//go:build cgo && linux

package tandem

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/tandem-engine/tandem/internal/cli"
	"github.com/tandem-engine/tandem/internal/jsonline"
	"github.com/tandem-engine/tandem/internal/mallocs"
	"github.com/tandem-engine/tandem/levels"
	"github.com/tandem-engine/tandem/replay"
)

// The hostile files of issue 29, each given to the command line as a
// stranger would send it (docs/faults.md lists them with these tests).

// allocated returns the bytes the whole process allocated while f ran: a
// generous bound on what f took.
func allocated(f func()) uint64 { return mallocs.Bytes(f) }

// within runs f and fails the test if it has not returned after limit: a
// hang guard, not a timing assertion.
func within(t *testing.T, limit time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("%s: still running after %v", what, limit)
	}
}

// forgeHeader encodes h as a recording header of the given version (2 or
// 3), with none of the writer's checks: what a forger writes.
func forgeHeader(h replay.Header, version int) []byte {
	str := func(b []byte, s string) []byte {
		return append(binary.LittleEndian.AppendUint16(b, uint16(len(s))), s...)
	}
	body := str(str(nil, h.Scene), h.Level)
	body = binary.LittleEndian.AppendUint64(body, h.LevelHash)
	body = binary.LittleEndian.AppendUint64(body, h.Seed)
	for _, v := range []int{h.Hz, h.Sprites, h.ArenaW, h.ArenaH, h.CheckpointEvery} {
		body = binary.LittleEndian.AppendUint32(body, uint32(v))
	}
	body = str(body, h.Build)
	if version >= 3 {
		body = binary.LittleEndian.AppendUint32(body, uint32(len(h.LevelText)))
		body = append(body, h.LevelText...)
		body = binary.LittleEndian.AppendUint16(body, uint16(len(h.Flags)))
		for _, f := range h.Flags {
			body = str(body, f)
		}
	}
	b := binary.LittleEndian.AppendUint16([]byte(replay.Magic), uint16(version))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(body)))
	b = append(b, body...)
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// forgeChunk seals records as chunk index, reaching tick count reach.
func forgeChunk(index uint32, reach uint64, records []byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(records)))
	b = binary.LittleEndian.AppendUint32(b, index)
	b = binary.LittleEndian.AppendUint64(b, reach)
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	b = append(b, records...)
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// point encodes a checkpoint ('C') or the end ('F', stopped by "end").
func point(kind byte, tick, hash uint64) []byte {
	b := binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64([]byte{kind}, tick), hash)
	if kind == 'F' {
		b = append(b, 3, 0, 'e', 'n', 'd')
	}
	return b
}

// asVersion2 rewrites the recording b as version 2 wrote it, its level
// named by level: the chunks are the same, the header holds no level
// text and no flags.
func asVersion2(t *testing.T, b []byte, level string) []byte {
	t.Helper()
	rec, err := replay.Read(bytes.NewReader(b), int64(len(b)), "rec.tdr")
	if err != nil {
		t.Fatal(err)
	}
	h := rec.Header
	h.Level = level
	end := 8 + 2 + 4 + int(binary.LittleEndian.Uint32(b[10:])) + 4
	return append(forgeHeader(h, 2), b[end:]...)
}

func writeFile(t *testing.T, path string, b []byte) string {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestForgedRecordings(t *testing.T) {
	// Issue 29's forged recordings: a bunnymark-like arena of 1,000,000 x
	// 1,000,000 px (it grew past 4.9 GB) and one chunk claiming tick
	// 2^64-1 with no checkpoint (800,000 years of replay): each refused
	// from the file's own bytes, far under 100 MB.
	dir := t.TempDir()
	dots := replay.Header{Scene: "dots", Seed: 1, Hz: 60, Sprites: 100, ArenaW: 1280, ArenaH: 720, CheckpointEvery: 60, Build: "forged"}
	vast := dots
	vast.ArenaW, vast.ArenaH = 1_000_000, 1_000_000
	for _, tc := range []struct {
		name, want string
		file       []byte
	}{
		{"arena.tdr", "arena 1000000x1000000 px (want each side 0 to 16384, as -width and -height)",
			append(forgeHeader(vast, 3), forgeChunk(0, 60, append(point('C', 0, 1), point('F', 60, 2)...))...)},
		{"ticks.tdr", "the end record of tick 18446744073709551615, past tick 60",
			append(forgeHeader(dots, 3), forgeChunk(0, math.MaxUint64, point('F', math.MaxUint64, 2))...)},
	} {
		path := writeFile(t, filepath.Join(dir, tc.name), tc.file)
		var code int
		var errs string
		n := allocated(func() {
			within(t, time.Minute, tc.name, func() { code, _, errs = tandemMain("replay", "-fast", "-verify", path) })
		})
		if code != 1 || !strings.Contains(errs, tc.name+": byte ") || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: exit %d: %s", tc.name, code, errs)
		}
		if n > 100<<20 {
			t.Errorf("%s: %d MB allocated to refuse a %d-byte file", tc.name, n>>20, len(tc.file))
		}
	}
	// A long recording its bytes do hold (a checkpoint every 60 ticks
	// for 6 million ticks, 1.7 MB): -seconds bounds a fast replay too.
	var recs bytes.Buffer
	const points = 100_000
	for k := range uint64(points) {
		recs.Write(point('C', k*60, 0))
	}
	b := forgeHeader(dots, 3)
	half := recs.Len() / 2 / 17 * 17
	b = append(b, forgeChunk(0, uint64(half/17-1)*60, recs.Bytes()[:half])...)
	b = append(b, forgeChunk(1, (points-1)*60, recs.Bytes()[half:])...)
	long := writeFile(t, filepath.Join(dir, "long.tdr"), b)
	var code int
	var out, errs string
	within(t, time.Minute, "replay -fast -seconds 0.5", func() { code, out, errs = tandemMain("replay", "-fast", "-seconds", "0.5", "-json", long) })
	if code != 0 || jsonline.Field(t, out, "stopped_by") != "seconds" || jsonline.Field(t, out, "ticks").(float64) >= (points-1)*60 {
		t.Errorf("replay -fast -seconds 0.5 of %d ticks: exit %d, %s; stderr: %s", (points-1)*60, code, out, errs)
	}
}

func TestRecordingOpensNoPath(t *testing.T) {
	// A recording's level is never a path it names: an old recording
	// naming /dev/zero, a FIFO or another file opens none of them, and
	// one naming a bare file beside it that is a FIFO, or not a level,
	// neither hangs nor shows the file's bytes.
	dir := t.TempDir()
	sub := filepath.Join(dir, "recs")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "level.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := syscall.Mkfifo(filepath.Join(sub, "beside.fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "victim"), []byte("rosebud: the secret\n"))
	writeFile(t, filepath.Join(sub, "secret.txt"), []byte("rosebud: the secret\n"))
	// A link beside the recording, to a private level outside its folder
	// (which a v2 replay opened and played) and to a FIFO.
	writeFile(t, filepath.Join(dir, "private.txt"), []byte("#####\n#P..#\n#####\n"))
	for link, target := range map[string]string{"lnk": "../private.txt", "lnk.fifo": "beside.fifo"} {
		if err := os.Symlink(target, filepath.Join(sub, link)); err != nil {
			t.Fatal(err)
		}
	}
	walker := replay.Header{Scene: "walker", Seed: 1, Hz: 60, ArenaW: 1280, ArenaH: 720, CheckpointEvery: 60, Build: "forged"}
	chunk := forgeChunk(0, 60, append(point('C', 0, 1), point('F', 60, 2)...))
	for _, tc := range []struct{ level, want string }{
		{"/dev/zero", `recorded on the level "/dev/zero", a path; a replay opens no path a recording names: give the level with -level`},
		{fifo, "a path; a replay opens no path"},
		{"../victim", `recorded on the level "../victim", a path`},
		{"beside.fifo", "beside.fifo is a FIFO, not a regular file"},
		{"secret.txt", `recorded on the level "secret.txt"; ` + filepath.Join(sub, "secret.txt") + " beside it is not that level (line 1, column 1 does not parse)"},
		// Escape sequences that would retitle and clear the terminal.
		{"\x1b]0;PWNED\a\x1b[2J", `looked up beside it: `},
		{"lnk", `recorded on the level "lnk"; ` + filepath.Join(sub, "lnk") + " beside it is a symbolic link out of its folder, which a replay does not follow (it could point at any file): give the level with -level"},
		// A link that stays in the folder is followed, to a FIFO there,
		// which is refused without waiting for a writer.
		{"lnk.fifo", filepath.Join(sub, "lnk.fifo") + " is a FIFO, not a regular file"},
	} {
		h := walker
		h.Level = tc.level
		rec := writeFile(t, filepath.Join(sub, "v2.tdr"), append(forgeHeader(h, 2), chunk...))
		var code int
		var errs string
		within(t, 10*time.Second, "a recording naming "+tc.level, func() { code, _, errs = tandemMain("replay", "-fast", rec) })
		if code != 1 || !strings.Contains(errs, tc.want) || strings.Contains(errs, "rosebud") || strings.Contains(errs, "'r'") ||
			strings.ContainsAny(errs, "\x1b\a") {
			t.Errorf("level %q: exit %d: %s", tc.level, code, errs)
		}
	}
	// A version 3 recording holds its level: text that does not match
	// its hash is a corrupt file, whatever it names.
	h := walker
	h.Level, h.LevelText, h.LevelHash = "/dev/zero", []byte("#####\n#P..#\n#####\n"), 1
	rec := writeFile(t, filepath.Join(sub, "v3.tdr"), append(forgeHeader(h, 3), chunk...))
	code, _, errs := tandemMain("replay", "-fast", rec)
	if code != 1 || !strings.Contains(errs, "the level it holds has hash") || !strings.Contains(errs, "the file is corrupt") {
		t.Errorf("level text of another hash: exit %d: %s", code, errs)
	}
	// Without level text (a level the format could not hold), a version
	// 3 recording's level name is a name and nothing more: the game's
	// own level is played, checked by hash.
	h.LevelText = nil
	writeFile(t, filepath.Join(sub, "zero"), []byte("#####\n#P..#\n#####\n"))
	for _, name := range []string{"/dev/zero", "zero", "beside.fifo"} {
		h.Level = name
		rec = writeFile(t, filepath.Join(sub, "v3.tdr"), append(forgeHeader(h, 3), chunk...))
		within(t, 10*time.Second, "a version 3 recording naming "+name, func() { code, _, errs = tandemMain("replay", "-fast", rec) })
		if code != 1 || !strings.Contains(errs, "recorded on another level than the game's own level") {
			t.Errorf("version 3 naming %q without its text: exit %d: %s", name, code, errs)
		}
	}
}

func TestLevelFIFO(t *testing.T) {
	// -level naming a FIFO is refused at once: the open does not wait
	// for a writer, and nothing else starts first.
	fifo := filepath.Join(t.TempDir(), "level.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	var code int
	var errs string
	within(t, 10*time.Second, "-level FIFO", func() { code, _, errs = tandemMain("run", "-seconds", "1", "-level", fifo) })
	if code != 1 || !strings.Contains(errs, fifo+" is a FIFO, not a regular file") {
		t.Errorf("exit %d: %s", code, errs)
	}
}

func TestRecordingHoldsItsLevel(t *testing.T) {
	// A recording made on a level file replays and verifies with the file
	// gone: it holds the level. The same recording as version 2 wrote it
	// (its header naming the level) still verifies, with the level found
	// as a bare name beside it, or given with -level; a game's own level
	// needs no file at all.
	needDisplay(t)
	dir := t.TempDir()
	demo, err := os.ReadFile("levels/demo.txt")
	if err != nil {
		t.Fatal(err)
	}
	level := writeFile(t, filepath.Join(dir, "mine.txt"), demo)
	rec := filepath.Join(dir, "run.tdr")
	code, out, errs := tandemMain("run", "-seconds", "1.2", "-autoplay", "-level", level, "-record", rec, "-json")
	if code != 0 {
		t.Fatalf("record: exit %d: %s", code, errs)
	}
	hash := jsonline.Field(t, out, "state_hash")
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(level); err != nil {
		t.Fatal(err)
	}
	code, out, errs = tandemMain("replay", "-fast", "-verify", "-json", rec)
	if code != 0 || jsonline.Field(t, out, "state_hash") != hash {
		t.Fatalf("the level file gone: exit %d, %s; stderr: %s", code, out, errs)
	}
	other := t.TempDir()
	v2 := writeFile(t, filepath.Join(other, "v2.tdr"), asVersion2(t, b, "mine.txt"))
	code, _, errs = tandemMain("replay", "-fast", "-verify", v2)
	if code != 1 || !strings.Contains(errs, `recorded on the level "mine.txt", looked up beside it`) {
		t.Errorf("version 2, no level beside it: exit %d: %s", code, errs)
	}
	writeFile(t, filepath.Join(other, "mine.txt"), demo)
	code, out, errs = tandemMain("replay", "-fast", "-verify", "-json", v2)
	if code != 0 || jsonline.Field(t, out, "state_hash") != hash {
		t.Errorf("version 2, the level beside it: exit %d, %s; stderr: %s", code, out, errs)
	}
	abs := writeFile(t, filepath.Join(other, "abs.tdr"), asVersion2(t, b, filepath.Join(other, "mine.txt")))
	code, _, errs = tandemMain("replay", "-fast", "-verify", abs)
	if code != 1 || !strings.Contains(errs, "a path; a replay opens no path") {
		t.Errorf("version 2 naming a path: exit %d: %s", code, errs)
	}
	code, out, errs = tandemMain("replay", "-fast", "-verify", "-json", "-level", filepath.Join(other, "mine.txt"), abs)
	if code != 0 || jsonline.Field(t, out, "state_hash") != hash {
		t.Errorf("version 2 naming a path, with -level: exit %d, %s; stderr: %s", code, out, errs)
	}
	// The game's own level, as version 2 recorded it (no name).
	own := filepath.Join(dir, "own.tdr")
	if code, out, errs = tandemMain("run", "-seconds", "1.2", "-autoplay", "-record", own, "-json"); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errs)
	}
	hash = jsonline.Field(t, out, "state_hash")
	b, err = os.ReadFile(own)
	if err != nil {
		t.Fatal(err)
	}
	v2 = writeFile(t, filepath.Join(other, "own2.tdr"), asVersion2(t, b, ""))
	code, out, errs = tandemMain("replay", "-fast", "-verify", "-json", v2)
	if code != 0 || jsonline.Field(t, out, "state_hash") != hash {
		t.Errorf("version 2 of the game's own level: exit %d, %s; stderr: %s", code, out, errs)
	}
}

// pilot is a game with a flag of its own: -autopilot moves its block
// right every tick, so a replay without the flag would step elsewhere.
type pilot struct {
	auto *bool
	x    float32
	me   ID
}

func (g *pilot) Info() Info { return Info{Name: "pilot"} }

func (g *pilot) Setup(s *Setup) error {
	*g = pilot{auto: g.auto}
	g.me = s.World().Spawn(Sprite{X: 0, Y: 100, Frame: s.Image("block", square(8, 8, color.RGBA{250, 250, 250, 255}))})
	return nil
}

func (g *pilot) Tick(w *World) {
	if *g.auto || w.Down(Right) {
		g.x += 2
	}
	w.Move(g.me, g.x, 100)
}

func TestGameFlagsRecorded(t *testing.T) {
	// Issue 28: a game's own flags are in its recording. Recorded with
	// -autopilot and replayed without it, the run verifies, and the
	// replay's JSON names the flags it set; given otherwise on the
	// replay's command line, the flag wins, with a note.
	needDisplay(t)
	fs := flag.NewFlagSet("pilot", flag.ContinueOnError)
	auto := fs.Bool("autopilot", false, "fly by itself")
	p := cli.Program{Name: "pilot", Games: adapt([]Game{&pilot{auto: auto}}), Flags: fs}
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := 0
		onMain(func() { code = p.Run(args, &stdout, &stderr) })
		return code, stdout.String(), stderr.String()
	}
	rec := filepath.Join(t.TempDir(), "pilot.tdr")
	code, out, errs := run("run", "-seconds", "1.2", "-autopilot", "-record", rec, "-json")
	if code != 0 {
		t.Fatalf("record: exit %d: %s", code, errs)
	}
	hash := jsonline.Field(t, out, "state_hash")
	*auto = false // as a new process would start
	code, out, errs = run("replay", "-fast", "-verify", "-json", rec)
	if code != 0 || jsonline.Field(t, out, "state_hash") != hash ||
		!reflect.DeepEqual(jsonline.Field(t, out, "game_flags"), []any{"autopilot=true"}) {
		t.Errorf("replay -fast without -autopilot: exit %d, %s; stderr: %s", code, out, errs)
	}
	*auto = false
	code, out, errs = run("replay", "-verify", "-json", rec)
	if rep, _ := jsonline.Field(t, out, "replay").(map[string]any); code != 0 || rep == nil || !reflect.DeepEqual(rep["game_flags"], []any{"autopilot=true"}) {
		t.Errorf("replay in a window without -autopilot: exit %d, %s; stderr: %s", code, out, errs)
	}
	*auto = false
	code, _, errs = run("replay", "-fast", "-verify", "-autopilot=false", rec)
	if code != 1 || !strings.Contains(errs, `-autopilot=false given: it replaces the recording's "-autopilot=true"`) || !strings.Contains(errs, "state differs") {
		t.Errorf("replay with -autopilot=false: exit %d: %s", code, errs)
	}
}

// bombPNG returns the header of a w x h grey PNG and the start of its
// pixels, all zeros: issue 29's bomb was the whole of it, 875 KB for
// 30000 x 30000. A decoder allocates the whole image (900 MB in grey)
// before it reads the first pixel, so the start is bomb enough.
func bombPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	chunk := func(b []byte, typ string, data []byte) []byte {
		b = binary.BigEndian.AppendUint32(b, uint32(len(data)))
		c := append([]byte(typ), data...)
		return binary.BigEndian.AppendUint32(append(b, c...), crc32.ChecksumIEEE(c))
	}
	ihdr := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, uint32(w)), uint32(h))
	ihdr = append(ihdr, 8, 0, 0, 0, 0) // 8-bit grey, no interlace
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(make([]byte, 1<<20))
	zw.Flush()
	b := chunk([]byte("\x89PNG\r\n\x1a\n"), "IHDR", ihdr)
	return chunk(chunk(b, "IDAT", z.Bytes()), "IEND", nil)
}

func TestImageBomb(t *testing.T) {
	// A 30000 x 30000 PNG loaded through Setup.Images is refused from
	// its header, naming its file, far under 100 MB; an image given one
	// by one is refused by its name; a FIFO among the images is refused
	// before it is opened.
	bomb := bombPNG(t, 30000, 30000)
	fsys := fstest.MapFS{"art/a.png": {Data: bomb}}
	var err error
	n := allocated(func() {
		_, err = NewSim(gameFunc(func(s *Setup) error { return s.Images(fsys, "art/*.png") }), SimConfig{})
	})
	if err == nil || !strings.Contains(err.Error(), "tandem: image art/a.png: 30000x30000 px does not fit the atlas, which holds images up to 8188 px a side") {
		t.Errorf("the bomb: %v", err)
	}
	if n > 100<<20 {
		t.Errorf("the bomb: %d MB allocated to refuse it", n>>20)
	}
	// Images that each fit but not together: the second is refused from
	// its header, before it is decoded.
	fsys = fstest.MapFS{"art/b.png": {Data: bombPNG(t, 8000, 8000)}}
	n = allocated(func() {
		_, err = NewSim(gameFunc(func(s *Setup) error {
			s.Image("a", &image.Gray{Rect: image.Rect(0, 0, 8000, 8000)}) // no pixels: its bounds are the claim
			return s.Images(fsys, "art/*.png")
		}), SimConfig{})
	})
	if err == nil || !strings.Contains(err.Error(), "tandem: image art/b.png: 8000x8000 px does not fit the atlas beside the images declared before it") {
		t.Errorf("images that fit one by one, not together: %v", err)
	}
	if n > 100<<20 {
		t.Errorf("images that fit one by one, not together: %d MB allocated to refuse them", n>>20)
	}
	huge := &image.Gray{Rect: image.Rect(0, 0, 30000, 30000)} // no pixels: its bounds are the claim
	_, err = NewSim(gameFunc(func(s *Setup) error { s.Image("hero", huge); return nil }), SimConfig{})
	if err == nil || !strings.Contains(err.Error(), `tandem: image "hero": 30000x30000 px does not fit the atlas`) || strings.Contains(err.Error(), "\x00") {
		t.Errorf("a huge image given by itself: %v", err)
	}
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "b.png"), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	within(t, 10*time.Second, "Images with a FIFO", func() {
		_, err = NewSim(gameFunc(func(s *Setup) error { return s.Images(os.DirFS(dir), "*.png") }), SimConfig{})
	})
	if err == nil || !strings.Contains(err.Error(), "tandem: image b.png: a FIFO, not a regular file") {
		t.Errorf("a FIFO among the images: %v", err)
	}
}

// picky takes a level and refuses every one in its Setup, as a game
// refuses a level with no room at its start.
type picky struct{}

func (picky) Info() Info { return Info{Name: "picky", Level: levels.Demo} }
func (picky) Setup(s *Setup) error {
	return fmt.Errorf("level %s: no room at the start", s.Level().Name)
}
func (picky) Tick(*World) {}

func TestRunLevelBeforeDisplay(t *testing.T) {
	// Run with Config.Level sets the game up on it once before anything
	// else: the game's refusal comes back, not the missing display.
	lv := writeFile(t, filepath.Join(t.TempDir(), "l.txt"), []byte("###\n#P#\n###\n"))
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	var err error
	onMain(func() { err = Run(context.Background(), picky{}, Config{Level: lv}) })
	var se *SetupError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "level "+lv+": no room at the start") {
		t.Errorf("%v", err)
	}
}
