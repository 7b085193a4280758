package assets

//go:generate go run ./internal/gen

import (
	"bytes"
	"embed"
	"fmt"
	"image"
	"image/png"
	"io/fs"
	"path"
	"strings"
)

// FS holds the sprite PNGs, as png/NAME.png, and the sounds, as
// wav/NAME.wav.
//
//go:embed png/*.png wav/*.wav
var FS embed.FS

// Sprite is one decoded sprite; Name is its file name without ".png".
type Sprite struct {
	Name string
	Img  image.Image
}

// Load decodes every embedded PNG and returns the sprites sorted by name.
// It may be called from any goroutine.
func Load() ([]Sprite, error) {
	return load(FS)
}

// load decodes png/*.png in fsys.
func load(fsys fs.FS) ([]Sprite, error) {
	files, err := fs.Glob(fsys, "png/*.png") // sorted by name
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	sprites := make([]Sprite, 0, len(files))
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, fmt.Errorf("assets: %s: %w", f, err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("assets: decode %s: %w", f, err)
		}
		sprites = append(sprites, Sprite{Name: strings.TrimSuffix(path.Base(f), ".png"), Img: img})
	}
	return sprites, nil
}
