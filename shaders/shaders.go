package shaders

import (
	"embed"
	"fmt"
)

// FS holds every shader source file of the package.
//
//go:embed *.vert *.frag
var FS embed.FS

// Program names a vertex and fragment shader pair and holds their sources.
type Program struct {
	Name       string // e.g. "sprite"
	VertFile   string // file name in FS, e.g. "sprite.vert"
	FragFile   string
	Vert, Frag string // the sources
}

// Label names the program and its files for errors, e.g.
// "sprite (shaders/sprite.vert, shaders/sprite.frag)".
//
// Any goroutine.
func (p Program) Label() string {
	return p.Name + " (shaders/" + p.VertFile + ", shaders/" + p.FragFile + ")"
}

// The programs the gl package builds.
var (
	// Sprite draws world-space sprites interpolated between two snapshots
	// (also used, with alpha 1, for tile layers). Attributes: 0 a_prev
	// (x, y, cos, sin), 1 a_curr (the same), 2 a_frame (uint), 3 a_tint.
	// Uniforms: u_viewProj, u_alpha, u_atlas, u_frames.
	Sprite = mustProgram("sprite", "sprite.vert", "sprite.frag")

	// SpriteWhite is Sprite for a batch whose every sprite is untinted:
	// the same attributes and uniforms, the texel without the tint (the
	// same pixels, less work a pixel).
	SpriteWhite = mustProgram("sprite-white", "sprite.vert", "sprite_white.frag")

	// SpriteCut is SpriteWhite for cut-out art (every texel of the atlas
	// opaque or zero, sampled nearest), drawn with blending off: the
	// texel, or nothing where it is transparent. The same pixels, without
	// the blend. Ceiling draws its quads with the same fragment shader.
	SpriteCut = mustProgram("sprite-cut", "sprite.vert", "sprite_cut.frag")

	// Quad draws screen-space rectangles for the HUD, not interpolated.
	// Attributes: 0 a_rect (x, y, w, h in pixels, top-left origin),
	// 1 a_frame (uint), 2 a_tint. Uniforms: u_screen, u_atlas, u_frames.
	Quad = mustProgram("quad", "quad.vert", "tinted.frag")

	// Shape draws anti-aliased shapes and glyphs, interpolated between
	// two snapshots. Attributes: 0 a_prev (x, y, a, b), 1 a_curr, 2
	// a_extra (c, d, e, f), 3 a_meta (kind, polygon data, width bits),
	// 4 a_tint. Uniforms: u_viewProj, u_alpha, u_px, u_glyphSize,
	// u_points (unit 1), u_glyphs (unit 2).
	Shape = mustProgram("shape", "shape.vert", "shape.frag")

	// Post draws one triangle over the framebuffer through a game's
	// fragment shader (post.frag is the plain copy of its u_layer).
	// Varying: v_uv. Uniforms: u_layer, u_layer0..7, u_time, u_size.
	Post = mustProgram("post", "post.vert", "post.frag")

	// Ceiling draws the sprite batch's quads with nothing else, for the
	// bench's -ceiling: attribute 0 a_pos (x, y); uniforms u_viewProj,
	// u_uv, u_size, u_atlas. CeilingCut is the same through SpriteCut's
	// fragment shader, for cut-out art, as the sprites draw it.
	Ceiling    = mustProgram("ceiling", "ceiling.vert", "sprite.frag")
	CeilingCut = mustProgram("ceiling-cut", "ceiling.vert", "sprite_cut.frag")

	// CeilingTurn and CeilingTurnCut are Ceiling and CeilingCut for quads
	// that turn (-ceiling -spin): attribute 0 a_quad (x, y, angle), each
	// quad turned about its centre.
	CeilingTurn    = mustProgram("ceiling-turn", "ceiling_turn.vert", "sprite.frag")
	CeilingTurnCut = mustProgram("ceiling-turn-cut", "ceiling_turn.vert", "sprite_cut.frag")
)

// Programs returns every program of the package, for tests that compile
// them all.
func Programs() []Program {
	return []Program{Sprite, SpriteWhite, SpriteCut, Quad, Shape, Post, Ceiling, CeilingCut, CeilingTurn, CeilingTurnCut}
}

// Source returns the text of the named file in FS ("sprite.vert").
func Source(file string) (string, error) {
	b, err := FS.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("shaders: %w", err)
	}
	return string(b), nil
}

// mustProgram panics when a file is missing: that is a mistake in this
// package, caught by its tests, not a condition of the machine.
func mustProgram(name, vert, frag string) Program {
	v, err := Source(vert)
	if err != nil {
		panic(err)
	}
	f, err := Source(frag)
	if err != nil {
		panic(err)
	}
	return Program{Name: name, VertFile: vert, FragFile: frag, Vert: v, Frag: f}
}
