package gl

// This file is pure Go: no GL calls, so it builds and tests without a context.

import (
	"errors"
	"fmt"
	"image"
	"image/draw"
	"sort"
)

// atlasMaxSize is the largest atlas width or height PackAtlas produces. Every
// OpenGL 4.1 driver we target supports textures at least this large.
const atlasMaxSize = 8192

// Image is a named source image for PackAtlas.
type Image struct {
	Name string
	Img  image.Image
}

// Region is the pixel rectangle of one packed image inside an atlas image,
// without its padding: the image's pixels are exactly the atlas pixels p with
// X <= p.X < X+W and Y <= p.Y < Y+H.
type Region struct {
	Name       string
	X, Y, W, H int
}

// Atlas is a set of images packed into one RGBA image.
//
// Image holds premultiplied alpha, as image.RGBA always does, so it blends with
// glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA) and filters bilinearly without
// dark fringes. Regions is sorted by name; Region relies on that. Region and
// UV only read the atlas, so they may be called from any goroutine.
type Atlas struct {
	Image   *image.RGBA
	Regions []Region
}

// PackAtlas packs imgs into one RGBA image whose width and height are the
// smallest powers of two (at most 8192) that fit them all.
//
// Images are placed on shelves, largest first: sorted by height descending,
// then by name, so the same input always gives the same atlas. Each image is
// surrounded by padding pixels that repeat its edge pixels (the corners repeat
// its corner pixels), so bilinear filtering and float rounding at a region's
// edge sample the region's own colours, never a neighbour's.
//
// PackAtlas returns an error naming the image if an image has an empty or
// duplicate name, is nil or has zero size, or cannot fit in 8192x8192.
// It may be called from any goroutine.
func PackAtlas(imgs []Image, padding int) (*Atlas, error) {
	if padding < 0 {
		return nil, fmt.Errorf("gl: pack atlas: negative padding %d", padding)
	}
	order := make([]int, len(imgs))
	seen := make(map[string]bool, len(imgs))
	for i, im := range imgs {
		switch {
		case im.Name == "":
			return nil, fmt.Errorf("gl: pack atlas: image %d has an empty name", i)
		case seen[im.Name]:
			return nil, fmt.Errorf("gl: pack atlas: duplicate image name %q", im.Name)
		case im.Img == nil:
			return nil, fmt.Errorf("gl: pack atlas: image %q is nil", im.Name)
		case im.Img.Bounds().Empty():
			return nil, fmt.Errorf("gl: pack atlas: image %q has zero size %v", im.Name, im.Img.Bounds().Size())
		}
		s := im.Img.Bounds().Size()
		if s.X+2*padding > atlasMaxSize || s.Y+2*padding > atlasMaxSize {
			return nil, fmt.Errorf("gl: pack atlas: image %q (%dx%d, padding %d): %w",
				im.Name, s.X, s.Y, padding, errAtlasTooLarge)
		}
		seen[im.Name] = true
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool {
		ia, ib := imgs[order[a]], imgs[order[b]]
		ha, hb := ia.Img.Bounds().Dy(), ib.Img.Bounds().Dy()
		if ha != hb {
			return ha > hb
		}
		return ia.Name < ib.Name
	})

	// Try every power-of-two width; shelf packing fixes the height. Keep the
	// smallest area, and among equal areas the squarest, then the widest.
	bestW, bestH := 0, 0
	for w := 1; w <= atlasMaxSize; w *= 2 {
		h, _ := atlasShelves(imgs, order, padding, w, nil)
		if h < 0 || h > atlasMaxSize {
			continue
		}
		h = atlasPow2(h)
		if bestW == 0 || atlasBetter(w, h, bestW, bestH) {
			bestW, bestH = w, h
		}
	}
	if bestW == 0 {
		_, failed := atlasShelves(imgs, order, padding, atlasMaxSize, nil)
		return nil, fmt.Errorf("gl: pack atlas: image %q (%d images, padding %d): %w",
			imgs[failed].Name, len(imgs), padding, errAtlasTooLarge)
	}

	a := &Atlas{
		Image:   image.NewRGBA(image.Rect(0, 0, bestW, bestH)),
		Regions: make([]Region, len(imgs)),
	}
	atlasShelves(imgs, order, padding, bestW, a.Regions)
	for i, r := range a.Regions {
		atlasBlit(a.Image, imgs[i].Img, r, padding)
	}
	sort.Slice(a.Regions, func(i, j int) bool { return a.Regions[i].Name < a.Regions[j].Name })
	return a, nil
}

var errAtlasTooLarge = errors.New("does not fit in an 8192x8192 atlas")

// atlasShelves places the images in order on shelves of the given width and
// returns the total height used. If out is not nil, out[i] receives image i's
// region. If an image does not fit in 8192 rows, it returns -1 and the index
// of that image.
func atlasShelves(imgs []Image, order []int, padding, width int, out []Region) (height, failed int) {
	x, y, shelf := 0, 0, 0
	for _, i := range order {
		s := imgs[i].Img.Bounds().Size()
		cw, ch := s.X+2*padding, s.Y+2*padding
		if cw > width {
			return -1, i
		}
		if x+cw > width {
			x, y, shelf = 0, y+shelf, 0
		}
		if y+ch > atlasMaxSize {
			return -1, i
		}
		if out != nil {
			out[i] = Region{Name: imgs[i].Name, X: x + padding, Y: y + padding, W: s.X, H: s.Y}
		}
		x += cw
		shelf = max(shelf, ch)
	}
	return y + shelf, -1
}

// atlasBetter reports whether a w x h atlas is better than a bw x bh one.
func atlasBetter(w, h, bw, bh int) bool {
	if w*h != bw*bh {
		return w*h < bw*bh
	}
	if max(w, h) != max(bw, bh) {
		return max(w, h) < max(bw, bh)
	}
	return w > bw
}

// atlasPow2 returns the smallest power of two >= n (1 for n <= 1).
func atlasPow2(n int) int {
	p := 1
	for p < n {
		p *= 2
	}
	return p
}

// atlasBlit copies src into dst at r and fills the padding around r by
// extruding r's edge pixels.
func atlasBlit(dst *image.RGBA, src image.Image, r Region, padding int) {
	rect := image.Rect(r.X, r.Y, r.X+r.W, r.Y+r.H)
	draw.Draw(dst, rect, src, src.Bounds().Min, draw.Src)
	if padding == 0 {
		return
	}
	for y := r.Y - padding; y < r.Y+r.H+padding; y++ {
		sy := min(max(y, r.Y), r.Y+r.H-1)
		for x := r.X - padding; x < r.X+r.W+padding; x++ {
			if y == sy && x >= r.X && x < r.X+r.W {
				x = r.X + r.W - 1 // inside the region: skip to its right edge
				continue
			}
			sx := min(max(x, r.X), r.X+r.W-1)
			dst.SetRGBA(x, y, dst.RGBAAt(sx, sy))
		}
	}
}

// Region returns the region named name and reports whether it exists.
func (a *Atlas) Region(name string) (Region, bool) {
	i := sort.Search(len(a.Regions), func(i int) bool { return a.Regions[i].Name >= name })
	if i < len(a.Regions) && a.Regions[i].Name == name {
		return a.Regions[i], true
	}
	return Region{}, false
}

// UV returns the normalized texture coordinates of r's edges: u0 and u1 of its
// left and right edges, v0 of its top edge and v1 of its bottom edge, for the
// atlas image uploaded top row first (so row 0 is at v = 0).
func (a *Atlas) UV(r Region) (u0, v0, u1, v1 float32) {
	w, h := float32(a.Image.Bounds().Dx()), float32(a.Image.Bounds().Dy())
	return float32(r.X) / w, float32(r.Y) / h, float32(r.X+r.W) / w, float32(r.Y+r.H) / h
}
