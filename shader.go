package tandem

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/tandem-engine/tandem/internal/engine"
)

// Shader is a fragment shader Setup declared, for a layer
// ([Setup.LayerShader]) or the whole frame ([Setup.ScreenShader]). The
// zero Shader is none.
type Shader uint8

// MaxUniforms is the most float components (a vec4 is 4) one shader's
// own uniforms may hold.
const MaxUniforms = 64

type shaderSource struct {
	name, src string
	uniforms  []engine.Uniform
	offset    int // its first value in World.uniforms
}

// shaderUniforms finds a shader's uniforms by name on the sim thread.
type shaderUniforms struct {
	byName map[string]engine.Uniform
	offset int // its first value in World.uniforms
}

// uniformDecl matches a float uniform's declaration: the ones a game sets
// from its ticks.
var uniformDecl = regexp.MustCompile(`(?m)^\s*uniform\s+(float|vec2|vec3|vec4)\s+(\w+)\s*;`)

// Shader declares a fragment shader, GLSL 4.10 core, named name in
// errors. The engine draws a layer (or the frame) into a texture, then
// draws a rectangle over the whole framebuffer through the shader, which
// writes the pixel's colour, premultiplied by its alpha. It may use:
//
//	in vec2 v_uv;             // 0..1 across the framebuffer, (0, 0) bottom-left
//	out vec4 o_color;         // the pixel, premultiplied alpha
//	uniform sampler2D u_layer;  // what the layer (or the frame) drew
//	uniform sampler2D u_layer0; // ... u_layer7: the layers Setup.Offscreen drew
//	uniform float u_time;     // the sim time of the moment shown, in seconds
//	uniform vec2 u_size;      // the framebuffer's size in pixels
//
// and uniforms of its own, float, vec2, vec3 or vec4 (declared one a
// line, as "uniform float u_glow;"), which ticks set with
// [World.Uniform]: their values are blended between ticks as positions
// are. src must start with "#version 410 core". A shader that does not
// compile fails the run with an error naming it and the line, with the
// driver's message: at the Setup pass a run makes before it opens its
// window, on Linux in a GL context that needs no display (EGL) and on
// Windows in a hidden window's, and everywhere when the window opens,
// before the first frame.
func (s *Setup) Shader(name, src string) (Shader, error) {
	s.live("Shader")
	if !strings.HasPrefix(strings.TrimLeft(src, " \t\r\n"), "#version 410 core") {
		return 0, s.fail(fmt.Errorf("tandem: Shader %s: line 1: the source must start with \"#version 410 core\" (GLSL 4.10, the engine's OpenGL 4.1 core)", name))
	}
	if len(s.shaders) >= 255 {
		return 0, s.fail(fmt.Errorf("tandem: Shader %s: 255 shaders already", name))
	}
	sh := shaderSource{name: name, src: src, offset: len(s.world.uniforms)}
	at := 0
	for _, m := range uniformDecl.FindAllStringSubmatch(src, -1) {
		n := int(m[1][len(m[1])-1] - '0')
		if m[1] == "float" {
			n = 1
		}
		if engineUniform(m[2]) {
			continue
		}
		sh.uniforms = append(sh.uniforms, engine.Uniform{Name: m[2], N: n, At: at})
		at += n
	}
	if at > MaxUniforms {
		return 0, s.fail(fmt.Errorf("tandem: Shader %s: its uniforms hold %d floats, more than MaxUniforms (%d)", name, at, MaxUniforms))
	}
	s.world.uniforms = append(s.world.uniforms, make([]float32, at)...)
	byName := shaderUniforms{byName: map[string]engine.Uniform{}, offset: sh.offset}
	for _, u := range sh.uniforms {
		byName.byName[u.Name] = u
	}
	s.world.shaders = append(s.world.shaders, byName)
	s.shaders = append(s.shaders, sh)
	return Shader(len(s.shaders)), nil
}

func engineUniform(name string) bool {
	switch name {
	case "u_time", "u_size":
		return true
	}
	return false
}

// LayerShader draws layer through sh: the layer's sprites, shapes and
// world text are drawn into a texture (transparent where nothing is),
// which sh reads as u_layer, and sh's output is blended onto the frame
// in the layer's place.
func (s *Setup) LayerShader(layer uint8, sh Shader) {
	s.live("LayerShader")
	if err := s.checkShader("LayerShader", layer, sh); err != nil {
		s.errs = append(s.errs, err)
		return
	}
	s.layerShader[layer] = sh
}

// ScreenShader draws the whole frame through sh: the world and the
// screen-space shapes and text are drawn into a texture, which sh reads
// as u_layer, and sh's output is the frame (the HUD is drawn over it).
// A run whose game calls none of LayerShader, ScreenShader and Offscreen
// draws straight onto the frame, as before.
func (s *Setup) ScreenShader(sh Shader) {
	s.live("ScreenShader")
	if err := s.checkShader("ScreenShader", 0, sh); err != nil {
		s.errs = append(s.errs, err)
		return
	}
	s.screenShader = sh
}

// Offscreen draws layer into a texture of the framebuffer's size
// instead of onto the frame: shaders read it as u_layerN (u_layer3 for
// layer 3), for a light map, a glow's source, a mask. Nothing shows it
// unless a shader does.
func (s *Setup) Offscreen(layer uint8) {
	s.live("Offscreen")
	if int(layer) >= Layers {
		s.errs = append(s.errs, fmt.Errorf("tandem: Offscreen: layer %d; layers are 0 to %d", layer, Layers-1))
		return
	}
	s.offscreen[layer] = true
}

func (s *Setup) checkShader(call string, layer uint8, sh Shader) error {
	if int(layer) >= Layers {
		return fmt.Errorf("tandem: %s: layer %d; layers are 0 to %d", call, layer, Layers-1)
	}
	if sh == 0 || int(sh) > len(s.shaders) {
		return fmt.Errorf("tandem: %s: shader %d, which Setup.Shader did not return", call, sh)
	}
	return nil
}

// Uniform sets sh's uniform name to v (1 to 4 floats, as it is
// declared) from this tick on: it keeps its value until a tick sets it
// again, and frames between ticks show it blended. Like drawing it is
// output, not state. A name sh does not declare, or the wrong number of
// values, panics with the names it has.
func (w *World) Uniform(sh Shader, name string, v ...float32) {
	if sh == 0 || int(sh) > len(w.shaders) {
		panic(fmt.Sprintf("tandem: Uniform of shader %d, which Setup.Shader did not return", sh))
	}
	su := &w.shaders[sh-1]
	u, ok := su.byName[name]
	if !ok || len(v) != u.N {
		panic(fmt.Sprintf("tandem: Uniform %s of shader %d with %d values: the shader's own float uniforms are %s",
			name, sh, len(v), uniformNames(su.byName)))
	}
	copy(w.uniforms[su.offset+u.At:], v)
}

func uniformNames(m map[string]engine.Uniform) string {
	var names []string
	for n, u := range m {
		names = append(names, fmt.Sprintf("%s (%d)", n, u.N))
	}
	if len(names) == 0 {
		return "none"
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// drawLook is what the renderer needs of the fonts and shaders.
func (s *Setup) drawLook() (engine.DrawLook, error) {
	var l engine.DrawLook
	var err error
	if l.Fonts, err = s.drawFonts(); err != nil {
		return l, err
	}
	for _, sh := range s.shaders {
		l.Shaders = append(l.Shaders, engine.Shader{Name: sh.name, Source: sh.src, Uniforms: sh.uniforms, Offset: sh.offset})
	}
	for k, sh := range s.layerShader {
		l.LayerShader[k] = int(sh)
	}
	l.ScreenShader = int(s.screenShader)
	l.Offscreen = s.offscreen
	return l, nil
}
