package physics

import (
	"bytes"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/tandem-engine/tandem/internal/regfile"
)

// TileSize is the edge of a tile in pixels. Tile (tx, ty) covers the
// half-open pixel box [tx*TileSize, (tx+1)*TileSize) x [ty*TileSize, (ty+1)*TileSize).
const TileSize = 16

// MaxLevelTiles bounds a level's width and height in tiles, so a corrupt
// file cannot ask for gigabytes.
const MaxLevelTiles = 4096

// MaxLevelObjects bounds the objects a level declares, its coins and its
// player start, each of which a game makes into a sprite. It is the
// engine's cap on sprites (Config.Sprites, -sprites): without it a
// 4096x4096 level dense with coins made 4.2 million sprites and 2.2 GB.
const MaxLevelObjects = 1_000_000

// Tile is the content of one level cell.
type Tile uint8

// The tiles, and their characters in a level file.
const (
	TileEmpty  Tile = iota // nothing: bodies pass
	TileSolid              // '#': blocks from every side
	TileOneWay             // '=': blocks only bodies landing on it from above
)

// String returns the level-file character of t.
func (t Tile) String() string {
	switch t {
	case TileEmpty:
		return "."
	case TileSolid:
		return "#"
	case TileOneWay:
		return "="
	}
	return fmt.Sprintf("Tile(%d)", uint8(t))
}

// Level is a parsed level file. Its fields are read-only once built: the
// package never changes them, and callers must not while a World uses the
// Level.
type Level struct {
	Name        string // file name it was loaded from
	W, H        int    // size in tiles
	Tiles       []Tile // row-major, len W*H: Tiles[ty*W+tx]
	PlayerStart Vec    // top-left pixel of the 'P' tile; NewWorld stands the player on its bottom edge, centred
	Coins       []Vec  // top-left pixel of each 'C' tile, in file order (top row first, left to right)
	// StartLine and StartCol are where the 'P' is in the file, from 1,
	// for errors about the start; 0 for a level built by hand.
	StartLine, StartCol int
}

// At returns the tile at tile coordinates (tx, ty). Outside the level it
// returns TileSolid: every level is a closed world.
func (l *Level) At(tx, ty int) Tile {
	if tx < 0 || ty < 0 || tx >= l.W || ty >= l.H {
		return TileSolid
	}
	return l.Tiles[ty*l.W+tx]
}

// Bounds returns the level's pixel box, [0, W*TileSize) x [0, H*TileSize).
func (l *Level) Bounds() AABB {
	return AABB{Max: Vec{float64(l.W * TileSize), float64(l.H * TileSize)}}
}

// TileBox returns the pixel box of tile (tx, ty).
func TileBox(tx, ty int) AABB {
	return Box(Vec{float64(tx * TileSize), float64(ty * TileSize)}, Vec{TileSize, TileSize})
}

// String draws the level in the file format (without 'P' and 'C', which are
// not tiles).
func (l *Level) String() string {
	var b bytes.Buffer
	for ty := 0; ty < l.H; ty++ {
		for tx := 0; tx < l.W; tx++ {
			b.WriteString(l.At(tx, ty).String())
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// ParseError is a malformed level file. Line and Col are 1-based; zero
// means the problem is not at one place (for example a missing 'P').
type ParseError struct {
	File      string
	Line, Col int
	Msg       string // what is wrong and how to fix it
	Err       error  // underlying error, if any
}

// Error formats e as "physics: file:line:col: msg", leaving out what is
// unknown.
func (e *ParseError) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("physics: %s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("physics: %s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("physics: %s: %s", e.File, e.Msg)
}

// Unwrap returns the underlying error, if any.
func (e *ParseError) Unwrap() error { return e.Err }

// maxLevelBytes bounds what ParseLevel reads.
const maxLevelBytes = 64 << 20

// LoadLevel reads and parses the level file at path (see ParseLevel for the
// format). The Level's Name is path. Anything but a regular file (a FIFO,
// a device, a directory) is refused before a byte is read, and the open
// never waits for a FIFO's writer.
func LoadLevel(path string) (*Level, error) {
	f, _, err := regfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("physics: load level: %w", err)
	}
	defer f.Close()
	return ParseLevel(path, f)
}

// Text returns the level in the file format, 'P' and 'C' included: the
// text ParseLevel reads back to a level with the same Hash (a recording
// holds it). It fails for a level built by hand that the format cannot
// say: a start or coin off the tile grid, outside the level or on a
// tile that is not empty, two on one tile, or coins out of file order.
func (l *Level) Text() ([]byte, error) {
	if l.W <= 0 || l.H <= 0 || len(l.Tiles) != l.W*l.H {
		return nil, fmt.Errorf("physics: level %q is %dx%d tiles with %d stored", l.Name, l.W, l.H, len(l.Tiles))
	}
	b := make([]byte, 0, (l.W+1)*l.H)
	for ty := range l.H {
		for tx := range l.W {
			b = append(b, l.Tiles[ty*l.W+tx].String()[0])
		}
		b = append(b, '\n')
	}
	// cell returns the index in b of the tile at the top-left pixel p.
	cell := func(what string, p Vec) (int, error) {
		tx, ty := int(p.X)/TileSize, int(p.Y)/TileSize
		if p.X != float64(tx*TileSize) || p.Y != float64(ty*TileSize) || tx < 0 || ty < 0 || tx >= l.W || ty >= l.H || l.At(tx, ty) != TileEmpty {
			return 0, fmt.Errorf("physics: level %q: %s at %v is not the top-left corner of an empty tile: the level file format cannot hold it", l.Name, what, p)
		}
		return ty*(l.W+1) + tx, nil
	}
	i, err := cell("the player's start", l.PlayerStart)
	if err != nil {
		return nil, err
	}
	b[i] = 'P'
	prev := -1
	for _, c := range l.Coins {
		i, err := cell("a coin", c)
		if err != nil {
			return nil, err
		}
		if b[i] != '.' || i <= prev {
			return nil, fmt.Errorf("physics: level %q: the coin at %v shares its tile or comes out of file order: the level file format cannot hold it", l.Name, c)
		}
		b[i], prev = 'C', i
	}
	return b, nil
}

// ParseLevel parses a level from r; name is used in the Level and in
// errors.
//
// The format is plain ASCII art, one character per tile:
//
//	#  solid
//	=  one-way platform (land on it from above, pass from below and the sides)
//	P  player start (exactly one; the tile itself is empty)
//	C  coin (the tile itself is empty)
//	.  empty
//
// Lines end with LF, CRLF or a lone CR (classic Mac OS files). Lines
// beginning with ';' are comments and may appear anywhere. All other lines
// are rows, top to bottom, and must have the same width. A UTF-8
// byte-order mark at the start is skipped (editors on Windows write one),
// trailing spaces, tabs and CRs are ignored, and so are blank lines at the
// end of the file; a blank line between rows is an error. A level declares
// at most MaxLevelObjects coins and player starts together. Errors are
// *ParseError values naming the file, line and column (both from 1) and
// saying how to fix the problem.
func ParseLevel(name string, r io.Reader) (*Level, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxLevelBytes+1))
	if err != nil {
		return nil, &ParseError{File: name, Msg: "read: " + err.Error(), Err: err}
	}
	if len(data) > maxLevelBytes {
		return nil, &ParseError{File: name, Msg: fmt.Sprintf("file is larger than %d bytes (is this a level?)", maxLevelBytes)}
	}
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	data = toLF(data)
	l := &Level{Name: name}
	rows := levelRows{name: name, l: l}
	var (
		blankLine    int // first blank line since the last row, 0 if none
		firstRowLine int
	)
	lineNo := 0
	for len(data) > 0 {
		lineNo++
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimRight(line, " \t")
		if len(line) > 0 && line[0] == ';' {
			continue
		}
		if len(line) == 0 {
			if blankLine == 0 && l.H > 0 {
				blankLine = lineNo
			}
			continue
		}
		if blankLine != 0 {
			return nil, &ParseError{File: name, Line: blankLine, Col: 1,
				Msg: "blank line between rows (fill the row with '.' or start the line with ';' to make it a comment)"}
		}
		for i := 0; i < len(line); i++ {
			c := line[i]
			switch c {
			case '#', '=', 'P', 'C', '.':
				continue
			}
			rn, _ := utf8.DecodeRune(line[i:])
			return nil, &ParseError{File: name, Line: lineNo, Col: i + 1,
				Msg: fmt.Sprintf("unknown tile %q (use # = P C .)", rn)}
		}
		if l.H == 0 {
			if len(line) > MaxLevelTiles {
				return nil, &ParseError{File: name, Line: lineNo, Col: MaxLevelTiles + 1,
					Msg: fmt.Sprintf("row is %d tiles wide, more than the limit of %d (split the level)", len(line), MaxLevelTiles)}
			}
			l.W = len(line)
			firstRowLine = lineNo
		} else if len(line) != l.W {
			return nil, &ParseError{File: name, Line: lineNo, Col: 1,
				Msg: fmt.Sprintf("row is %d tiles wide, expected %d like the first row on line %d (all rows must have the same width)", len(line), l.W, firstRowLine)}
		}
		if l.H == MaxLevelTiles {
			return nil, &ParseError{File: name, Line: lineNo, Col: 1,
				Msg: fmt.Sprintf("level is more than %d rows tall (split the level)", MaxLevelTiles)}
		}
		if err := rows.add(line, data, lineNo); err != nil {
			return nil, err
		}
	}
	if l.H == 0 {
		return nil, &ParseError{File: name, Msg: "level has no rows (draw it with # = P C ., one line per row)"}
	}
	if rows.startLine == 0 {
		return nil, &ParseError{File: name, Msg: "no player start (put exactly one 'P' on an empty tile)"}
	}
	return l, nil
}

// levelRows adds a level's rows, once checked, to its tiles, coins and
// start.
type levelRows struct {
	name                string
	l                   *Level
	startLine, startCol int // where 'P' was seen
	objects             int // 'C' and 'P' tiles so far
}

// add adds line, the row on line lineNo, before the rest of the file.
func (r *levelRows) add(line, rest []byte, lineNo int) error {
	l, ty := r.l, r.l.H
	for tx, c := range line {
		if c == 'C' || c == 'P' {
			if r.objects++; r.objects > MaxLevelObjects {
				total := r.objects + countObjects(line[tx+1:]) + countObjects(rest)
				return &ParseError{File: r.name, Line: lineNo, Col: tx + 1,
					Msg: fmt.Sprintf("level declares %d coins and player starts, more than the limit of %d, the engine's cap on sprites; this is the first past it (remove %d coins or split the level)",
						total, MaxLevelObjects, total-MaxLevelObjects)}
			}
		}
		t := TileEmpty
		switch c {
		case '#':
			t = TileSolid
		case '=':
			t = TileOneWay
		case 'C':
			l.Coins = append(l.Coins, Vec{float64(tx * TileSize), float64(ty * TileSize)})
		case 'P':
			if r.startLine != 0 {
				return &ParseError{File: r.name, Line: lineNo, Col: tx + 1,
					Msg: fmt.Sprintf("second player start 'P' (the first is at %d:%d; keep exactly one)", r.startLine, r.startCol)}
			}
			r.startLine, r.startCol = lineNo, tx+1
			l.PlayerStart = Vec{float64(tx * TileSize), float64(ty * TileSize)}
			l.StartLine, l.StartCol = r.startLine, r.startCol
		}
		l.Tiles = append(l.Tiles, t)
	}
	l.H++
	return nil
}

// toLF rewrites the line ends of data to LF, in place: a lone CR ends a
// line, and CRs followed by nothing but spaces, tabs and CRs before an LF
// are trailing space (so "\r\r\n" is one line end, as it always was).
// Every file that read the same before CR-only files were accepted reads
// the same now.
func toLF(data []byte) []byte {
	if bytes.IndexByte(data, '\r') < 0 {
		return data
	}
	out := data[:0] // never longer than what it has read
	for i := 0; i < len(data); {
		if data[i] != '\r' {
			out = append(out, data[i])
			i++
			continue
		}
		j := i
		for j < len(data) && (data[j] == '\r' || data[j] == ' ' || data[j] == '\t') {
			j++
		}
		trailing := j < len(data) && data[j] == '\n'
		for ; i < j; i++ { // the run once, so a file of CRs takes linear time
			switch c := data[i]; {
			case c != '\r':
				out = append(out, c)
			case !trailing:
				out = append(out, '\n')
			}
		}
	}
	return out
}

// countObjects returns the number of 'C' and 'P' in the rows of data (LF
// line ends), leaving out comment lines.
func countObjects(data []byte) int {
	n := 0
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(line) > 0 && line[0] != ';' {
			n += bytes.Count(line, []byte{'C'}) + bytes.Count(line, []byte{'P'})
		}
	}
	return n
}

// Hash returns a 64-bit hash of the level's content: its size, every tile,
// the player's start and the coins. Two levels with the same hash play the
// same; the name is not hashed. A recording stores it to refuse a replay
// on another level.
func (l *Level) Hash() uint64 {
	h := NewHasher()
	h.Word(uint64(l.W)<<32 | uint64(l.H))
	// Eight tiles a word.
	for i := 0; i < len(l.Tiles); i += 8 {
		var w uint64
		for j, t := range l.Tiles[i:min(i+8, len(l.Tiles))] {
			w |= uint64(t) << (8 * j)
		}
		h.Word(w)
	}
	h.F64(l.PlayerStart.X)
	h.F64(l.PlayerStart.Y)
	h.Word(uint64(len(l.Coins)))
	for _, c := range l.Coins {
		h.F64(c.X)
		h.F64(c.Y)
	}
	return h.Sum()
}

// OverlapsSolid reports whether box overlaps a solid tile of l by more
// than Skin (touching is not overlapping); outside the level counts as
// solid.
func (l *Level) OverlapsSolid(box AABB) bool {
	x0, x1 := span(box.Min.X, box.Max.X, l.W)
	y0, y1 := span(box.Min.Y, box.Max.Y, l.H)
	for ty := y0; ty <= y1; ty++ {
		for tx := x0; tx <= x1; tx++ {
			if l.At(tx, ty) == TileSolid {
				return true
			}
		}
	}
	return false
}
