package app

import (
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"path/filepath"
	"strings"

	"github.com/tandem-engine/tandem/internal/atomicfile"
)

// ImageEncoder returns the encoder a screenshot's name asks for: PNG for
// .png, JPEG for .jpg and .jpeg; anything else is refused rather than
// written as a PNG under another name.
func ImageEncoder(name string) (func(io.Writer, image.Image) error, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".png":
		return png.Encode, nil
	case ".jpg", ".jpeg":
		return func(w io.Writer, img image.Image) error { return jpeg.Encode(w, img, &jpeg.Options{Quality: 95}) }, nil
	}
	return nil, fmt.Errorf("want a name ending in .png, .jpg or .jpeg, not %q", filepath.Ext(name))
}

// writeImage writes img to name in the format its extension names, whole
// or not at all (a stop while it is written leaves no half picture).
func writeImage(name string, img image.Image) error {
	enc, err := ImageEncoder(name)
	if err != nil {
		return fmt.Errorf("screenshot %s: %w", name, err)
	}
	if err := atomicfile.WriteFile(name, func(w io.Writer) error { return enc(w, img) }); err != nil {
		return fmt.Errorf("screenshot %s: %w", name, err)
	}
	return nil
}
