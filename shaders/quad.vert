#version 410 core

// A screen-space rectangle for the HUD, drawn as an instanced 4-vertex
// triangle strip; the corner is gl_VertexID & 3.

layout(location = 0) in vec4 a_rect;  // x, y, w, h in framebuffer px, top-left origin, y down
layout(location = 1) in uint a_frame; // index into u_frames (only its uv is used)
layout(location = 2) in vec4 a_tint;  // straight-alpha RGBA

uniform vec2 u_screen;          // framebuffer size in px
uniform samplerBuffer u_frames; // per frame: (u0, v0, u1, v1), (w, h, 0, 0)

out vec2 v_uv;
out vec4 v_tint;

void main() {
	int corner = gl_VertexID & 3;
	vec2 c = vec2(corner & 1, corner >> 1);

	int f = int(a_frame);
	vec4 uv = vec4(0.0);
	vec4 tint = a_tint;
	if (f < textureSize(u_frames) / 2) {
		uv = texelFetch(u_frames, 2 * f);
	} else {
		tint = vec4(0.0); // an unknown frame draws nothing
	}

	vec2 p = a_rect.xy + c * a_rect.zw;
	gl_Position = vec4(2.0 * p.x / u_screen.x - 1.0, 1.0 - 2.0 * p.y / u_screen.y, 0.0, 1.0);
	v_uv = mix(uv.xy, uv.zw, c);
	v_tint = vec4(tint.rgb * tint.a, tint.a);
}
