package gl

import (
	"errors"
	"image"
	"strings"
	"testing"

	"github.com/tandem-engine/tandem/gl/internal/gltest"
	"github.com/tandem-engine/tandem/snapshot"
)

// TestPostShaderError checks that a game's shader that does not compile
// is an error naming the shader, the line and what is wrong there.
func TestPostShaderError(t *testing.T) {
	withGL(t, 16, 16)
	src := "#version 410 core\nin vec2 v_uv;\nout vec4 o_color;\nvoid main() {\n\to_color = vec4(v_uv, 0.0 1.0);\n}\n"
	var err error
	gltest.Do(func() {
		var p *PostShader
		if p, err = NewPostShader("crt", src, nil); p != nil {
			p.Delete()
		}
	})
	var se *ShaderError
	if !errors.As(err, &se) {
		t.Fatalf("error %v, want a *ShaderError", err)
	}
	if se.Name != "crt" || se.Line != 5 || !strings.Contains(se.Text, "0.0 1.0") {
		t.Errorf("ShaderError{Name %q, Line %d, Text %q}, want crt, line 5 and its text", se.Name, se.Line, se.Text)
	}
	if msg := err.Error(); !strings.Contains(msg, `shader "crt": line 5:`) {
		t.Errorf("message %q does not name the shader and the line", msg)
	}
	t.Logf("the message: %v", err)
}

// TestPostShaderLayers draws a layer into a target and another into an
// offscreen target, then a shader that reads both, with a uniform, over
// the frame: the layer's red becomes green at u_gain, the offscreen
// layer's green becomes blue.
func TestPostShaderLayers(t *testing.T) {
	b := newShapeBatch(t)
	const src = `#version 410 core
in vec2 v_uv;
out vec4 o_color;
uniform sampler2D u_layer;
uniform sampler2D u_layer3;
uniform float u_gain;
uniform vec2 u_size;
void main() {
	vec4 c = texture(u_layer, v_uv);
	vec4 l = texture(u_layer3, v_uv);
	// A stripe 4 px high on the framebuffer's bottom rows, from u_size.
	float stripe = v_uv.y * u_size.y < 4.0 ? 1.0 : 0.0;
	o_color = vec4(stripe, c.r * u_gain, l.g, 1.0);
}
`
	s := shapes(
		snapshot.Shape{Kind: snapshot.ShapeCircle, X: 60, Y: 60, A: 30, Tint: tRed, Layer: 1},
		snapshot.Shape{Kind: snapshot.ShapeRect, X: 150, Y: 30, A: 60, B: 60, Tint: tGreen, Layer: 3},
	)
	var err error
	var p *PostShader
	var layer, off *Target
	gltest.Do(func() {
		if p, err = NewPostShader("mix", src, []PostUniform{{Name: "u_gain", N: 1, At: 0}}); err != nil {
			return
		}
		if layer, err = NewTarget(shW, shH); err != nil {
			return
		}
		off, err = NewTarget(shW, shH)
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		gltest.Do(func() {
			p.Delete()
			layer.Delete()
			off.Delete()
		})
	})
	vp := CameraMatrix(shapeCam, shW, shH)
	var img *image.RGBA
	gltest.Do(func() {
		b.Upload(s, s, nil)
		layer.Bind(0, 0, 0, 0)
		b.Draw(1, false, vp, 1, 1)
		off.Bind(0, 0, 0, 0)
		b.Draw(3, false, vp, 1, 1)
		BindScreen(shW, shH)
		Clear(0, 0, 0, 1)
		layers := [8]*Target{3: off}
		p.Draw(layer, &layers, []float32{0.5}, 0, shW, shH)
		img = ReadPixels(0, 0, shW, shH)
	})
	for _, tc := range []struct {
		name    string
		x, y    int
		r, g, b uint8
	}{
		{"circle's centre", 60, 60, 0, 128, 0},
		{"rect's centre", 180, 60, 0, 0, 255},
		{"empty", 120, 110, 0, 0, 0},
		{"stripe", 120, 126, 255, 0, 0},
	} {
		c := img.RGBAAt(tc.x, tc.y)
		d := func(a, b uint8) bool { return int(a)-int(b) <= 2 && int(b)-int(a) <= 2 }
		if !d(c.R, tc.r) || !d(c.G, tc.g) || !d(c.B, tc.b) {
			t.Errorf("%s (%d, %d): %v, want %d %d %d", tc.name, tc.x, tc.y, c, tc.r, tc.g, tc.b)
		}
	}
	golden(t, "post-layers", img)
}
