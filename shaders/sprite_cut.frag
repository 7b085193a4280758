#version 410 core

// A sprite of an untinted batch whose atlas is cut-out art: every texel
// fully opaque or fully transparent (zero), sampled nearest, as pixel art
// is. Drawn with blending off: an opaque texel blended with
// glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA) is the texel exactly, and a
// transparent one leaves the pixel as it was, which a discard does too. So
// it is sprite_white.frag's picture without reading and blending the
// framebuffer's pixel under every fragment, which is most of the fill
// under a software rasterizer.

noperspective in vec2 v_uv;

uniform sampler2D u_atlas;

out vec4 o_color;

void main() {
	vec4 c = texture(u_atlas, v_uv);
	if (c.a == 0.0) {
		discard;
	}
	o_color = c;
}
