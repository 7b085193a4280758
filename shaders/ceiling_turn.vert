#version 410 core

// The ceiling of sprites that turn (tandem bench -ceiling -spin): as
// ceiling.vert, with each quad turned about its centre by its own angle,
// as the sprite shader turns a sprite. 12 bytes an instance: the top-left
// corner of the upright quad and the angle.

layout(location = 0) in vec3 a_quad; // top-left corner of the upright quad (world px, y down), angle (rad)

uniform mat4 u_viewProj;
uniform vec4 u_uv;   // the atlas region: u0, v0, u1, v1
uniform vec2 u_size; // the quad's size in world px

noperspective out vec2 v_uv; // see sprite.frag
flat out vec4 v_tint;       // see sprite.frag

void main() {
	int corner = gl_VertexID & 3;
	vec2 c = vec2(corner & 1, corner >> 1);
	vec2 local = (c - 0.5) * u_size;
	float k = cos(a_quad.z);
	float s = sin(a_quad.z);
	// With y down, a positive angle turns clockwise on screen, as a sprite's.
	vec2 world = a_quad.xy + 0.5 * u_size + vec2(k * local.x - s * local.y, s * local.x + k * local.y);
	gl_Position = u_viewProj * vec4(world, 0.0, 1.0);
	v_uv = mix(u_uv.xy, u_uv.zw, c);
	v_tint = vec4(1.0);
}
