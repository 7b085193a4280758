#version 410 core

// One anti-aliased shape or glyph, interpolated between two snapshots like
// a sprite, drawn as an instanced 4-vertex triangle strip over its box
// (grown by a pixel and a half for the soft edge); the corner is
// gl_VertexID & 3. shape.frag computes the coverage.

layout(location = 0) in vec4 a_prev;  // x, y (the anchor), a, b in prev
layout(location = 1) in vec4 a_curr;  // the same in curr
layout(location = 2) in vec4 a_extra; // c, d, e, f: not blended
layout(location = 3) in uvec3 a_meta; // kind, polygon data (first << 8 | count), width bits
layout(location = 4) in vec4 a_tint;  // straight-alpha RGBA

uniform mat4 u_viewProj;
uniform float u_alpha; // 0 draws prev, 1 draws curr
uniform float u_px;    // local units per framebuffer pixel (1/zoom in the world, 1 on screen)
uniform vec2 u_glyphSize; // the glyph atlas's size in texels

out vec2 v_local;          // the fragment relative to the anchor
flat out vec4 v_param;     // a, b (blended), c, d
flat out uvec2 v_kind;     // kind, polygon data
flat out float v_width;
flat out vec4 v_tint;

const uint CIRCLE = 1u, ELLIPSE = 2u, RECT = 3u, LINE = 4u, ARC = 5u, POLYGON = 6u, GLYPH = 7u;

void main() {
	int corner = gl_VertexID & 3;
	vec2 c = vec2(corner & 1, corner >> 1);

	vec4 s = a_prev + (a_curr - a_prev) * u_alpha;
	uint kind = a_meta.x;
	float width = uintBitsToFloat(a_meta.z);
	vec2 lo, hi;
	if (kind == CIRCLE || kind == ARC) {
		lo = vec2(-s.z);
		hi = vec2(s.z);
	} else if (kind == ELLIPSE) {
		lo = -s.zw;
		hi = s.zw;
	} else if (kind == RECT) {
		lo = min(vec2(0.0), s.zw);
		hi = max(vec2(0.0), s.zw);
	} else if (kind == LINE) {
		lo = min(vec2(0.0), s.zw) - width * 0.5;
		hi = max(vec2(0.0), s.zw) + width * 0.5;
	} else if (kind == POLYGON) {
		lo = a_extra.xy;
		hi = a_extra.zw;
	} else { // GLYPH: the offset of its top-left corner, its size from the uv box
		lo = s.zw;
		hi = s.zw + (a_extra.zw - a_extra.xy) * width;
	}
	float margin = kind == GLYPH ? 0.0 : 1.5 * u_px;
	vec2 local = mix(lo - margin, hi + margin, c);
	if (kind == LINE) {
		// A quad along the line, not its bounding box: a long diagonal
		// line covers its length times its width, not a square.
		float len = length(s.zw);
		vec2 u = len > 0.0 ? s.zw / len : vec2(1.0, 0.0);
		vec2 n = vec2(-u.y, u.x);
		float e = width * 0.5 + margin;
		local = u * mix(-e, len + e, c.x) + n * mix(-e, e, c.y);
	}
	gl_Position = u_viewProj * vec4(s.xy + local, 0.0, 1.0);

	v_local = local;
	v_param = vec4(s.zw, a_extra.xy);
	if (kind == GLYPH) {
		v_local = mix(a_extra.xy, a_extra.zw, c) / u_glyphSize;
	}
	v_kind = a_meta.xy;
	v_width = width;
	v_tint = vec4(a_tint.rgb * a_tint.a, a_tint.a);
}
