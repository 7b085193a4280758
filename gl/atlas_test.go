package gl

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math/rand/v2"
	"strings"
	"testing"
)

// atlasTestImage returns a w x h image with bounds starting at (ox, oy) and
// random pixels, in one of several image types.
func atlasTestImage(rng *rand.Rand, w, h, ox, oy int) image.Image {
	r := image.Rect(ox, oy, ox+w, oy+h)
	switch rng.IntN(3) {
	case 0:
		m := image.NewNRGBA(r)
		for i := range m.Pix {
			m.Pix[i] = uint8(rng.UintN(256))
		}
		return m
	case 1:
		m := image.NewGray(r)
		for i := range m.Pix {
			m.Pix[i] = uint8(rng.UintN(256))
		}
		return m
	default:
		m := image.NewRGBA(r)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				a := uint8(rng.UintN(256))
				m.SetRGBA(x, y, color.RGBA{uint8(rng.UintN(uint(a) + 1)), uint8(rng.UintN(uint(a) + 1)), a, a})
			}
		}
		return m
	}
}

// atlasTestColor is the premultiplied colour of src at (x, y).
func atlasTestColor(src image.Image, x, y int) color.RGBA {
	return color.RGBAModel.Convert(src.At(x, y)).(color.RGBA)
}

// atlasTestCheck checks every invariant PackAtlas promises for imgs.
func atlasTestCheck(t *testing.T, imgs []Image, padding int, a *Atlas) {
	t.Helper()
	b := a.Image.Bounds()
	if b.Min != (image.Point{}) || atlasPow2(b.Dx()) != b.Dx() || atlasPow2(b.Dy()) != b.Dy() ||
		b.Dx() > atlasMaxSize || b.Dy() > atlasMaxSize {
		t.Fatalf("atlas bounds %v: want origin 0,0 and power-of-two sides <= %d", b, atlasMaxSize)
	}
	if len(a.Regions) != len(imgs) {
		t.Fatalf("%d regions for %d images", len(a.Regions), len(imgs))
	}
	for i := 1; i < len(a.Regions); i++ {
		if a.Regions[i-1].Name >= a.Regions[i].Name {
			t.Fatalf("regions not sorted by name: %q before %q", a.Regions[i-1].Name, a.Regions[i].Name)
		}
	}
	padded := func(r Region) image.Rectangle {
		return image.Rect(r.X-padding, r.Y-padding, r.X+r.W+padding, r.Y+r.H+padding)
	}
	for i, r := range a.Regions {
		if !padded(r).In(b) {
			t.Fatalf("region %+v with padding %d outside atlas %v", r, padding, b)
		}
		for _, o := range a.Regions[i+1:] {
			if padded(r).Overlaps(padded(o)) {
				t.Fatalf("padded regions overlap: %+v and %+v (padding %d)", r, o, padding)
			}
		}
	}
	for _, im := range imgs {
		r, ok := a.Region(im.Name)
		if !ok {
			t.Fatalf("Region(%q) not found", im.Name)
		}
		sb := im.Img.Bounds()
		if r.W != sb.Dx() || r.H != sb.Dy() {
			t.Fatalf("region %+v: size differs from image %q bounds %v", r, im.Name, sb)
		}
		// Every atlas pixel of the padded region equals the source pixel at
		// the clamped position: inside, the image itself; outside, its edge.
		for y := r.Y - padding; y < r.Y+r.H+padding; y++ {
			for x := r.X - padding; x < r.X+r.W+padding; x++ {
				sx := sb.Min.X + min(max(x-r.X, 0), r.W-1)
				sy := sb.Min.Y + min(max(y-r.Y, 0), r.H-1)
				got, want := a.Image.RGBAAt(x, y), atlasTestColor(im.Img, sx, sy)
				if got != want {
					t.Fatalf("image %q: atlas pixel (%d,%d) = %v, want source (%d,%d) = %v (region %+v, padding %d)",
						im.Name, x, y, got, sx, sy, want, r, padding)
				}
			}
		}
	}
}

func TestPackAtlasRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := range 200 {
		n := 1 + rng.IntN(40)
		padding := rng.IntN(4)
		maxSide := []int{3, 8, 24, 64}[rng.IntN(4)]
		imgs := make([]Image, n)
		for i := range imgs {
			w, h := 1+rng.IntN(maxSide), 1+rng.IntN(maxSide)
			imgs[i] = Image{
				Name: fmt.Sprintf("img%d", rng.IntN(1000)*100+i), // unique, not in input order
				Img:  atlasTestImage(rng, w, h, rng.IntN(5)-2, rng.IntN(5)-2),
			}
		}
		a, err := PackAtlas(imgs, padding)
		if err != nil {
			t.Fatalf("iteration %d: %v", iter, err)
		}
		atlasTestCheck(t, imgs, padding, a)

		// The result does not depend on the input order.
		shuffled := append([]Image(nil), imgs...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		b, err := PackAtlas(shuffled, padding)
		if err != nil {
			t.Fatalf("iteration %d, shuffled: %v", iter, err)
		}
		if fmt.Sprint(a.Regions) != fmt.Sprint(b.Regions) || string(a.Image.Pix) != string(b.Image.Pix) {
			t.Fatalf("iteration %d: packing depends on input order:\n%v\n%v", iter, a.Regions, b.Regions)
		}
	}
}

func TestPackAtlasSize(t *testing.T) {
	square := func(name string, side int) Image {
		return Image{Name: name, Img: image.NewRGBA(image.Rect(0, 0, side, side))}
	}
	tests := []struct {
		imgs    []Image
		padding int
		w, h    int
	}{
		{[]Image{square("a", 1)}, 0, 1, 1},
		{[]Image{square("a", 3)}, 0, 4, 4},
		{[]Image{square("a", 16)}, 0, 16, 16},
		{[]Image{square("a", 16)}, 1, 32, 32},
		{[]Image{square("a", 16), square("b", 16)}, 0, 32, 16},
		{[]Image{square("a", 16), square("b", 16), square("c", 16), square("d", 16)}, 0, 32, 32},
		{[]Image{{Name: "line", Img: image.NewRGBA(image.Rect(0, 0, 8192, 1))}}, 0, 8192, 1},
		{[]Image{{Name: "line", Img: image.NewRGBA(image.Rect(0, 0, 1, 8190))}}, 1, 4, 8192},
	}
	for _, tt := range tests {
		a, err := PackAtlas(tt.imgs, tt.padding)
		if err != nil {
			t.Fatal(err)
		}
		if s := a.Image.Bounds().Size(); s.X != tt.w || s.Y != tt.h {
			t.Errorf("%d images of %v, padding %d: atlas %dx%d, want %dx%d",
				len(tt.imgs), tt.imgs[0].Img.Bounds().Size(), tt.padding, s.X, s.Y, tt.w, tt.h)
		}
	}
}

// atlasTestBlank is an image of any size that costs no memory.
type atlasTestBlank struct{ r image.Rectangle }

func (b atlasTestBlank) ColorModel() color.Model { return color.RGBAModel }
func (b atlasTestBlank) Bounds() image.Rectangle { return b.r }
func (b atlasTestBlank) At(x, y int) color.Color { return color.RGBA{} }

func TestPackAtlasErrors(t *testing.T) {
	ok := image.NewRGBA(image.Rect(0, 0, 2, 2))
	blank := func(w, h int) image.Image { return atlasTestBlank{image.Rect(0, 0, w, h)} }
	tests := []struct {
		name    string
		imgs    []Image
		padding int
		want    string // substring of the error
		tooBig  bool
	}{
		{"empty name", []Image{{"a", ok}, {"", ok}}, 0, "image 1 has an empty name", false},
		{"duplicate", []Image{{"a", ok}, {"dup", ok}, {"dup", ok}}, 0, `duplicate image name "dup"`, false},
		{"nil", []Image{{"nothing", nil}}, 0, `image "nothing" is nil`, false},
		{"zero width", []Image{{"flat", image.NewRGBA(image.Rect(0, 0, 0, 5))}}, 0, `image "flat" has zero size`, false},
		{"zero height", []Image{{"thin", image.NewRGBA(image.Rect(3, 3, 9, 3))}}, 0, `image "thin" has zero size`, false},
		{"negative padding", []Image{{"a", ok}}, -1, "negative padding -1", false},
		{"too wide", []Image{{"a", ok}, {"wide", blank(8193, 1)}}, 0, `image "wide"`, true},
		{"too tall with padding", []Image{{"tall", blank(1, 8191)}}, 1, `image "tall"`, true},
		{"too many", []Image{
			{"q0", blank(4096, 4096)}, {"q1", blank(4096, 4096)}, {"q2", blank(4096, 4096)},
			{"q3", blank(4096, 4096)}, {"q4", blank(4096, 4096)},
		}, 0, `image "q4"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := PackAtlas(tt.imgs, tt.padding)
			if err == nil {
				t.Fatalf("PackAtlas succeeded with a %v atlas, want error containing %q", a.Image.Bounds(), tt.want)
			}
			if !strings.HasPrefix(err.Error(), "gl: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want prefix \"gl: \" and %q", err, tt.want)
			}
			if got := errors.Is(err, errAtlasTooLarge); got != tt.tooBig {
				t.Errorf("errors.Is(%q, errAtlasTooLarge) = %v, want %v", err, got, tt.tooBig)
			}
		})
	}
}

func TestAtlasRegionAndUV(t *testing.T) {
	imgs := []Image{
		{"big", image.NewRGBA(image.Rect(0, 0, 30, 14))},
		{"small", image.NewRGBA(image.Rect(0, 0, 6, 6))},
	}
	a, err := PackAtlas(imgs, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := a.Region("missing"); ok {
		t.Error(`Region("missing") reports found`)
	}
	for _, im := range imgs {
		r, ok := a.Region(im.Name)
		if !ok || r.Name != im.Name {
			t.Fatalf("Region(%q) = %+v, %v", im.Name, r, ok)
		}
		u0, v0, u1, v1 := a.UV(r)
		w, h := float32(a.Image.Bounds().Dx()), float32(a.Image.Bounds().Dy())
		// Mapping the UVs back to pixels gives the region's edges exactly.
		if u0*w != float32(r.X) || u1*w != float32(r.X+r.W) || v0*h != float32(r.Y) || v1*h != float32(r.Y+r.H) {
			t.Errorf("UV(%+v) = %v %v %v %v in a %vx%v atlas", r, u0, v0, u1, v1, w, h)
		}
		if !(0 <= u0 && u0 < u1 && u1 <= 1 && 0 <= v0 && v0 < v1 && v1 <= 1) {
			t.Errorf("UV(%+v) = %v %v %v %v: not ordered inside [0, 1]", r, u0, v0, u1, v1)
		}
	}
}

func ExamplePackAtlas() {
	solid := func(w, h int, c color.RGBA) image.Image {
		m := image.NewRGBA(image.Rect(0, 0, w, h))
		for i := 0; i < len(m.Pix); i += 4 {
			m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = c.R, c.G, c.B, c.A
		}
		return m
	}
	a, err := PackAtlas([]Image{
		{Name: "coin", Img: solid(12, 12, color.RGBA{255, 200, 0, 255})},
		{Name: "player", Img: solid(16, 24, color.RGBA{200, 40, 40, 255})},
		{Name: "white", Img: solid(4, 4, color.RGBA{255, 255, 255, 255})},
	}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("atlas", a.Image.Bounds().Size())
	for _, r := range a.Regions {
		fmt.Printf("%-6s at (%d,%d) size %dx%d\n", r.Name, r.X, r.Y, r.W, r.H)
	}
	r, _ := a.Region("player")
	u0, v0, u1, v1 := a.UV(r)
	fmt.Printf("player uv (%.4f,%.4f)-(%.4f,%.4f)\n", u0, v0, u1, v1)
	fmt.Println("padding left of player:", a.Image.RGBAAt(r.X-1, r.Y))
	// Output:
	// atlas (32,32)
	// coin   at (19,1) size 12x12
	// player at (1,1) size 16x24
	// white  at (1,27) size 4x4
	// player uv (0.0312,0.0312)-(0.5312,0.7812)
	// padding left of player: {200 40 40 255}
}
