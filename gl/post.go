package gl

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/go-gl/gl/v4.1-core/gl"

	"github.com/tandem-engine/tandem/shaders"
)

// Target is an offscreen framebuffer with one RGBA8 colour texture: what
// a layer draws into for a shader to sample. It holds premultiplied
// alpha, as the frame does.
//
// GL thread only.
type Target struct {
	fbo, tex uint32
	w, h     int
}

// NewTarget makes a w x h target.
//
// GL thread only.
func NewTarget(w, h int) (*Target, error) {
	t := &Target{}
	gl.GenFramebuffers(1, &t.fbo)
	check("glGenFramebuffers")
	t.tex = genTexture(gl.LINEAR)
	if err := t.Resize(w, h); err != nil {
		t.Delete()
		return nil, err
	}
	return t, nil
}

// Resize gives the target w x h texels when it has another size (its
// contents are then undefined until drawn). It does not allocate.
//
// GL thread only.
func (t *Target) Resize(w, h int) error {
	if w == t.w && h == t.h {
		return nil
	}
	w, h = max(w, 1), max(h, 1)
	gl.BindTexture(gl.TEXTURE_2D, t.tex)
	check("glBindTexture")
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, int32(w), int32(h), 0, gl.RGBA, gl.UNSIGNED_BYTE, nil)
	check("glTexImage2D")
	gl.BindFramebuffer(gl.FRAMEBUFFER, t.fbo)
	check("glBindFramebuffer")
	gl.FramebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, t.tex, 0)
	check("glFramebufferTexture2D")
	status := gl.CheckFramebufferStatus(gl.FRAMEBUFFER)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	check("glBindFramebuffer")
	if status != gl.FRAMEBUFFER_COMPLETE {
		return fmt.Errorf("gl: offscreen target %dx%d: framebuffer status 0x%x", w, h, status)
	}
	t.w, t.h = w, h
	return nil
}

// Bind makes the target what draws draw into, with a viewport of its
// size, and clears it to r, g, b, a.
//
// GL thread only.
func (t *Target) Bind(r, g, b, a float32) {
	gl.BindFramebuffer(gl.FRAMEBUFFER, t.fbo)
	check("glBindFramebuffer")
	Viewport(t.w, t.h)
	Clear(r, g, b, a)
}

// BindKeep makes the target what draws draw into, with a viewport of
// its size, keeping what it holds.
//
// GL thread only.
func (t *Target) BindKeep() {
	gl.BindFramebuffer(gl.FRAMEBUFFER, t.fbo)
	check("glBindFramebuffer")
	Viewport(t.w, t.h)
}

// BindScreen makes the window's framebuffer, w x h, what draws draw into
// again.
//
// GL thread only.
func BindScreen(w, h int) {
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	check("glBindFramebuffer")
	Viewport(w, h)
}

// Delete frees the target. It must not be used afterwards.
//
// GL thread only.
func (t *Target) Delete() {
	if t.fbo != 0 {
		gl.DeleteFramebuffers(1, &t.fbo)
		check("glDeleteFramebuffers")
		t.fbo = 0
	}
	if t.tex != 0 {
		gl.DeleteTextures(1, &t.tex)
		check("glDeleteTextures")
		t.tex = 0
	}
}

// PostUniform is one of a game shader's own float uniforms: N
// components, its values at At in the slice Draw is given.
type PostUniform struct {
	Name  string
	N, At int
}

// PostShader is a game's fragment shader drawn over the whole
// framebuffer (shaders.Post's vertex shader), sampling a target.
//
// GL thread only.
type PostShader struct {
	prog             *Program
	vao              uint32
	locTime, locSize int32
	locLayer         int32
	locLayers        [8]int32
	uniforms         []PostUniform
	locs             []int32
}

// ShaderError is a game's shader that does not compile or link: its
// name, the line of its source the driver's message is about (0 when
// the message names none), the message and that line.
type ShaderError struct {
	Name string
	Line int
	Msg  string
	Text string // the source's line
}

// Error says which shader, which line, and what the driver said.
//
// Any goroutine.
func (e *ShaderError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("shader %q: line %d: %s\n%6d | %s", e.Name, e.Line, e.Msg, e.Line, e.Text)
	}
	return fmt.Sprintf("shader %q: %s", e.Name, e.Msg)
}

// logLine finds the first error's line in a driver's log: Mesa writes
// "0:12(5): error: ...", NVIDIA "0(12) : error C0000: ...", AMD and
// Intel "ERROR: 0:12: ...".
var logLine = regexp.MustCompile(`(?m)(?:^|\s)0(?::(\d+)\(\d+\)|\((\d+)\)|:(\d+):)\s*:?\s*(?:error)?:?\s*(.*)$`)

// shaderError turns a compile or link failure of a game's shader into a
// *ShaderError.
func shaderError(name, src string, err error) error {
	var ce *CompileError
	if !errors.As(err, &ce) {
		return &ShaderError{Name: name, Msg: err.Error()}
	}
	se := &ShaderError{Name: name, Msg: strings.TrimSpace(ce.Log)}
	for _, line := range strings.Split(ce.Log, "\n") {
		m := logLine.FindStringSubmatch(line)
		if m == nil || !strings.Contains(strings.ToLower(line), "error") {
			continue
		}
		for _, g := range m[1:4] {
			if n, err := strconv.Atoi(g); err == nil {
				se.Line = n
			}
		}
		se.Msg = strings.TrimSpace(line)
		break
	}
	if lines := strings.Split(src, "\n"); se.Line > 0 && se.Line <= len(lines) {
		se.Text = strings.TrimRight(lines[se.Line-1], "\r")
	}
	return se
}

// NewPostShader compiles a game's fragment shader src, named name, with
// its own uniforms. A failure is a *ShaderError naming the line.
//
// GL thread only.
func NewPostShader(name, src string, uniforms []PostUniform) (*PostShader, error) {
	prog, err := NewProgram(name, shaders.Post.Vert, src)
	if err != nil {
		return nil, shaderError(name, src, err)
	}
	p := &PostShader{prog: prog, uniforms: uniforms}
	p.locTime, p.locSize, p.locLayer = prog.Uniform("u_time"), prog.Uniform("u_size"), prog.Uniform("u_layer")
	prog.Use()
	gl.Uniform1i(p.locLayer, 0)
	check("glUniform1i")
	for k := range p.locLayers {
		p.locLayers[k] = prog.Uniform("u_layer" + strconv.Itoa(k))
		gl.Uniform1i(p.locLayers[k], int32(3+k))
		check("glUniform1i")
	}
	for _, u := range uniforms {
		p.locs = append(p.locs, prog.Uniform(u.Name))
	}
	gl.GenVertexArrays(1, &p.vao) // core profile draws need one, even empty
	check("glGenVertexArrays")
	return p, nil
}

// Draw draws the shader over the current framebuffer of w x h pixels,
// blended onto it: src is u_layer (nil: none), layers[k] is u_layerK,
// values hold its uniforms' values (at each PostUniform's At), time is
// u_time. It does not allocate.
//
// GL thread only.
func (p *PostShader) Draw(src *Target, layers *[8]*Target, values []float32, time float32, w, h int) {
	p.prog.Use()
	gl.Uniform1f(p.locTime, time)
	gl.Uniform2f(p.locSize, float32(w), float32(h))
	for i, u := range p.uniforms {
		if u.At+u.N > len(values) {
			continue
		}
		v := values[u.At:]
		switch u.N {
		case 1:
			gl.Uniform1f(p.locs[i], v[0])
		case 2:
			gl.Uniform2f(p.locs[i], v[0], v[1])
		case 3:
			gl.Uniform3f(p.locs[i], v[0], v[1], v[2])
		case 4:
			gl.Uniform4f(p.locs[i], v[0], v[1], v[2], v[3])
		}
	}
	check("glUniform")
	for k, t := range layers {
		if t != nil && p.locLayers[k] >= 0 {
			gl.ActiveTexture(gl.TEXTURE3 + uint32(k))
			gl.BindTexture(gl.TEXTURE_2D, t.tex)
		}
	}
	gl.ActiveTexture(gl.TEXTURE0)
	if src != nil {
		gl.BindTexture(gl.TEXTURE_2D, src.tex)
	}
	check("glBindTexture")
	gl.BindVertexArray(p.vao)
	check("glBindVertexArray")
	gl.DrawArrays(gl.TRIANGLES, 0, 3)
	check("glDrawArrays")
}

// Delete frees the shader. It must not be used afterwards.
//
// GL thread only.
func (p *PostShader) Delete() {
	if p.prog != nil {
		p.prog.Delete()
		p.prog = nil
	}
	deleteVertexArray(&p.vao)
}
