//go:build cgo && linux

package glcheck

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/internal/engine"
)

const good = `#version 410 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_layer;
uniform float u_glow;
void main() { o_color = texture(u_layer, v_uv) * (1.0 + u_glow); }
`

// TestShadersWithoutDisplay compiles a good shader and two broken ones
// with no display to be had (DISPLAY unset): a broken one fails with its
// name, its line and that line's text, as the window's compile says it.
func TestShadersWithoutDisplay(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	ran, driver, err := Shaders([]engine.Shader{{Name: "glow", Source: good}})
	if !ran {
		if os.Getenv("CI") == "true" {
			t.Fatal("no GL context without a display (libEGL with Mesa's surfaceless platform or a device): CI must have one")
		}
		t.Skip("no GL context without a display here")
	}
	if err != nil {
		t.Fatalf("a good shader: %v", err)
	}
	t.Logf("driver: %s", driver)
	for _, tc := range []struct {
		name, src string
		line      int
		text      string
	}{
		{"syntax", strings.Replace(good, "(1.0 + u_glow)", "(1.0 + )", 1), 6, "void main() { o_color = texture(u_layer, v_uv) * (1.0 + ); }"},
		// A type error no parser alone would see: a vec3 into a vec4.
		{"types", strings.Replace(good, "void main() {", "void main() {\n\tvec4 c = vec3(1.0);\n", 1), 7, "\tvec4 c = vec3(1.0);"},
	} {
		_, _, err := Shaders([]engine.Shader{{Name: "glow", Source: good}, {Name: tc.name, Source: tc.src}})
		var se *gl.ShaderError
		if !errors.As(err, &se) {
			t.Errorf("%s: %v, want a *gl.ShaderError", tc.name, err)
			continue
		}
		if se.Name != tc.name || se.Line != tc.line || se.Text != tc.text {
			t.Errorf("%s: shader %q line %d %q, want %q line %d %q", tc.name, se.Name, se.Line, se.Text, tc.name, tc.line, tc.text)
		}
		if want := `tandem: shader "` + tc.name + `": line `; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %q does not start %q", tc.name, err, want)
		}
	}
}

// TestNoShadersNoContext: a game without shaders makes no context.
func TestNoShadersNoContext(t *testing.T) {
	if ran, _, err := Shaders(nil); ran || err != nil {
		t.Fatalf("no shaders: ran %v, %v", ran, err)
	}
}

// BenchmarkShaders is what the Setup pass adds to a run of a game with
// one shader: a context made, the shader compiled and linked, the
// context gone.
func BenchmarkShaders(b *testing.B) {
	sh := []engine.Shader{{Name: "glow", Source: good}}
	for b.Loop() {
		if ran, _, err := Shaders(sh); !ran || err != nil {
			b.Fatalf("ran %v, %v", ran, err)
		}
	}
}
