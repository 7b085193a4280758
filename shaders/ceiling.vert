#version 410 core

// The ceiling: the sprite batch's quads with nothing else. One instanced
// 4-vertex triangle strip per quad, 8 bytes an instance (its top-left
// corner), one multiply by the view matrix; its size and its atlas region
// are the same for every quad. It feeds the same fragment stage as the
// sprites (sprite.frag, or for cut-out art sprite_cut.frag with blending
// off, as the sprites draw it), so that the fill is the same work.

layout(location = 0) in vec2 a_pos; // top-left corner, world px, y down

uniform mat4 u_viewProj;
uniform vec4 u_uv;   // the atlas region: u0, v0, u1, v1
uniform vec2 u_size; // the quad's size in world px

noperspective out vec2 v_uv; // see sprite.frag
flat out vec4 v_tint;       // see sprite.frag

void main() {
	int corner = gl_VertexID & 3;
	vec2 c = vec2(corner & 1, corner >> 1);
	gl_Position = u_viewProj * vec4(a_pos + c * u_size, 0.0, 1.0);
	v_uv = mix(u_uv.xy, u_uv.zw, c);
	v_tint = vec4(1.0);
}
