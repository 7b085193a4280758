#version 410 core

// The atlas texel times the tint. The atlas holds premultiplied alpha (Go's
// image.RGBA does) and v_tint is premultiplied by the vertex shader, so the
// output is premultiplied: blend with glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA).

in vec2 v_uv;
in vec4 v_tint;

uniform sampler2D u_atlas;

out vec4 o_color;

void main() {
	o_color = texture(u_atlas, v_uv) * v_tint;
}
