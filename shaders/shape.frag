#version 410 core

// The coverage of one shape from its signed distance (negative inside),
// in local units turned to pixels: a one-pixel ramp across the edge, so
// that edges are anti-aliased at any size and zoom. A glyph's coverage is
// its atlas texel. The output is premultiplied alpha.

in vec2 v_local;
flat in vec4 v_param;
flat in uvec2 v_kind;
flat in float v_width;
flat in vec4 v_tint;

uniform float u_px;
uniform samplerBuffer u_points; // polygons' corners, relative to their anchors
uniform sampler2D u_glyphs;     // the glyph atlas: coverage in red

out vec4 o_color;

const uint CIRCLE = 1u, ELLIPSE = 2u, RECT = 3u, LINE = 4u, ARC = 5u, POLYGON = 6u, GLYPH = 7u;

float ellipse(vec2 p, vec2 r) {
	// The implicit function over its gradient's length: exact on the
	// edge, which is all a one-pixel ramp needs.
	r = max(r, vec2(1e-6));
	float k0 = length(p / r);
	float k1 = length(p / (r * r));
	return k1 > 0.0 ? k0 * (k0 - 1.0) / k1 : -min(r.x, r.y);
}

float segment(vec2 p, vec2 b) {
	float h = clamp(dot(p, b) / max(dot(b, b), 1e-12), 0.0, 1.0);
	return length(p - b * h);
}

// arc: a ring of radius r (to its outer edge) from angle a0 to a1 on
// screen (clockwise, y down), w wide, or the pie slice when w is 0.
float arc(vec2 p, float r, float a0, float a1, float w) {
	float span = a1 - a0;
	if (span >= 6.2831853) {
		float d = length(p) - r;
		return w > 0.0 ? abs(d + w * 0.5) - w * 0.5 : d;
	}
	float mid = (a0 + a1) * 0.5, hspan = span * 0.5;
	vec2 cs = vec2(cos(mid), sin(mid));
	p = vec2(cs.x * p.x + cs.y * p.y, -cs.y * p.x + cs.x * p.y); // turned so the arc centres on +x
	p.y = abs(p.y);
	vec2 sc = vec2(cos(hspan), sin(hspan));
	bool inside = sc.y * p.x - sc.x * p.y > 0.0;
	if (w > 0.0) {
		float rm = r - w * 0.5;
		return (inside ? abs(length(p) - rm) : length(p - sc * rm)) - w * 0.5;
	}
	float l = length(p) - r;
	float m = length(p - sc * clamp(dot(p, sc), 0.0, r));
	return max(l, inside ? -m : m);
}

float polygon(vec2 p, uint data) {
	int first = int(data >> 8), n = int(data & 255u);
	// The winding's sign (twice the signed area), so that either order
	// of the corners gives outward normals.
	float area = 0.0;
	vec2 a = texelFetch(u_points, first + n - 1).xy;
	for (int i = 0; i < n; i++) {
		vec2 b = texelFetch(u_points, first + i).xy;
		area += a.x * b.y - b.x * a.y;
		a = b;
	}
	float wind = area < 0.0 ? -1.0 : 1.0;
	float d = -1e30;
	a = texelFetch(u_points, first + n - 1).xy;
	for (int i = 0; i < n; i++) {
		vec2 b = texelFetch(u_points, first + i).xy;
		vec2 e = b - a;
		float len = length(e);
		if (len > 0.0) {
			d = max(d, wind * dot(p - a, vec2(e.y, -e.x)) / len);
		}
		a = b;
	}
	return d;
}

void main() {
	uint kind = v_kind.x;
	if (kind == GLYPH) {
		o_color = v_tint * texture(u_glyphs, v_local).r;
		return;
	}
	vec2 p = v_local;
	float d;
	bool outline = v_width > 0.0;
	if (kind == CIRCLE) {
		d = length(p) - v_param.x;
	} else if (kind == ELLIPSE) {
		d = ellipse(p, v_param.xy);
	} else if (kind == RECT) {
		vec2 hb = abs(v_param.xy) * 0.5;
		float r = clamp(v_param.z, 0.0, min(hb.x, hb.y));
		vec2 q = abs(p - v_param.xy * 0.5) - hb + r;
		d = length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
	} else if (kind == LINE) {
		d = segment(p, v_param.xy) - v_width * 0.5;
		outline = false;
	} else if (kind == ARC) {
		d = arc(p, v_param.x, v_param.z, v_param.w, v_width);
		outline = false;
	} else {
		d = polygon(p, v_kind.y);
	}
	if (outline) {
		d = abs(d + v_width * 0.5) - v_width * 0.5;
	}
	float cover = clamp(0.5 - d / u_px, 0.0, 1.0);
	o_color = v_tint * cover;
}
