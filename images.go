package tandem

import (
	"cmp"
	"fmt"
	"image"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/internal/regfile"
)

// The game's pictures: what Setup declares to draw, one by one or from an
// fs.FS, each checked from its header before it is decoded.

// frameSource is where a frame comes from: an image, or another frame
// mirrored or scaled once the atlas is packed.
type frameSource struct {
	name   string
	img    image.Image // nil for a derived frame
	of     Frame
	mirror bool
	px     float32 // scale to this size on the longer side; 0: as is
}

func (s *Setup) add(f frameSource) Frame {
	s.live("Image")
	if f.img == nil && int(f.of) > len(s.frames) {
		s.errs = append(s.errs, fmt.Errorf("tandem: Mirrored or Scaled of frame %d, which Setup has not made (it has made %d)", f.of, len(s.frames)))
		return 0
	}
	if len(s.frames) >= int(NoTile)-1 {
		s.errs = append(s.errs, fmt.Errorf("tandem: more than %d frames", NoTile-1))
		return 0
	}
	s.frames = append(s.frames, f)
	return Frame(len(s.frames))
}

// Image adds img to the game's pictures and returns its frame. name is
// for errors and for [Setup.Frame].
func (s *Setup) Image(name string, img image.Image) Frame {
	s.live("Image")
	if img == nil || img.Bounds().Empty() {
		s.errs = append(s.errs, fmt.Errorf("tandem: image %q is empty", name))
		return 0
	}
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	if err := cmp.Or(fitsAtlas(w, h), s.fitsBeside(w, h)); err != nil {
		s.errs = append(s.errs, fmt.Errorf("tandem: image %q: %w", name, err))
		return 0
	}
	s.imagePx += paddedPx(w, h)
	f := s.add(frameSource{name: name, img: img})
	s.byName[name] = f
	return f
}

// Images adds every image in fsys that matches pattern (path.Match
// syntax, e.g. "png/*.png"), named by its file name without the
// extension, in name order; PNG, and any format the program has
// registered with image.RegisterFormat. Each must be a regular file (a
// FIFO or a device is refused before it is opened), and is sized from its
// header before it is decoded: one too large for the atlas
// (8188 px a side) is refused without decoding it. Errors
// name the file.
func (s *Setup) Images(fsys fs.FS, pattern string) error {
	s.live("Images")
	return s.eachFile(fsys, pattern, "images", func(name, file string) error {
		img, err := decodeImage(fsys, file, s.fitsBeside)
		if err != nil {
			return fmt.Errorf("tandem: image %s: %w", file, err)
		}
		s.Image(name, img)
		return nil
	})
}

// eachFile calls add for every file in fsys that matches pattern, in name
// order, with the file's name without its directory and extension: what
// Images and Sounds declare. Its first error, or a pattern that matches
// nothing, is Setup's error too.
func (s *Setup) eachFile(fsys fs.FS, pattern, what string, add func(name, file string) error) error {
	files, err := fs.Glob(fsys, pattern)
	if err != nil {
		return s.fail(fmt.Errorf("tandem: %s %q: %w", what, pattern, err))
	}
	if len(files) == 0 {
		return s.fail(fmt.Errorf("tandem: %s %q: no file matches", what, pattern))
	}
	sort.Strings(files)
	for _, f := range files {
		base := path.Base(f)
		if err := add(strings.TrimSuffix(base, path.Ext(base)), f); err != nil {
			return s.fail(err)
		}
	}
	return nil
}

// decodeImage decodes the image file name in fsys: its header first, so
// that an image the atlas cannot hold, by itself or beside the images
// declared before it (fits), is refused before its pixels are allocated
// (a 30000 x 30000 PNG of zeros is 875 KB on disk and 3.6 GB decoded).
func decodeImage(fsys fs.FS, name string, fits func(w, h int) error) (image.Image, error) {
	var cfg image.Config
	err := readFile(fsys, name, func(r io.Reader) (err error) {
		cfg, _, err = image.DecodeConfig(r)
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := cmp.Or(fitsAtlas(cfg.Width, cfg.Height), fits(cfg.Width, cfg.Height)); err != nil {
		return nil, err
	}
	var img image.Image
	err = readFile(fsys, name, func(r io.Reader) (err error) {
		img, _, err = image.Decode(r)
		return err
	})
	return img, err
}

// readFile opens name in fsys and hands it to read, after checking that
// it is a regular file: before opening it (a FIFO would block the open of
// an os.DirFS) and again once open.
func readFile(fsys fs.FS, name string, read func(io.Reader) error) error {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s, not a regular file: give an image file", regfile.Kind(st.Mode()))
	}
	f, err := fsys.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return fmt.Errorf("not a regular file: give an image file")
	}
	return read(f)
}

// fitsAtlas returns an error when a w x h px image cannot go into the
// atlas.
func fitsAtlas(w, h int) error {
	if w <= 0 || h <= 0 || w > engine.MaxImagePx || h > engine.MaxImagePx {
		return fmt.Errorf("%dx%d px does not fit the atlas, which holds images up to %d px a side: shrink it or split it", w, h, engine.MaxImagePx)
	}
	return nil
}

// atlasPx is the most image area the atlas holds, each image's padding
// included: images whose areas add up to more can never be packed.
const atlasPx = int64(engine.MaxImagePx+imagePad) * int64(engine.MaxImagePx+imagePad)

// imagePad is the padding the atlas gives an image, both sides together.
const imagePad = 2 * 2

func paddedPx(w, h int) int64 { return int64(w+imagePad) * int64(h+imagePad) }

// fitsBeside returns an error when a w x h px image and the images
// declared before it have more area than the atlas: a game loading many
// large images (each one fits) is refused at the first that cannot, before
// it is decoded, not once all of them are in memory.
func (s *Setup) fitsBeside(w, h int) error {
	if s.imagePx+paddedPx(w, h) <= atlasPx {
		return nil
	}
	return fmt.Errorf("%dx%d px does not fit the atlas beside the images declared before it (%.1f Mpx in all with it, where the atlas holds %.1f Mpx, 8192 px a side): use fewer or smaller images",
		w, h, float64(s.imagePx+paddedPx(w, h))/1e6, float64(atlasPx)/1e6)
}

// Frame returns the frame of the image called name. An unknown name is an
// error that Setup's caller reports, naming it; the frame is then 0.
func (s *Setup) Frame(name string) Frame {
	f, ok := s.byName[name]
	if !ok {
		s.errs = append(s.errs, fmt.Errorf("tandem: no image called %q: %s", name, engine.KnownNames(name, s.byName, "images")))
	}
	return f
}

// Mirrored returns f flipped left to right.
func (s *Setup) Mirrored(f Frame) Frame {
	return s.add(frameSource{of: f, mirror: true})
}

// Scaled returns f drawn px pixels on its longer side. (A sprite's Scale
// does the same per entity; a scaled frame costs nothing per tick.)
func (s *Setup) Scaled(f Frame, px int) Frame {
	if px < 1 {
		s.errs = append(s.errs, fmt.Errorf("tandem: Scaled: %d px; want 1 or more", px))
	}
	return s.add(frameSource{of: f, px: float32(px)})
}
