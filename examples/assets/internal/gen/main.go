package main

import (
	"bytes"
	"flag"
	"fmt"
	"image/png"
	"log"
	"os"
	"path/filepath"

	"github.com/tandem-engine/tandem/examples/assets/internal/art"
	"github.com/tandem-engine/tandem/examples/assets/internal/sfx"
)

func main() {
	out := flag.String("o", "", "output folder (default: examples/assets/png, found from the working directory)")
	flag.Parse()
	dir := *out
	if dir == "" {
		var err error
		if dir, err = pngDir(); err != nil {
			log.Fatal(err)
		}
	}
	if err := write(dir); err != nil {
		log.Fatal(err)
	}
	if err := writeSounds(filepath.Join(filepath.Dir(dir), "wav")); err != nil {
		log.Fatal(err)
	}
}

// writeSounds synthesises the demo's sounds into dir as WAVs, replacing
// any WAVs there.
func writeSounds(dir string) error {
	if err := emptyOf(dir, "*.wav"); err != nil {
		return err
	}
	for _, s := range sfx.All() {
		if err := os.WriteFile(filepath.Join(dir, s.Name+".wav"), s.WAV(), 0o644); err != nil {
			return fmt.Errorf("gen: %w", err)
		}
	}
	fmt.Printf("gen: wrote %d sounds to %s\n", len(sfx.All()), dir)
	return nil
}

// pngDir finds examples/assets/png from the repository root or from
// examples/assets (where go generate runs).
func pngDir() (string, error) {
	for _, d := range []string{"examples/assets/png", "png"} {
		if _, err := os.Stat(filepath.Join(filepath.Dir(d), "assets.go")); err == nil {
			return d, nil
		}
	}
	return "", fmt.Errorf("gen: run from the repository root or examples/assets, or pass -o")
}

func write(dir string) error {
	if err := emptyOf(dir, "*.png"); err != nil {
		return err
	}
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	for _, s := range art.All() {
		var buf bytes.Buffer
		if err := enc.Encode(&buf, s.Img); err != nil {
			return fmt.Errorf("gen: encode %s: %w", s.Name, err)
		}
		name := filepath.Join(dir, s.Name+".png")
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("gen: %w", err)
		}
	}
	fmt.Printf("gen: wrote %d sprites to %s\n", len(art.All()), dir)
	return nil
}

// emptyOf makes dir, and removes from it the files that match pattern:
// what a generator wrote there before.
func emptyOf(dir, pattern string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	old, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return fmt.Errorf("gen: %w", err)
		}
	}
	return nil
}
