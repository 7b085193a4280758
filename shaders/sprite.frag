#version 410 core

// A sprite's pixel: the atlas texel times the tint. The atlas holds
// premultiplied alpha (Go's image.RGBA does) and v_tint is premultiplied by
// the vertex shader, so the output is premultiplied: blend with
// glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA).
//
// The tint is the same at a sprite's four corners, so it is flat: the
// rasterizer interpolates nothing for it, where a smooth vec4 costs four
// interpolations a pixel (under llvmpipe, on the render thread). Sprites are
// drawn in 2D, where w is 1 at every corner, so the texture coordinate is
// interpolated without perspective: the same values, without the divide.

noperspective in vec2 v_uv;
flat in vec4 v_tint;

uniform sampler2D u_atlas;

out vec4 o_color;

void main() {
	o_color = texture(u_atlas, v_uv) * v_tint;
}
