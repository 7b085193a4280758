package main

import (
	"fmt"

	"github.com/tandem-engine/tandem/cmd/tandem/assets"
	"github.com/tandem-engine/tandem/cmd/tandem/scene"
	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/physics"
)

// hudFontPx is the HUD's font size in pixels.
const hudFontPx = 14

// art is everything drawn from the atlas: the packed image, the frame
// table the GPU reads, and the indices the scenes and the HUD use. It is
// built once at start, before any GL call, so it needs no context.
type art struct {
	atlas  *gl.Atlas
	frames []gl.Frame
	scene  scene.Frames
	glyphs *gl.GlyphSet
	// glyph maps an ASCII rune to its frame; 0 (the white frame) for
	// runes without ink.
	glyph [128]uint16
	white uint16
}

// buildArt packs the demo's sprites and the HUD's glyphs into one atlas and
// makes the frame table. bunnyPx is the size the bunnies are drawn at (the
// longer side), for -sprite-size.
func buildArt(bunnyPx int) (*art, error) {
	sprites, err := assets.Load()
	if err != nil {
		return nil, err
	}
	glyphs, glyphImgs, err := gl.NewGlyphSet(hudFontPx)
	if err != nil {
		return nil, err
	}
	imgs := make([]gl.Image, 0, len(sprites)+len(glyphImgs))
	for _, s := range sprites {
		imgs = append(imgs, gl.Image{Name: s.Name, Img: s.Img})
	}
	imgs = append(imgs, glyphImgs...)
	atlas, err := gl.PackAtlas(imgs, 2)
	if err != nil {
		return nil, err
	}
	a := &art{atlas: atlas, glyphs: glyphs}
	// One frame per region, in the atlas's order, then the mirrored ones.
	index := make(map[string]uint16, len(atlas.Regions))
	for _, r := range atlas.Regions {
		u0, v0, u1, v1 := atlas.UV(r)
		index[r.Name] = uint16(len(a.frames))
		a.frames = append(a.frames, gl.Frame{U0: u0, V0: v0, U1: u1, V1: v1, W: float32(r.W), H: float32(r.H)})
	}
	find := func(name string) (uint16, error) {
		i, ok := index[name]
		if !ok {
			return 0, fmt.Errorf("assets: no sprite %q in the atlas", name)
		}
		return i, nil
	}
	mirror := func(i uint16) uint16 {
		f := a.frames[i]
		f.U0, f.U1 = f.U1, f.U0
		a.frames = append(a.frames, f)
		return uint16(len(a.frames) - 1)
	}
	var errs []error
	get := func(name string) uint16 {
		i, err := find(name)
		if err != nil {
			errs = append(errs, err)
		}
		return i
	}
	f := &a.scene
	f.Player[physics.FrameIdle] = get("player_idle0")
	for k := range physics.RunFrames {
		f.Player[physics.FrameRun0+k] = get(fmt.Sprintf("player_run%d", k))
	}
	f.Player[physics.FrameJump] = get("player_jump")
	f.Player[physics.FrameFall] = get("player_fall")
	for i := range f.Coin {
		f.Coin[i] = get(fmt.Sprintf("coin%d", i))
	}
	for i := range f.Bunny {
		f.Bunny[i] = get(fmt.Sprintf("bunny%d", i))
	}
	f.TileSolid, f.TileGrass, f.TileOneWay = get("tile_solid"), get("tile_grass"), get("tile_oneway")
	f.Ship, f.Bullet, f.Gun = get("ship"), get("bullet"), get("gun")
	a.white = get("white")
	if len(errs) > 0 {
		return nil, errs[0]
	}
	for i, p := range f.Player {
		f.PlayerLeft[i] = mirror(p)
	}
	// Bunnies are drawn at -sprite-size on their longer side; each colour
	// gets its own scaled frame so the sprite shader needs no scale.
	for i, b := range f.Bunny {
		fr := a.frames[b]
		s := float32(bunnyPx) / max(fr.W, fr.H)
		fr.W, fr.H = fr.W*s, fr.H*s
		a.frames = append(a.frames, fr)
		f.Bunny[i] = uint16(len(a.frames) - 1)
	}
	for r := range a.glyph {
		a.glyph[r] = a.white
		if g := glyphs.Glyphs[r]; g.Name != "" {
			a.glyph[r] = index[g.Name]
		}
	}
	return a, nil
}
