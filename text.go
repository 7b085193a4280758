package tandem

import (
	"fmt"
	"io/fs"

	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"

	"github.com/tandem-engine/tandem/snapshot"
)

// Font is a font Setup loaded, for [World.Print]. The zero Font,
// DefaultFont, is the engine's own: Go Regular, which has Latin (with
// accents), Greek and Cyrillic.
type Font uint8

// DefaultFont is the font text is drawn in when a game loads none.
const DefaultFont Font = 0

// MaxFontBytes is the largest font file Setup loads (a CJK font with
// every glyph is about 20 MiB).
const MaxFontBytes = 64 << 20

// drawSetup is what Setup declares for drawing besides pictures: fonts
// and shaders (shader.go).
type drawSetup struct {
	fonts        []*sfnt.Font // fonts[0] is DefaultFont, parsed when first needed
	shaders      []shaderSource
	layerShader  [Layers]Shader
	screenShader Shader
	offscreen    [Layers]bool
}

// Font loads a TrueType or OpenType font (.ttf, .otf, or the first font
// of a .ttc collection) from data, for [World.Print] at any size. name
// names it in errors. Text in it may hold any rune: a rune the font
// lacks is drawn from the other fonts Setup loaded, in the order they
// were loaded, then the default font; a rune no font has is drawn as the
// font's own missing-glyph shape (usually an empty box). So a game that
// loads a Latin font and then a CJK one writes both scripts in either.
func (s *Setup) Font(name string, data []byte) (Font, error) {
	s.live("Font")
	if len(data) > MaxFontBytes {
		return 0, s.fail(fmt.Errorf("tandem: Font %s: %d bytes, more than MaxFontBytes (%d)", name, len(data), MaxFontBytes))
	}
	f, err := parseFont(data)
	if err != nil {
		return 0, s.fail(fmt.Errorf("tandem: Font %s: %w (want TrueType or OpenType data: .ttf, .otf or .ttc)", name, err))
	}
	if len(s.fonts) == 0 {
		s.fonts = append(s.fonts, nil) // DefaultFont's place
	}
	if len(s.fonts) > 255 {
		return 0, s.fail(fmt.Errorf("tandem: Font %s: 255 fonts already", name))
	}
	s.fonts = append(s.fonts, f)
	s.world.fonts = len(s.fonts)
	return Font(len(s.fonts) - 1), nil
}

// FontFS is Font for the file at path in fsys (an embed.FS, os.DirFS).
func (s *Setup) FontFS(fsys fs.FS, path string) (Font, error) {
	s.live("FontFS")
	if st, err := fs.Stat(fsys, path); err == nil && st.Size() > MaxFontBytes {
		return 0, s.fail(fmt.Errorf("tandem: FontFS %s: %d bytes, more than MaxFontBytes (%d)", path, st.Size(), MaxFontBytes))
	}
	data, err := fs.ReadFile(fsys, path)
	if err != nil {
		return 0, s.fail(fmt.Errorf("tandem: FontFS: %w", err))
	}
	return s.Font(path, data)
}

func parseFont(data []byte) (*sfnt.Font, error) {
	f, err := opentype.Parse(data)
	if err == nil {
		return f, nil
	}
	c, cerr := opentype.ParseCollection(data)
	if cerr != nil {
		return nil, err
	}
	return c.Font(0)
}

// Align is where a text's x falls on its lines.
type Align uint8

// The alignments.
const (
	AlignLeft   Align = iota // x is each line's left end
	AlignCenter              // x is each line's centre
	AlignRight               // x is each line's right end
)

// The snapshot's numbers for the alignments.
var (
	_ [0]struct{} = [uint8(AlignLeft) - snapshot.AlignLeft]struct{}{}
	_ [0]struct{} = [uint8(AlignCenter) - snapshot.AlignCenter]struct{}{}
	_ [0]struct{} = [uint8(AlignRight) - snapshot.AlignRight]struct{}{}
	_ [0]struct{} = [Layers - snapshot.Layers]struct{}{}
)

// TextStyle is how text is drawn by [World.Print]: its font, size,
// colour, alignment, and, as a [Style], its layer, space, key and entity.
type TextStyle struct {
	Font Font
	// Size is the font's size in pixels (the em square); 0 draws 16.
	// Glyphs are rasterised at the nearest half pixel (times the
	// camera's zoom, in the world), and laid out at Size.
	Size  float32
	Color uint32 // RGBA8, R in the low byte; 0 draws white
	Align Align
	// Layer, Screen, Key and On are as a shape's Style's: text on an
	// entity moves with it, blended on every frame.
	Layer  uint8
	Screen bool
	Key    uint32
	On     ID
}

// DefaultTextPx is the size of text whose TextStyle.Size is 0.
const DefaultTextPx = 16

// Print draws s, UTF-8, for this tick: the top of its first line at y,
// x its left end, centre or right end by st.Align; '\n' starts a line.
// Glyphs are rasterised once per font and size, on the render thread, as
// text first needs them. Like a shape it lasts one tick, and a tick that
// prints what the one before printed, with the same Key or On the same
// entity, slides it smoothly. It allocates only when a tick holds more
// text than any before it. A font Setup did not load panics.
func (w *World) Print(x, y float32, s string, st TextStyle) {
	w.printRun(x, y, st, len(s))
	w.draw.Chars = append(w.draw.Chars, s...)
	w.endRun()
}

// PrintBytes is Print for bytes, which it copies: a game that formats a
// figure each tick (strconv.AppendInt into a buffer of its own) prints
// it without allocating.
func (w *World) PrintBytes(x, y float32, b []byte, st TextStyle) {
	w.printRun(x, y, st, len(b))
	w.draw.Chars = append(w.draw.Chars, b...)
	w.endRun()
}

func (w *World) printRun(x, y float32, st TextStyle, n int) {
	if int(st.Layer) >= Layers {
		panic(fmt.Sprintf("tandem: text on layer %d: layers are 0 to %d", st.Layer, Layers-1))
	}
	if st.Font != DefaultFont && int(st.Font) >= w.fonts {
		panic(fmt.Sprintf("tandem: Print in font %d, which Setup did not load", st.Font))
	}
	size := st.Size
	if size <= 0 || !finite(size, 0, 0, 0) {
		size = DefaultTextPx
	}
	tint := st.Color
	if tint == 0 {
		tint = White
	}
	if st.Screen {
		st.On = ID{} // a world placement (see Style.On)
	}
	r := snapshot.TextRun{Key: drawKey(st.Key, 0, st.On), X: x, Y: y, Size: size, Font: uint8(st.Font),
		Align: uint8(st.Align), Layer: st.Layer, Tint: tint, From: int32(len(w.draw.Chars))}
	if !finite(x, y, 0, 0) {
		r.From = -1 // drawn as nothing
	}
	if st.Screen {
		r.Flags = snapshot.ShapeScreen
	}
	if st.On != (ID{}) {
		w.anchors = append(w.anchors, drawAnchor{index: int32(len(w.draw.Texts)), text: true, on: st.On})
	}
	w.draw.Texts = append(w.draw.Texts, r)
}

// endRun closes the run printRun opened at the bytes appended since.
func (w *World) endRun() {
	t := &w.draw.Texts[len(w.draw.Texts)-1]
	if t.From < 0 {
		t.From = int32(len(w.draw.Chars))
	}
	t.To = int32(len(w.draw.Chars))
}

// drawFonts is the fonts for the renderer: the default first.
func (s *Setup) drawFonts() ([]*sfnt.Font, error) {
	def, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return nil, fmt.Errorf("tandem: the default font: %w", err)
	}
	if len(s.fonts) == 0 {
		return []*sfnt.Font{def}, nil
	}
	out := append([]*sfnt.Font(nil), s.fonts...)
	out[0] = def
	return out, nil
}
