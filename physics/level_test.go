package physics

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/internal/mallocs"
)

func TestParseLevel(t *testing.T) {
	src := "; a comment\r\n" +
		"#####\r\n" +
		"#P.C#\n" +
		"; comments may sit between rows\n" +
		"#=C.#\n" +
		"#####\n" +
		"\n\n"
	l, err := ParseLevel("t.txt", strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if l.Name != "t.txt" || l.W != 5 || l.H != 4 || len(l.Tiles) != 20 {
		t.Fatalf("got name %q %dx%d with %d tiles", l.Name, l.W, l.H, len(l.Tiles))
	}
	if want := (Vec{16, 16}); l.PlayerStart != want {
		t.Errorf("PlayerStart = %v, want %v", l.PlayerStart, want)
	}
	if want := []Vec{{48, 16}, {32, 32}}; fmt.Sprint(l.Coins) != fmt.Sprint(want) {
		t.Errorf("Coins = %v, want %v", l.Coins, want)
	}
	for _, c := range []struct {
		x, y int
		want Tile
	}{
		{0, 0, TileSolid}, {1, 1, TileEmpty}, {3, 1, TileEmpty}, {1, 2, TileOneWay}, {2, 2, TileEmpty},
		{-1, 1, TileSolid}, {5, 1, TileSolid}, {1, -1, TileSolid}, {1, 4, TileSolid},
	} {
		if got := l.At(c.x, c.y); got != c.want {
			t.Errorf("At(%d, %d) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	if got, want := l.String(), "#####\n#...#\n#=..#\n#####\n"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestParseLevelBOMAndTrailingSpace(t *testing.T) {
	// A byte-order mark (Notepad writes one) and trailing spaces and tabs
	// (most editors leave them) are not tiles; positions stay 1-based.
	src := "\xEF\xBB\xBF####  \r\n#P.# \t\n####\t\n"
	l, err := ParseLevel("bom.txt", strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if l.W != 4 || l.H != 3 || l.PlayerStart != (Vec{16, 16}) {
		t.Fatalf("got %dx%d, start %v", l.W, l.H, l.PlayerStart)
	}
	_, err = ParseLevel("bom.txt", strings.NewReader("\xEF\xBB\xBFx###\n#P.#\n"))
	if err == nil || err.Error() != "physics: bom.txt:1:1: unknown tile 'x' (use # = P C .)" {
		t.Fatalf("error after a BOM: %v, want line 1 column 1", err)
	}
}

// TestParseLevelLineEnds: LF, CRLF and lone CR (classic Mac OS) end lines
// alike, in any mix, and positions in errors count them all; CRs before an
// LF stay trailing space, as before lone CRs were read.
func TestParseLevelLineEnds(t *testing.T) {
	want, err := ParseLevel("lf.txt", strings.NewReader("; c\n#####\n#P.C#\n#=C.#\n#####\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		"; c\r#####\r#P.C#\r#=C.#\r#####\r",
		"; c\r#####\r#P.C#\r#=C.#\r#####",
		"; c\r\n#####\r\n#P.C#\r\n#=C.#\r\n#####\r\n",
		"; c\r#####\n#P.C#\r\n#=C.#\r#####\n\r\n\r",
		"; c\r\r\n#####\r\r\n#P.C# \r\t\r\n#=C.#\n#####\r\r", // doubled CRs and trailing space
	} {
		l, err := ParseLevel("x.txt", strings.NewReader(src))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if l.W != want.W || l.H != want.H || l.Hash() != want.Hash() {
			t.Errorf("%q: %dx%d, hash %#x; want %dx%d, hash %#x like its LF twin", src, l.W, l.H, l.Hash(), want.W, want.H, want.Hash())
		}
	}
	for _, c := range []struct{ src, want string }{
		{"###\r#x#\r", "physics: x.txt:2:2: unknown tile 'x' (use # = P C .)"},
		{"###\r\r#P#\r", "physics: x.txt:2:1: blank line between rows (fill the row with '.' or start the line with ';' to make it a comment)"},
		{"###\r\n#P#\r##\n", "physics: x.txt:3:1: row is 2 tiles wide, expected 3 like the first row on line 1 (all rows must have the same width)"},
		{"#P#\r  #\n", "physics: x.txt:2:1: unknown tile ' ' (use # = P C .)"},
	} {
		if _, err := ParseLevel("x.txt", strings.NewReader(c.src)); err == nil || err.Error() != c.want {
			t.Errorf("%q: error %v\nwant %s", c.src, err, c.want)
		}
	}
}

// TestParseLevelLineEndsRandom writes random levels with a random line end
// after each line and checks that each reads as its LF version does.
func TestParseLevelLineEndsRandom(t *testing.T) {
	r := NewRNG(5)
	ends := []string{"\n", "\r\n", "\r", "\r\r\n", " \r\n", "\t\r"}
	for i := range 2000 {
		w, h := 1+r.Intn(12), 1+r.Intn(8)
		rows := make([]string, h)
		for y := range rows {
			b := make([]byte, w)
			for x := range b {
				b[x] = "#=C.."[r.Intn(5)]
			}
			rows[y] = string(b)
		}
		p := r.Intn(w * h)
		rows[p/w] = rows[p/w][:p%w] + "P" + rows[p/w][p%w+1:]
		if r.Intn(2) == 0 {
			rows = append([]string{"; level " + fmt.Sprint(i)}, rows...)
		}
		lf := strings.Join(rows, "\n") + "\n"
		var mixed strings.Builder
		for _, row := range rows {
			mixed.WriteString(row + ends[r.Intn(len(ends))])
		}
		want, err := ParseLevel("lf.txt", strings.NewReader(lf))
		if err != nil {
			t.Fatalf("%q: %v", lf, err)
		}
		got, err := ParseLevel("mixed.txt", strings.NewReader(mixed.String()))
		if err != nil {
			t.Fatalf("%q: %v (its LF version %q reads)", mixed.String(), err, lf)
		}
		if got.Hash() != want.Hash() || got.String() != want.String() {
			t.Fatalf("%q reads as\n%s, its LF version as\n%s", mixed.String(), got, want)
		}
	}
}

// TestParseLevelObjectLimit: MaxLevelObjects coins and player starts
// together parse; one more is refused at its position, with the level's
// whole count (not counting a 'C' in a comment) and what to remove.
func TestParseLevelObjectLimit(t *testing.T) {
	const w = 1000
	coins := strings.Repeat("C", w) + "\n"
	// 999 full rows, then one with the player and w-1 coins: exactly the limit.
	var b strings.Builder
	b.WriteString("; Coins everywhere\n")
	for range MaxLevelObjects/w - 1 {
		b.WriteString(coins)
	}
	b.WriteString("P" + strings.Repeat("C", w-1) + "\n")
	atLimit := b.String()
	l, err := ParseLevel("full.txt", strings.NewReader(atLimit))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Coins) != MaxLevelObjects-1 {
		t.Fatalf("%d coins, want %d", len(l.Coins), MaxLevelObjects-1)
	}
	// One more row: the first coin of it is past the limit; the row after
	// it and its comment still count in the message.
	over := atLimit + coins + "; C C C\n" + "CC.." + strings.Repeat(".", w-4) + "\n"
	_, err = ParseLevel("over.txt", strings.NewReader(over))
	want := fmt.Sprintf("physics: over.txt:%d:1: level declares %d coins and player starts, more than the limit of %d, the engine's cap on sprites; this is the first past it (remove %d coins or split the level)",
		MaxLevelObjects/w+2, MaxLevelObjects+w+2, MaxLevelObjects, w+2)
	if err == nil || err.Error() != want {
		t.Fatalf("error\n got %v\nwant %s", err, want)
	}
}

func TestParseLevelErrors(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"unknown", "###\n#Px#\n", "physics: x.txt:2:3: unknown tile 'x' (use # = P C .)"},
		{"unicode", "#P\n#\u00e9\n", "physics: x.txt:2:2: unknown tile 'é' (use # = P C .)"},
		{"width", "; c\n####\n#P.#\n##\n", "physics: x.txt:4:1: row is 2 tiles wide, expected 4 like the first row on line 2 (all rows must have the same width)"},
		{"no P", "###\n#.#\n", "physics: x.txt: no player start (put exactly one 'P' on an empty tile)"},
		{"two P", "####\n#P.#\n#.P#\n", "physics: x.txt:3:3: second player start 'P' (the first is at 2:2; keep exactly one)"},
		{"empty", "", "physics: x.txt: level has no rows (draw it with # = P C ., one line per row)"},
		{"only comments", "; nothing\n;\n\n", "physics: x.txt: level has no rows (draw it with # = P C ., one line per row)"},
		{"blank between", "###\n\n#P#\n", "physics: x.txt:2:1: blank line between rows (fill the row with '.' or start the line with ';' to make it a comment)"},
		{"tab", "#P#\n#\t#\n", "physics: x.txt:2:2: unknown tile '\\t' (use # = P C .)"},
		{"too wide", strings.Repeat(".", MaxLevelTiles+1) + "\n", fmt.Sprintf("physics: x.txt:1:%d: row is %d tiles wide, more than the limit of %d (split the level)", MaxLevelTiles+1, MaxLevelTiles+1, MaxLevelTiles)},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseLevel("x.txt", strings.NewReader(c.src))
			if err == nil {
				t.Fatalf("no error, want %q", c.want)
			}
			if err.Error() != c.want {
				t.Errorf("error\n got %q\nwant %q", err, c.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "x.txt" {
				t.Errorf("error %T is not a *ParseError for x.txt", err)
			}
		})
	}
}

func TestLoadLevelMissing(t *testing.T) {
	_, err := LoadLevel(filepath.Join(t.TempDir(), "nope.txt"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err = %v, want one wrapping os.ErrNotExist", err)
	}
	if !strings.HasPrefix(err.Error(), "physics: ") {
		t.Errorf("err = %q, want the physics: prefix", err)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestParseLevelReadError(t *testing.T) {
	_, err := ParseLevel("r.txt", failingReader{})
	if err == nil || err.Error() != "physics: r.txt: read: disk on fire" {
		t.Fatalf("err = %v", err)
	}
}

// demoPath is the shipped demo level, relative to this package.
const demoPath = "../levels/demo.txt"

func loadDemo(tb testing.TB) *Level {
	tb.Helper()
	l, err := LoadLevel(demoPath)
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

func TestDemoLevel(t *testing.T) {
	l := loadDemo(t)
	if l.W != 200 || l.H != 60 {
		t.Errorf("demo is %dx%d tiles, want 200x60", l.W, l.H)
	}
	// Bigger than a 1280x720 window, so the camera scrolls both ways.
	if b := l.Bounds(); b.Max.X <= 1280 || b.Max.Y <= 720 {
		t.Errorf("demo is %v px, want larger than 1280x720", b.Max)
	}
	if len(l.Coins) < 50 {
		t.Errorf("demo has %d coins, want at least 50", len(l.Coins))
	}
	// Closed world: every border tile is solid.
	for x := 0; x < l.W; x++ {
		if l.Tiles[x] != TileSolid || l.Tiles[(l.H-1)*l.W+x] != TileSolid {
			t.Fatalf("border tile at column %d is not solid", x)
		}
	}
	for y := 0; y < l.H; y++ {
		if l.Tiles[y*l.W] != TileSolid || l.Tiles[y*l.W+l.W-1] != TileSolid {
			t.Fatalf("border tile at row %d is not solid", y)
		}
	}
	var ones int
	for _, tl := range l.Tiles {
		if tl == TileOneWay {
			ones++
		}
	}
	if ones < 20 {
		t.Errorf("demo has %d one-way tiles, want a good number of platforms", ones)
	}
	newRig(t, l, defaultRig()) // the player fits at its start
}

func ExampleParseLevel() {
	src := `; a tiny level
##########
#........#
#.C..C...#
#P..===..#
##########
`
	l, err := ParseLevel("tiny.txt", strings.NewReader(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(l.W, l.H, len(l.Coins), l.PlayerStart)
	fmt.Print(l)

	_, err = ParseLevel("bad.txt", strings.NewReader("#P#\n#x#\n"))
	fmt.Println(err)
	// Output:
	// 10 5 2 {16 48}
	// ##########
	// #........#
	// #........#
	// #...===..#
	// ##########
	// physics: bad.txt:2:2: unknown tile 'x' (use # = P C .)
}

// FuzzParseLevel feeds the level loader arbitrary bytes: it never panics,
// a level it accepts keeps every invariant the world relies on (and a
// world built on it steps, and its Text parses back to the same level), a
// file it refuses gets a *ParseError naming the file with a position
// inside it, and either way the memory it takes is bounded by the file's
// size (its time too: one pass over the bytes, then one step). The seed corpus is
// testdata/fuzz/FuzzParseLevel plus the cases here; make test runs the
// fuzzer for a bounded time, and a crasher it finds fails the run (and is
// saved under testdata to fail every run after).
func FuzzParseLevel(f *testing.F) {
	f.Add([]byte("###\n#P#\n###\n"))
	f.Add([]byte("\xEF\xBB\xBF####  \r\n#P.# \t\n####\n"))
	f.Add([]byte("; c\r\n#####\r\n#P=C#\r\n#####\r\n"))
	f.Add([]byte("#P\n#\n"))
	f.Add([]byte("PP\n"))
	f.Add([]byte(""))
	f.Add([]byte("\n\n;\n"))
	f.Add([]byte("#x#\n"))
	f.Add([]byte("P\n\n.\n"))
	f.Add([]byte("\xff\xfe"))
	f.Add([]byte("....\n.P..\n.C=.\n####\n")) // the player fits and steps
	f.Add([]byte("; mac\r###\r#PC\r###\r"))
	f.Add([]byte("###\r\r\n#P# \r \n\r\r"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var l *Level
		var err error
		// A tile and a newline per byte at most, a coin (16 bytes) per
		// byte in a slice that doubles, the file read once: 64 bytes a
		// byte is generous, and 1 MiB for the rest. The count is the
		// whole process's.
		if n := allocated(func() { l, err = ParseLevel("fuzz.txt", bytes.NewReader(data)) }); n > 64*uint64(len(data))+1<<20 {
			t.Fatalf("parsing %d bytes allocated %d", len(data), n)
		}
		if err != nil {
			if l != nil {
				t.Fatal("level and error both returned")
			}
			var pe *ParseError
			if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "physics: fuzz.txt") {
				t.Fatalf("error %T %q does not name the file", err, err)
			}
			lines := bytes.Count(data, []byte{'\n'}) + bytes.Count(data, []byte{'\r'}) + 1 // LF, CRLF and CR end lines
			if pe.Line < 0 || pe.Line > lines || (pe.Line > 0 && pe.Col < 1) {
				t.Fatalf("error at %d:%d outside a file of %d lines: %q", pe.Line, pe.Col, lines, err)
			}
			return
		}
		if l.W <= 0 || l.H <= 0 || len(l.Tiles) != l.W*l.H {
			t.Fatalf("bad shape %dx%d with %d tiles", l.W, l.H, len(l.Tiles))
		}
		if p := l.PlayerStart; !Box(p, Vec{TileSize, TileSize}).In(l.Bounds()) {
			t.Fatalf("player start %v outside the level", p)
		}
		for _, c := range l.Coins {
			if !Box(c, Vec{TileSize, TileSize}).In(l.Bounds()) {
				t.Fatalf("coin %v outside the level", c)
			}
		}
		if l.StartLine < 1 || l.StartCol < 1 || l.StartLine > bytes.Count(data, []byte{'\n'})+bytes.Count(data, []byte{'\r'})+1 {
			t.Fatalf("start at %d:%d", l.StartLine, l.StartCol)
		}
		text, err := l.Text()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseLevel("text", bytes.NewReader(text))
		if err != nil || back.Hash() != l.Hash() {
			t.Fatalf("Text %q: %v, or another level", text, err)
		}
		// A parsed level must be usable: a character placed at its start
		// steps without panicking, whether or not it fits there.
		c, err := NewCharacter(DefaultTuning(), 60)
		if err != nil {
			t.Fatal(err)
		}
		c.Place(l.PlayerStart)
		c.Step(Controls{Right: true, JumpPressed: true, Jump: true}, l, 1.0/60, 1800)
	})
}

func TestLevelHash(t *testing.T) {
	// The hash covers every tile, the start and the coins, and not the
	// name: a replay on another level is refused, a renamed copy is not.
	const text = "#######\n#P..C.#\n#.=...#\n#######\n"
	base, err := ParseLevel("a.txt", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	renamed, _ := ParseLevel("b.txt", strings.NewReader(text))
	if base.Hash() != renamed.Hash() {
		t.Error("the name changed the hash")
	}
	seen := map[uint64]int{base.Hash(): -1}
	for i := range len(text) {
		if text[i] == '\n' || text[i] == 'P' {
			continue
		}
		for _, c := range []byte("#.=C") {
			if c == text[i] {
				continue
			}
			b := []byte(text)
			b[i] = c
			l, err := ParseLevel("a.txt", strings.NewReader(string(b)))
			if err != nil {
				continue // e.g. a border that is not closed
			}
			h := l.Hash()
			if j, ok := seen[h]; ok && j != i*256+int(c) {
				t.Fatalf("changing byte %d to %q gives the hash of change %d", i, c, j)
			}
			seen[h] = i*256 + int(c)
		}
	}
	if len(seen) < 20 {
		t.Fatalf("only %d variants parsed", len(seen))
	}
}

// allocated returns the bytes the whole process allocated while f ran:
// bounds on it are generous.
func allocated(f func()) uint64 { return mallocs.Bytes(f) }

func TestLevelText(t *testing.T) {
	// Text gives back the file's level, comments, CRs and trailing
	// blanks left out; a hand-built level the format cannot say is an
	// error, never a level of another hash.
	l, err := ParseLevel("a.txt", strings.NewReader("; c\r\n#####\r\n#PC.#\r\n#C=C#  \r\n#####\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	text, err := l.Text()
	if err != nil || string(text) != "#####\n#PC.#\n#C=C#\n#####\n" {
		t.Fatalf("%q, %v", text, err)
	}
	if l.StartLine != 3 || l.StartCol != 2 {
		t.Errorf("start at %d:%d, want 3:2", l.StartLine, l.StartCol)
	}
	for name, edit := range map[string]func(l *Level){
		"start off the grid":  func(l *Level) { l.PlayerStart.X += 3 },
		"start on a wall":     func(l *Level) { l.PlayerStart = Vec{} },
		"coin outside":        func(l *Level) { l.Coins = append(l.Coins, Vec{X: 160}) },
		"coins out of order":  func(l *Level) { l.Coins[0], l.Coins[1] = l.Coins[1], l.Coins[0] },
		"two coins on a tile": func(l *Level) { l.Coins = append(l.Coins, l.Coins[2]) },
		"coin on the start":   func(l *Level) { l.Coins[0] = l.PlayerStart },
	} {
		c := *l
		c.Coins = slices.Clone(l.Coins)
		edit(&c)
		if _, err := c.Text(); err == nil {
			t.Errorf("%s: Text succeeded", name)
		}
	}
}
