package engine

import "golang.org/x/image/font/sfnt"

// DrawLook is what a game's Setup declared for drawing besides its
// pictures: its fonts and its shaders.
type DrawLook struct {
	// Fonts are the game's fonts in the order Setup loaded them; Fonts[0]
	// is the engine's default (Go Regular).
	Fonts []*sfnt.Font
	// Shaders are the game's fragment shaders, in the order Setup gave
	// them (a snapshot's Uniforms hold their values in that order).
	Shaders []Shader
	// LayerShader[k] is the shader layer k is drawn through, 1-based into
	// Shaders (0: none); ScreenShader the whole frame's.
	LayerShader  [8]int
	ScreenShader int
	// Offscreen[k] draws layer k into a texture the shaders sample
	// (u_layerK) instead of onto the frame.
	Offscreen [8]bool
}

// Shader is a game's fragment shader.
type Shader struct {
	Name   string
	Source string
	// Uniforms are its own float uniforms, in order: their values sit at
	// Offset + their At in a snapshot's Uniforms.
	Uniforms []Uniform
	Offset   int
}

// Uniform is one float, vec2, vec3 or vec4 uniform of a game's shader.
type Uniform struct {
	Name string
	N    int // components, 1 to 4
	At   int // its first value's index among the shader's
}
