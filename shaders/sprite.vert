#version 410 core

// One sprite, interpolated on the GPU between two snapshots. Drawn either as
// an instanced 4-vertex triangle strip (attributes advance per instance) or
// pre-expanded (4 vertices per sprite, indexed); either way the corner is
// gl_VertexID & 3.

layout(location = 0) in vec4 a_prev;  // x, y (world px, y down), cos, sin of the angle, in prev
layout(location = 1) in vec4 a_curr;  // the same in curr; equal to a_prev for a sprite that snaps
layout(location = 2) in uint a_frame; // index into u_frames
layout(location = 3) in vec4 a_tint;  // straight-alpha RGBA

uniform mat4 u_viewProj;
uniform float u_alpha;          // 0 draws prev, 1 draws curr
uniform samplerBuffer u_frames; // per frame: (u0, v0, u1, v1), (w, h, 0, 0)
// The overlay (gl.SpriteBatch.SetOverlay): the slot drawn as a
// screen-space rectangle instead of a sprite, -1 for none; its corners in
// clip space (left, top, right, bottom); its texture coordinates.
uniform int u_overlayAt;
uniform vec4 u_overlayRect;
uniform vec4 u_overlayUV;

noperspective out vec2 v_uv; // see sprite.frag
flat out vec4 v_tint;       // see sprite.frag


void main() {
	int corner = gl_VertexID & 3;
	vec2 c = vec2(corner & 1, corner >> 1); // 0 or 1: left/right, top/bottom

	int f = int(a_frame);
	vec2 size = vec2(0.0); // an unknown frame collapses to nothing
	vec4 uv = vec4(0.0);
	// A hidden sprite (a free entity slot: alpha 0) collapses to nothing,
	// so it costs no fill.
	if (f < textureSize(u_frames) / 2 && a_tint.a > 0.0) {
		uv = texelFetch(u_frames, 2 * f);
		size = texelFetch(u_frames, 2 * f + 1).xy;
	}

	// prev + (curr-prev)*alpha, not mix(): exactly curr when prev == curr.
	vec2 pos = a_prev.xy + (a_curr.xy - a_prev.xy) * u_alpha;
	// The rotation and scale: each vector's direction is the angle and its
	// length the scale. Blend the directions and normalize (nlerp), which
	// follows the shorter arc, and blend the lengths. Opposite vectors (a
	// half turn in one tick) have no shorter arc; the sprite then takes
	// curr's rotation.
	float sp = length(a_prev.zw), sc = length(a_curr.zw);
	float scale = sp + (sc - sp) * u_alpha;
	vec2 r = a_prev.zw / sp + (a_curr.zw / sc - a_prev.zw / sp) * u_alpha;
	float len2 = dot(r, r);
	r = (len2 > 1e-12 ? r * inversesqrt(len2) : a_curr.zw / sc) * scale;

	vec2 local = (c - 0.5) * size;
	float k = r.x;
	float s = r.y;
	// With y down, a positive angle turns clockwise on screen.
	vec2 world = pos + vec2(k * local.x - s * local.y, s * local.x + k * local.y);

	gl_Position = u_viewProj * vec4(world, 0.0, 1.0);
	v_uv = mix(uv.xy, uv.zw, c);
	v_tint = vec4(a_tint.rgb * a_tint.a, a_tint.a);
	// The slot: the instance's in the instanced layout (whose vertex IDs
	// are 0 to 3), the vertex's quarter in the expanded one. The overlay's
	// is chosen after the sprite's work rather than instead of it: a
	// software rasterizer runs both sides of a branch anyway.
	if (gl_InstanceID + (gl_VertexID >> 2) == u_overlayAt) {
		gl_Position = vec4(mix(u_overlayRect.xy, u_overlayRect.zw, c), 0.0, 1.0);
		v_uv = mix(u_overlayUV.xy, u_overlayUV.zw, c);
		v_tint = vec4(1.0);
	}
}
