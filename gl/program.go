package gl

import (
	"fmt"
	"strings"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// Program is a linked GLSL program. Its uniform locations are looked up
// once, at link time, so that drawing never builds the NUL-terminated name
// strings go-gl needs.
type Program struct {
	id       uint32
	name     string
	uniforms map[string]int32
}

// CompileError is a shader that failed to compile: the driver's info log
// and the source, which Error prints with line numbers (FormatSource) so the
// log's line references can be read off directly.
type CompileError struct {
	Stage  string // "vertex" or "fragment"
	Log    string // the driver's info log
	Source string
}

// Error returns the stage, the log and the numbered source.
//
// Any goroutine.
func (e *CompileError) Error() string {
	return fmt.Sprintf("%s shader: %s\n%s", e.Stage, strings.TrimSpace(e.Log), FormatSource(e.Source))
}

// NewProgram compiles and links a vertex and a fragment shader. name is used
// in errors only. A failed compile returns an error
// "gl: compile NAME: ..." wrapping a [*CompileError]; a failed link returns
// "gl: link NAME: ..." with the driver's log and both sources numbered.
//
// GL thread only.
func NewProgram(name, vertSrc, fragSrc string) (*Program, error) {
	vs, err := compileShader(gl.VERTEX_SHADER, "vertex", vertSrc)
	if err != nil {
		return nil, fmt.Errorf("gl: compile %s: %w", name, err)
	}
	defer deleteShader(vs) // after the link; the program keeps what it needs
	fs, err := compileShader(gl.FRAGMENT_SHADER, "fragment", fragSrc)
	if err != nil {
		return nil, fmt.Errorf("gl: compile %s: %w", name, err)
	}
	defer deleteShader(fs)

	id := gl.CreateProgram()
	check("glCreateProgram")
	gl.AttachShader(id, vs)
	check("glAttachShader")
	gl.AttachShader(id, fs)
	check("glAttachShader")
	gl.LinkProgram(id)
	check("glLinkProgram")
	var ok int32
	gl.GetProgramiv(id, gl.LINK_STATUS, &ok)
	check("glGetProgramiv")
	if ok == gl.FALSE {
		log := programLog(id)
		gl.DeleteProgram(id)
		check("glDeleteProgram")
		return nil, fmt.Errorf("gl: link %s: %s\nvertex shader:\n%s\nfragment shader:\n%s",
			name, strings.TrimSpace(log), FormatSource(vertSrc), FormatSource(fragSrc))
	}
	// Detached shaders are freed by the deferred deletes.
	gl.DetachShader(id, vs)
	check("glDetachShader")
	gl.DetachShader(id, fs)
	check("glDetachShader")
	return &Program{id: id, name: name, uniforms: activeUniforms(id)}, nil
}

// Delete frees the program. The Program must not be used afterwards.
//
// GL thread only.
func (p *Program) Delete() {
	if p.id != 0 {
		gl.DeleteProgram(p.id)
		check("glDeleteProgram")
		p.id = 0
	}
}

// Use makes p the current program.
//
// GL thread only.
func (p *Program) Use() {
	gl.UseProgram(p.id)
	check("glUseProgram")
}

// Uniform returns the location of the active uniform name ("u_alpha"; an
// array also answers to its bare name), or -1 if the program has no such
// active uniform (the GL ignores -1 when setting). It does not allocate.
//
// Any goroutine (it reads a table filled at link time).
func (p *Program) Uniform(name string) int32 {
	if loc, ok := p.uniforms[name]; ok {
		return loc
	}
	return -1
}

// FormatSource returns src with every line prefixed by its 1-based number,
// as "%4d: ", the numbering drivers use in their logs.
//
// Any goroutine.
func FormatSource(src string) string {
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimSuffix(src, "\n"), "\n") {
		fmt.Fprintf(&b, "%4d: %s\n", i+1, line)
	}
	return b.String()
}

func compileShader(kind uint32, stage, src string) (uint32, error) {
	id := gl.CreateShader(kind)
	check("glCreateShader")
	csrc, free := gl.Strs(src + "\x00")
	gl.ShaderSource(id, 1, csrc, nil)
	check("glShaderSource")
	free()
	gl.CompileShader(id)
	check("glCompileShader")
	var ok int32
	gl.GetShaderiv(id, gl.COMPILE_STATUS, &ok)
	check("glGetShaderiv")
	if ok == gl.FALSE {
		var n int32
		gl.GetShaderiv(id, gl.INFO_LOG_LENGTH, &n)
		check("glGetShaderiv")
		log := make([]byte, n+1)
		gl.GetShaderInfoLog(id, n+1, nil, &log[0])
		check("glGetShaderInfoLog")
		deleteShader(id)
		return 0, &CompileError{Stage: stage, Log: cString(log), Source: src}
	}
	return id, nil
}

func deleteShader(id uint32) {
	gl.DeleteShader(id)
	check("glDeleteShader")
}

func programLog(id uint32) string {
	var n int32
	gl.GetProgramiv(id, gl.INFO_LOG_LENGTH, &n)
	check("glGetProgramiv")
	log := make([]byte, n+1)
	gl.GetProgramInfoLog(id, n+1, nil, &log[0])
	check("glGetProgramInfoLog")
	return cString(log)
}

// activeUniforms maps the name of every active uniform to its location.
func activeUniforms(id uint32) map[string]int32 {
	var count, maxLen int32
	gl.GetProgramiv(id, gl.ACTIVE_UNIFORMS, &count)
	check("glGetProgramiv")
	gl.GetProgramiv(id, gl.ACTIVE_UNIFORM_MAX_LENGTH, &maxLen)
	check("glGetProgramiv")
	m := make(map[string]int32, count)
	buf := make([]byte, maxLen+1)
	for i := range uint32(count) {
		var length, size int32
		var typ uint32
		gl.GetActiveUniform(id, i, int32(len(buf)), &length, &size, &typ, &buf[0])
		check("glGetActiveUniform")
		name := string(buf[:length])
		loc := gl.GetUniformLocation(id, gl.Str(name+"\x00"))
		check("glGetUniformLocation")
		if loc < 0 {
			continue // a uniform block member
		}
		m[name] = loc
		if base, ok := strings.CutSuffix(name, "[0]"); ok {
			m[base] = loc
		}
	}
	return m
}

func cString(b []byte) string {
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}
