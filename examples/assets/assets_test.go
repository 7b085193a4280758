package assets

import (
	"bytes"
	"image"
	"image/color"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/tandem-engine/tandem/audio"
	"github.com/tandem-engine/tandem/examples/assets/internal/art"
	"github.com/tandem-engine/tandem/examples/assets/internal/sfx"
)

// wantSizes lists every sprite the app uses, with its size.
var wantSizes = map[string]image.Point{
	"player_idle0": {16, 24}, "player_idle1": {16, 24},
	"player_run0": {16, 24}, "player_run1": {16, 24}, "player_run2": {16, 24}, "player_run3": {16, 24},
	"player_jump": {16, 24}, "player_fall": {16, 24},
	"tile_solid": {16, 16}, "tile_grass": {16, 16}, "tile_oneway": {16, 16},
	"coin0": {12, 12}, "coin1": {12, 12}, "coin2": {12, 12}, "coin3": {12, 12},
	"bunny0": {26, 37}, "bunny1": {26, 37}, "bunny2": {26, 37}, "bunny3": {26, 37},
	"white": {4, 4},
	"ship":  {12, 10}, "bullet": {2, 6}, "gun": {10, 6},
}

func loadAll(t *testing.T) map[string]image.Image {
	t.Helper()
	sprites, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	m := make(map[string]image.Image, len(sprites))
	for i, s := range sprites {
		if i > 0 && sprites[i-1].Name >= s.Name {
			t.Errorf("Load not sorted by name: %q before %q", sprites[i-1].Name, s.Name)
		}
		m[s.Name] = s.Img
	}
	return m
}

func alpha(img image.Image, x, y int) uint8 {
	return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA).A
}

// opaqueColumns returns the first and last column with an opaque pixel.
func opaqueColumns(img image.Image) (first, last int) {
	b := img.Bounds()
	first, last = b.Max.X, b.Min.X-1
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if alpha(img, x, y) == 255 {
				first, last = min(first, x), max(last, x)
			}
		}
	}
	return first, last
}

func TestLoad(t *testing.T) {
	m := loadAll(t)
	for name, size := range wantSizes {
		img, ok := m[name]
		if !ok {
			t.Errorf("sprite %q missing", name)
			continue
		}
		if got := img.Bounds().Size(); got != size {
			t.Errorf("sprite %q is %v, want %v", name, got, size)
		}
		opaque, partial := 0, 0
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				switch alpha(img, x, y) {
				case 255:
					opaque++
				case 0:
				default:
					partial++
				}
			}
		}
		// Pixel art: every pixel is either fully there or not at all, and a
		// good part of each sprite is there.
		if partial != 0 || opaque < size.X*size.Y/5 {
			t.Errorf("sprite %q: %d opaque and %d translucent of %d pixels", name, opaque, partial, size.X*size.Y)
		}
	}
	for name := range m {
		if _, ok := wantSizes[name]; !ok {
			t.Errorf("unexpected sprite %q: add it to wantSizes", name)
		}
	}
}

func TestSpriteShapes(t *testing.T) {
	m := loadAll(t)
	full := func(name string, x0, y0, x1, y1 int, want uint8) {
		t.Helper()
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				if a := alpha(m[name], x, y); a != want {
					t.Fatalf("%s pixel (%d,%d) alpha %d, want %d", name, x, y, a, want)
				}
			}
		}
	}
	full("tile_solid", 0, 0, 16, 16, 255)
	full("tile_grass", 0, 0, 16, 16, 255)
	full("tile_oneway", 0, 0, 16, 5, 255) // the plank
	full("tile_oneway", 0, 6, 16, 16, 0)  // nothing to stand on below it
	full("white", 0, 0, 4, 4, 255)
	if c := color.NRGBAModel.Convert(m["white"].At(1, 1)); c != (color.NRGBA{255, 255, 255, 255}) {
		t.Errorf("white is %v", c)
	}

	// Grounded player frames stand on the sprite's bottom row.
	for _, name := range []string{"player_idle0", "player_idle1", "player_run0", "player_run1", "player_run2", "player_run3"} {
		feet := 0
		for x := 0; x < 16; x++ {
			if alpha(m[name], x, 23) == 255 {
				feet++
			}
		}
		if feet < 4 {
			t.Errorf("%s: %d opaque pixels on the bottom row; its feet should be there", name, feet)
		}
	}

	// The coin spins: its face narrows to the edge and widens again.
	var widths [4]int
	for i := range widths {
		first, last := opaqueColumns(m["coin"+string(rune('0'+i))])
		widths[i] = last - first + 1
	}
	if !(widths[0] > widths[1] && widths[1] > widths[2] && widths[3] == widths[1]) {
		t.Errorf("coin widths %v: want full > three-quarter > edge, then three-quarter again", widths)
	}
}

func TestPlayerFramesDiffer(t *testing.T) {
	m := loadAll(t)
	var names []string
	for name := range wantSizes {
		if strings.HasPrefix(name, "player_") {
			names = append(names, name)
		}
	}
	for i, a := range names {
		for _, b := range names[i+1:] {
			diff := 0
			for y := 0; y < 24; y++ {
				for x := 0; x < 16; x++ {
					if m[a].At(x, y) != m[b].At(x, y) {
						diff++
					}
				}
			}
			if diff < 4 {
				t.Errorf("%s and %s differ in %d pixels", a, b, diff)
			}
		}
	}
}

// TestGenerated checks that the committed PNGs are what internal/art draws
// now. If it fails, run go generate ./examples/assets.
func TestGenerated(t *testing.T) {
	m := loadAll(t)
	drawn := art.All()
	if len(drawn) != len(m) {
		t.Errorf("art draws %d sprites, png holds %d; run go generate ./examples/assets", len(drawn), len(m))
	}
	for _, s := range drawn {
		img, ok := m[s.Name]
		if !ok {
			t.Errorf("art draws %q but png has no %s.png; run go generate ./examples/assets", s.Name, s.Name)
			continue
		}
		if img.Bounds() != s.Img.Bounds() {
			t.Errorf("%s: png is %v, art draws %v; run go generate ./examples/assets", s.Name, img.Bounds(), s.Img.Bounds())
			continue
		}
		b := img.Bounds()
	pixels:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				got := color.NRGBAModel.Convert(img.At(x, y))
				if want := s.Img.NRGBAAt(x, y); got != want {
					t.Errorf("%s pixel (%d,%d): png %v, art draws %v; run go generate ./examples/assets", s.Name, x, y, got, want)
					break pixels
				}
			}
		}
	}
}

func TestLoadError(t *testing.T) {
	fsys := fstest.MapFS{"png/broken.png": {Data: []byte("not a png")}}
	_, err := load(fsys)
	if err == nil || !strings.HasPrefix(err.Error(), "assets: ") || !strings.Contains(err.Error(), "png/broken.png") {
		t.Errorf("load of a broken PNG: error %v, want one naming png/broken.png", err)
	}
}

// TestSoundsGenerated: the committed WAVs are what internal/sfx makes
// now (run go generate in examples/assets after changing it), and each
// decodes.
func TestSoundsGenerated(t *testing.T) {
	for _, s := range sfx.All() {
		got, err := FS.ReadFile("wav/" + s.Name + ".wav")
		if err != nil {
			t.Fatalf("%s: %v (run go generate in examples/assets)", s.Name, err)
		}
		if !bytes.Equal(got, s.WAV()) {
			t.Errorf("wav/%s.wav differs from what internal/sfx makes: run go generate in examples/assets", s.Name)
		}
		snd, err := audio.Decode(s.Name, got)
		if err != nil {
			t.Fatal(err)
		}
		if snd.Rate != sfx.Rate || snd.Frames != int64(len(s.Samples)) {
			t.Errorf("%s: %d Hz, %d frames", s.Name, snd.Rate, snd.Frames)
		}
	}
}
