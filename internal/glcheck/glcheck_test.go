//go:build cgo && (linux || windows)

package glcheck

import (
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/internal/mainthread"
	"github.com/tandem-engine/tandem/window"
)

// Windows' check opens a hidden window, which is the main thread's to
// do: the tests call Shaders there (shaders).
func TestMain(m *testing.M) { os.Exit(mainthread.Run(m.Run)) }

// shaders is Shaders on the main thread.
func shaders(list []engine.Shader) (ran bool, driver string, err error) {
	mainthread.Do(func() { ran, driver, err = Shaders(list) })
	return ran, driver, err
}

const good = `#version 410 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_layer;
uniform float u_glow;
void main() { o_color = texture(u_layer, v_uv) * (1.0 + u_glow); }
`

// TestShadersWithoutDisplay compiles a good shader and two broken ones
// before any window: on Linux with no display to be had (DISPLAY unset),
// on Windows in a hidden window's context (not under Wine). A broken one fails with its
// name, its line and that line's text, as the window's compile says it.
func TestShadersWithoutDisplay(t *testing.T) {
	if runtime.GOOS == "linux" {
		t.Setenv("DISPLAY", "")
		t.Setenv("WAYLAND_DISPLAY", "")
	}
	ran, driver, err := shaders([]engine.Shader{{Name: "glow", Source: good}})
	if window.UnderWine() {
		// Wine is left to the window's compile (newContext says why).
		if ran || err != nil {
			t.Fatalf("under Wine the check ran (%v, %v); want it left to the window", ran, err)
		}
		return
	}
	if !ran {
		if os.Getenv("CI") == "true" {
			t.Fatal("no GL context before a window (Linux: libEGL with Mesa's surfaceless platform or a device; Windows: a hidden window): CI must have one")
		}
		t.Skip("no GL context before a window here")
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
		_, _, err := shaders([]engine.Shader{{Name: "glow", Source: good}, {Name: tc.name, Source: tc.src}})
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
	if ran, _, err := shaders(nil); ran || err != nil {
		t.Fatalf("no shaders: ran %v, %v", ran, err)
	}
}

// BenchmarkShaders is what the Setup pass adds to a run of a game with
// one shader: a context made, the shader compiled and linked, the
// context gone.
func BenchmarkShaders(b *testing.B) {
	sh := []engine.Shader{{Name: "glow", Source: good}}
	for b.Loop() {
		if ran, _, err := shaders(sh); !ran || err != nil {
			b.Fatalf("ran %v, %v", ran, err)
		}
	}
}
