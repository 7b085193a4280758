package gl

import (
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// updateGolden rewrites the stored images from this run's pixels:
// go test ./gl -run Golden -update (under xvfb-run), then look at them.
var updateGolden = flag.Bool("update", false, "rewrite gl/testdata's golden images")

// The golden tolerance: every channel of every pixel within goldenMax of
// the stored image, and the mean difference over all channels within
// goldenMean. It lets another rasteriser round an edge's coverage
// differently (drivers differ by a few levels there) but not move, grow,
// drop or recolour a shape: a one-pixel shift of any edge here changes
// pixels by far more than goldenMax.
const (
	goldenMax  = 48
	goldenMean = 1.5
)

// golden compares img with testdata/name.png within the tolerance, or
// writes it with -update.
func golden(t *testing.T, name string, img *image.RGBA) {
	t.Helper()
	path := filepath.Join("testdata", name+".png")
	if *updateGolden {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := png.Encode(f, img); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (make it with -update, under xvfb-run, and look at it)", err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if want.Bounds() != img.Bounds() {
		t.Fatalf("%s: %v, stored %v", name, img.Bounds(), want.Bounds())
	}
	var sum, worst int
	var at image.Point
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			g := img.RGBAAt(x, y)
			r, gg, bb, _ := want.At(x, y).RGBA()
			for _, d := range [3]int{int(g.R) - int(r>>8), int(g.G) - int(gg>>8), int(g.B) - int(bb>>8)} {
				d = max(d, -d)
				sum += d
				if d > worst {
					worst, at = d, image.Pt(x, y)
				}
			}
		}
	}
	mean := float64(sum) / float64(3*b.Dx()*b.Dy())
	if worst > goldenMax || mean > goldenMean {
		out := filepath.Join(t.TempDir(), name+".png")
		if f, err := os.Create(out); err == nil {
			png.Encode(f, img)
			f.Close()
		}
		t.Errorf("%s differs from testdata/%s.png: worst channel %d at %v (max %d), mean %.2f (max %.1f); this run's image: %s",
			name, name, worst, at, goldenMax, mean, goldenMean, out)
	}
}
