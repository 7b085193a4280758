//go:build cgo && linux

package gl_test

import (
	"testing"

	"github.com/tandem-engine/tandem/gl"
	"github.com/tandem-engine/tandem/gl/internal/gltest"
	"github.com/tandem-engine/tandem/internal/engine"
	"github.com/tandem-engine/tandem/internal/glcheck"
)

// TestShaderCheckAsWindow compiles the same broken shaders at a window
// (GLX, as a run's frames) and in internal/glcheck's context with no
// display (EGL, as a run's Setup pass): the two messages are the same,
// word for word, so the earlier check says what the window would.
func TestShaderCheckAsWindow(t *testing.T) {
	for _, src := range []string{
		"#version 410 core\nin vec2 v_uv;\nout vec4 o_color;\nvoid main() {\n\to_color = vec4(v_uv, 0.0 1.0);\n}\n",
		"#version 410 core\nin vec2 v_uv;\nout vec4 o_color;\nvoid main() {\n\to_color = vec3(v_uv, 1.0);\n}\n",
		"#version 410 core\nin vec3 v_uv;\nout vec4 o_color;\nvoid main() {\n\to_color = vec4(v_uv, 1.0);\n}\n", // a link error: v_uv is a vec2
	} {
		ran, _, early := glcheck.Shaders([]engine.Shader{{Name: "crt", Source: src}})
		if !ran {
			t.Fatal("glcheck made no context without a display: Linux with Mesa has one (libEGL, surfaceless)")
		}
		gltest.Window(t, 16, 16)
		var err error
		gltest.Do(func() {
			if err = gl.Init(); err != nil { // glcheck's context loaded its own functions
				return
			}
			var p *gl.PostShader
			if p, err = gl.NewPostShader("crt", src, nil); p != nil {
				p.Delete()
			}
		})
		if err == nil || early == nil {
			t.Fatalf("window: %v; no display: %v; want both to fail", err, early)
		}
		if want := "tandem: " + err.Error(); early.Error() != want {
			t.Errorf("no display says\n%s\nthe window says\n%s", early, want)
		}
		t.Logf("both: %v", early)
	}
}
